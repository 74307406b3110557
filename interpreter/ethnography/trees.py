"""Pictures of the family of rulesets, where people would rather look than read.

  tarock tree [NAME…] -o family.svg              the family tree of `extends`: each ruleset under
                                                 the ones it is written as "like X, except …"
  tarock tree --by shared [NAME…] -o shared.svg  a tree of the rulesets by how many rules they
                                                 share: the two that differ in fewest rules join
                                                 first (average linkage, UPGMA), the lengths
                                                 being the number of rules `tarock diff` reports
  tarock tree … --format text                    the same as an indented outline

NAMEs default to every built-in ruleset (and, for `extends`, the bases they are built on).
The SVG is drawn with matplotlib, an optional extra: `pip install "tarock[pictures]"`.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Any

from interpreter.errors import TarockError
from interpreter.ethnography.diff import rule_differences
from interpreter.ethnography.semantic import Side, display_name
from interpreter.language.loader import find_ruleset_file, resolve, ruleset_names
from interpreter.language.provenance import file_data

if TYPE_CHECKING:
    from matplotlib.figure import Figure

MISSING_LIBRARY = (
    'drawing needs matplotlib, an optional extra: pip install "tarock[pictures]" (or use --format text for an outline)'
)


# -- the family tree of `extends` ---------------------------------------------------------------------


@dataclass
class Family:
    """Rulesets and what each extends, in the order found."""

    parents: dict[str, list[str]] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    bases: set[str] = field(default_factory=set)

    def children(self, name: str) -> list[str]:
        return [n for n, ps in self.parents.items() if name in ps]

    def roots(self) -> list[str]:
        return [n for n, ps in self.parents.items() if not ps]


def family(names: Iterable[str] | None = None) -> Family:
    """The family of the named rulesets (all built-in ones by default), with every ruleset they
    extend, however far up."""
    result = Family()
    todo = list(names) if names is not None else ruleset_names(include_bases=True)
    while todo:
        ref = todo.pop(0)
        name = display_name(ref)
        if name in result.parents:
            continue
        file = find_ruleset_file(ref)
        if file is None:
            resolve(ref)  # raises the loader's UsageError, with a did-you-mean
            continue
        data = file_data(str(file))
        data = data if isinstance(data, dict) else {}
        extends = data.get("extends")
        parents = [extends] if isinstance(extends, str) else [p for p in extends or [] if isinstance(p, str)]
        result.parents[name] = [display_name(p) for p in parents]
        result.titles[name] = str(data.get("title") or name)
        if data.get("base") is True:
            result.bases.add(name)
        # A parent is looked up beside the file first, as `extends` does.
        todo += [str(find_ruleset_file(p, relative_to=file.parent) or p) for p in parents]
    return result


def family_outline(fam: Family) -> str:
    """The family tree as an indented outline (a ruleset with two parents shows under each)."""
    lines: list[str] = []

    def walk(name: str, depth: int, seen: tuple[str, ...]) -> None:
        base = " (base)" if name in fam.bases else ""
        lines.append(f"{'  ' * depth}{name}: {fam.titles.get(name, name)}{base}")
        for child in fam.children(name):
            if child not in seen:
                walk(child, depth + 1, seen + (child,))

    for root in fam.roots():
        walk(root, 0, (root,))
    return "\n".join(lines) + "\n"


def _family_layout(fam: Family) -> dict[str, tuple[float, float]]:
    """Each ruleset's place: its depth along x, and along y the order of the leaves with a parent
    centred on its children (a ruleset with two parents sits under the first)."""
    places: dict[str, tuple[float, float]] = {}
    next_row = [0.0]

    def place(name: str, depth: int) -> float:
        children = [c for c in fam.children(name) if fam.parents[c][:1] == [name] and c not in places]
        if not children:
            row = next_row[0]
            next_row[0] += 1
        else:
            rows = [place(child, depth + 1) for child in children]
            row = sum(rows) / len(rows)
        places[name] = (float(depth), row)
        return row

    for root in fam.roots():
        place(root, 0)
    for name in fam.parents:  # a cycle or a parent outside the family: placed at the end
        if name not in places:
            place(name, 0)
    return places


def family_figure(fam: Family) -> Figure:
    from matplotlib.figure import Figure

    places = _family_layout(fam)
    depth = max((x for x, _ in places.values()), default=0)
    rows = max((y for _, y in places.values()), default=0) + 1
    figure = Figure(figsize=(2.9 * (depth + 1) + 0.6, 0.55 * rows + 0.8))
    axes = figure.add_axes((0.01, 0.01, 0.98, 0.9))
    axes.set_axis_off()
    axes.set_xlim(-0.15, depth + 0.95)
    axes.set_ylim(rows - 0.4, -0.6)
    for child, parents in fam.parents.items():
        for parent in parents:
            if parent in places:
                (x0, y0), (x1, y1) = places[parent], places[child]
                # from behind the parent's box to a joint just before the child's
                joint = x1 - 0.12
                axes.plot([x0 + 0.05, joint, joint, x1], [y0, y0, y1, y1], color="#888", lw=1, zorder=1)
    for name, (x, y) in places.items():
        base = name in fam.bases
        axes.text(
            x,
            y,
            f"{name}\n{fam.titles.get(name, name)}",
            va="center",
            ha="left",
            fontsize=8,
            bbox={"boxstyle": "round,pad=0.3", "fc": "#eeeeee" if base else "#ffffff", "ec": "#666666"},
            linespacing=1.3,
            zorder=2,
        )
    figure.suptitle("Rulesets by extends (grey: bases)", x=0.01, ha="left", fontsize=10)
    return figure


# -- a tree by shared rules ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Cluster:
    members: tuple[str, ...]
    height: float = 0.0  # the average number of differing rules between its two parts
    parts: tuple[Cluster, ...] = ()


def distances(sides: list[Side]) -> dict[tuple[str, str], int]:
    """The number of rules `tarock diff` reports between each two rulesets (their rules as played
    with the default choices; readings and options are not counted)."""
    result: dict[tuple[str, str], int] = {}
    for i, a in enumerate(sides):
        for b in sides[i + 1 :]:
            n = sum(1 for path, _, _ in rule_differences(a, b) if path[:1] != ("family",))
            result[(a.name, b.name)] = result[(b.name, a.name)] = n
    return result


def cluster(names: list[str], dist: dict[tuple[str, str], int]) -> Cluster:
    """Average-linkage (UPGMA) clustering: the two closest groups join, again and again. Ties go
    to the pair found first, in the order of `names`, so the tree is the same every time."""
    clusters = [Cluster((n,)) for n in names]
    if not clusters:
        raise TarockError("no rulesets to draw")

    def between(a: Cluster, b: Cluster) -> float:
        return sum(dist[(x, y)] for x in a.members for y in b.members) / (len(a.members) * len(b.members))

    while len(clusters) > 1:
        best: tuple[float, int, int] | None = None
        for i, a in enumerate(clusters):
            for j in range(i + 1, len(clusters)):
                d = between(a, clusters[j])
                if best is None or d < best[0]:
                    best = (d, i, j)
        assert best is not None
        d, i, j = best
        joined = Cluster(clusters[i].members + clusters[j].members, d, (clusters[i], clusters[j]))
        clusters = [c for k, c in enumerate(clusters) if k not in (i, j)] + [joined]
    return clusters[0]


def shared_outline(root: Cluster, titles: dict[str, str]) -> str:
    lines: list[str] = []

    def walk(c: Cluster, depth: int) -> None:
        if not c.parts:
            lines.append(f"{'  ' * depth}{c.members[0]}: {titles.get(c.members[0], c.members[0])}")
            return
        lines.append(f"{'  ' * depth}{_rules(c.height)} apart:")
        for part in c.parts:
            walk(part, depth + 1)

    walk(root, 0)
    return "\n".join(lines) + "\n"


def _rules(height: float) -> str:
    text = f"{height:.1f}".removesuffix(".0")
    return f"{text} rule{'' if text == '1' else 's'}"


def shared_figure(root: Cluster, titles: dict[str, str]) -> Figure:
    from matplotlib.figure import Figure

    leaves = list(root.members)
    rows = {name: float(i) for i, name in enumerate(leaves)}
    top = max(root.height, 1.0)
    figure = Figure(figsize=(9.0, 0.42 * len(leaves) + 1.2))
    axes = figure.add_axes((0.04, 0.1, 0.56, 0.8))

    def draw(c: Cluster) -> float:
        """The row where `c` joins its parent; draws its own joints."""
        if not c.parts:
            return rows[c.members[0]]
        ys = []
        for part in c.parts:
            y = draw(part)
            axes.plot([part.height, c.height], [y, y], color="#335", lw=1.2)
            ys.append(y)
        axes.plot([c.height, c.height], [min(ys), max(ys)], color="#335", lw=1.2)
        return sum(ys) / len(ys)

    draw(root)
    axes.set_ylim(len(leaves) - 0.5, -0.5)
    axes.set_xlim(-0.02 * top, top * 1.05)
    axes.set_yticks([rows[n] for n in leaves])
    axes.set_yticklabels([])
    axes.yaxis.tick_right()
    for name in leaves:
        axes.annotate(
            f"{name}  ({titles.get(name, name)})",
            (1.0, rows[name]),
            xycoords=("axes fraction", "data"),
            xytext=(6, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
            annotation_clip=False,
        )
    axes.set_xlabel("rules that differ (average between the groups joined)", fontsize=8)
    axes.tick_params(labelsize=8)
    for side in ("top", "right", "left"):
        axes.spines[side].set_visible(False)
    figure.suptitle("Rulesets by the rules they share (from tarock diff)", x=0.04, ha="left", fontsize=10)
    return figure


# -- SVG --------------------------------------------------------------------------------------------------


def svg(figure: Figure) -> str:
    """The figure as SVG text, the same for the same figure: text stays text (searchable), ids and
    the date are fixed."""
    import matplotlib

    out = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "tarock"}):
        figure.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


def require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise TarockError(MISSING_LIBRARY) from None


def write(text: str, output: str | None) -> str | None:
    if output is None:
        return text
    FilePath(output).write_text(text, encoding="utf-8")
    return None


def drawing(by: str, names: list[str] | None, fmt: str, read_side: Any) -> str:
    """The picture (SVG) or outline (text) asked for. `read_side(name)` reads a ruleset."""
    if fmt == "svg":
        require_matplotlib()
    if by == "extends":
        fam = family(names)
        return family_outline(fam) if fmt == "text" else svg(family_figure(fam))
    sides = [read_side(n) for n in (names or ruleset_names())]
    root = cluster([s.name for s in sides], distances(sides))
    titles = {s.name: s.title() for s in sides}
    return shared_outline(root, titles) if fmt == "text" else svg(shared_figure(root, titles))
