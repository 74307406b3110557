"""Finding ruleset files, resolving `extends`, and applying readings and options.

Inheritance follows JSON Merge Patch (RFC 7386), which a reader can predict without reading code:
- mappings merge key by key, recursively;
- any other value, lists included, replaces the inherited one whole;
- `null` (`~`) removes the inherited rule.
`extends` takes a name or a list of names, merged left to right, then the file itself on top.
A reading or option is the same kind of patch (its `rules:`), applied when a game starts.
"""

from __future__ import annotations

import copy
import dataclasses
import os
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from interpreter.errors import Problem, RulesetError, UsageError, did_you_mean, unique_problems
from interpreter.language.compiler import Compiler
from interpreter.language.model import Ruleset
from interpreter.language.paths import BUILT_IN, file_problem, is_built_in, read_file, ruleset_folders, rulesets_dir
from interpreter.language.source import Document, Mark, YamlValue, format_path, load_yaml, parse_path
from interpreter.language.source import Path as NodePath
from interpreter.language.validation import schema_problems


def ruleset_names(include_bases: bool = False) -> list[str]:
    """Names of the rulesets that can be found by name (bases such as decks only on request):
    the user's own (./rulesets, TAROCK_PATH) and the built-in ones, each name once."""
    return sorted(ruleset_origins(include_bases))


def ruleset_origins(include_bases: bool = False) -> dict[str, str]:
    """Each ruleset found by name, in the order of their files' names, and where its file comes
    from ("./rulesets", "TAROCK_PATH: FOLDER", "built in"): the first folder that has a file of
    that name, in the order of `ruleset_folders()`."""
    found: dict[str, tuple[str, str]] = {}
    for folder in ruleset_folders():
        for file in _files_in(folder.path):
            if file.stem not in found and file_problem(file) is None and (include_bases or not _is_base(file)):
                found[file.stem] = (file.name, folder.label)
    # Sorted as the files are (`cego-turnier.yaml` before `cego.yaml`), as listings always were.
    return {name: label for name, (_, label) in sorted(found.items(), key=lambda item: item[1][0])}


def _files_in(folder: Path) -> list[Path]:
    try:
        return sorted(folder.glob("*.yaml"))
    except OSError:
        return []


def skipped_rulesets() -> list[tuple[Path, str]]:
    """The files named like rulesets (NAME.yaml) in the folders a name is looked up in that the
    lookup passes over, each with the reason: not a regular file (a FIFO, a device, a folder) or
    too large to be one (paths.MAX_RULESET_BYTES). The commands name them in one line."""
    return [
        (file, problem)
        for folder in ruleset_folders()
        for file in _files_in(folder.path)
        if (problem := file_problem(file)) is not None
    ]


def _is_base(file: Path) -> bool:
    try:
        return _is_base_cached(str(file), file.stat().st_mtime_ns)
    except OSError:
        return False


@lru_cache(maxsize=256)
def _is_base_cached(file: str, stamp: int) -> bool:
    # Read as every ruleset is, within the same limits: a file that cannot be read is no base.
    try:
        data = read_document(Path(file)).data
    except RulesetError:
        return False
    return isinstance(data, dict) and data.get("base") is True


def is_path_ref(ref: str) -> bool:
    """Whether `ref` names a ruleset by its file's path (`my/variant.yaml`) rather than by name
    (a file under rulesets/, such as `my-village`)."""
    return ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


def find_ruleset_file(ref: str, relative_to: Path | None = None) -> Path | None:
    """A ruleset by path (`my/variant.yaml`), or by name: beside `relative_to` (the file that
    extends it), then in `ruleset_folders()` (./rulesets, TAROCK_PATH, the built-in ones).

    A name finds only a file that can be read as a ruleset (`skipped_rulesets` names the others);
    a path finds whatever is there, and reading it says why it is no ruleset."""
    if is_path_ref(ref):
        paths = [Path(ref) if relative_to is None or Path(ref).is_absolute() else relative_to / ref, Path(ref)]
        return next((path for path in paths if os.path.lexists(path)), None)
    candidates = [relative_to / f"{ref}.yaml"] if relative_to is not None else []
    candidates += [folder.path / f"{ref}.yaml" for folder in ruleset_folders()]
    return next((candidate for candidate in candidates if file_problem(candidate) is None), None)


def display_path(file: Path) -> str:
    """Paths in messages: relative to the working directory where the file is under it, a
    built-in ruleset by its file name (`NAME.yaml (built in)`), else as given."""
    try:
        return str(file.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        pass
    if is_built_in(file):
        return f"{file.name}{_BUILT_IN_MARK}"
    return str(file)


_BUILT_IN_MARK = f" ({BUILT_IN})"


def source_file(shown: str) -> Path:
    """The file that `display_path` names `shown` (the file of a Problem, a Mark, a Document or a
    compiled Ruleset): a built-in ruleset named short is found among the built-in ones, wherever
    they are installed; any other name is the file's path, from the working directory."""
    if shown.endswith(_BUILT_IN_MARK):
        built_in = rulesets_dir() / shown.removesuffix(_BUILT_IN_MARK)
        if built_in.is_file():
            return built_in
    return Path(shown)


def read_document(file: Path) -> Document:
    """The YAML document in `file`; RulesetError, with the place where it can be known, if none.
    Only a regular file of at most paths.MAX_RULESET_BYTES is read (a FIFO is not waited on)."""
    try:
        raw = read_file(file)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise RulesetError([Problem(display_path(file), None, None, "", f"cannot read the file: {reason}")]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8", "replace").split("\n")
        line, column = len(before), len(before[-1]) + 1
        message = (
            f"not UTF-8 text: the byte 0x{raw[exc.start]:02x} cannot be read ({exc.reason}); save the file as UTF-8"
        )
        raise RulesetError([Problem(display_path(file), line, column, "", message)]) from None
    return load_yaml(text, display_path(file))


def resolve(ref: str, *, playable: bool = False) -> Document:
    """The document of a ruleset with its whole `extends` chain merged in."""
    file = find_ruleset_file(ref)
    if file is None:
        raise UsageError([Problem(ref, None, None, "", _unknown_ruleset_message(ref, playable))])
    return _resolve_file(file, stack=())


def _unknown_ruleset_message(ref: str, playable: bool = False) -> str:
    if is_path_ref(ref):
        return f"no such file: {ref}"
    passed_over = [(file, why) for file, why in skipped_rulesets() if file.stem == ref]
    if passed_over:
        file, why = passed_over[0]
        return f"no ruleset named '{ref}' can be read: {Path(display_path(file.parent)) / file.name} is {why}"
    known = ruleset_names(include_bases=not playable)
    looked = ", ".join("the built-in rulesets" if f.origin == BUILT_IN else f.origin for f in ruleset_folders())
    otherwise = (
        f"; known: {', '.join(known)} (looked in {looked}; "
        "your own rulesets go in ./rulesets/ or a folder of TAROCK_PATH)"
    )
    return f"no ruleset named '{ref}'{did_you_mean(ref, known, otherwise=otherwise)}"


def _resolve_file(file: Path, stack: tuple[Path, ...]) -> Document:
    doc = read_document(file)
    if not isinstance(doc.data, dict):
        raise RulesetError([doc.problem((), "a ruleset must be a mapping of rule names to rules")])
    parents = doc.data.get("extends")
    if parents is None:
        result = _merged_onto(Document({}, {}, doc.file), doc)
        result.lineage = [doc.file]
        return result
    names = [parents] if isinstance(parents, str) else parents
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RulesetError([doc.problem(("extends",), "extends takes a ruleset name or a list of names")])
    merged = Document({}, {}, doc.file)
    lineage: list[str] = []
    problems: list[Problem] = []
    for index, name in enumerate(names):
        path: NodePath = ("extends",) if isinstance(parents, str) else ("extends", index)
        parent_file = find_ruleset_file(name, relative_to=file.parent)
        if parent_file is None:
            problems.append(doc.problem(path, f"extends {name}, but there is {_unknown_ruleset_message(name)}"))
            continue
        if parent_file.resolve() in stack or parent_file.resolve() == file.resolve():
            chain = " -> ".join(p.stem for p in (*stack, file.resolve(), parent_file.resolve()))
            problems.append(doc.problem(path, f"extends cycle: {chain}"))
            continue
        try:
            parent = _resolve_file(parent_file, stack + (file.resolve(),))
        except RulesetError as exc:
            problems.extend(exc.problems)
            continue
        parent.data.pop("base", None)  # being a base is not inherited
        merged = _merged_onto(merged, parent)
        lineage += [f for f in parent.lineage if f not in lineage]
    if problems:
        raise RulesetError(problems)
    result = _merged_onto(merged, doc)
    result.data.pop("extends", None)
    result.parents = names
    result.lineage = lineage + [doc.file]
    inherited = result.data.pop("inherited_status", None)
    if inherited is not None:
        _mark_inherited(result, doc.file, inherited)
    return result


def _mark_inherited(doc: Document, own_file: str, status: str) -> None:
    """Give every rule that came from a base, and was not restated in `own_file`, the status."""
    for path in list(_walk(doc.data)):
        node = _get(doc.data, path)
        if isinstance(node, dict) and "status" in node:
            mark = doc.marks.get(path + ("status",))
            if mark is not None and mark.file != own_file:
                node["status"] = status


def _merged_onto(base: Document, patch: Document, root: NodePath = ()) -> Document:
    """`patch` (or its subtree at `root`) applied to `base` by JSON Merge Patch."""
    patch_data = _get(patch.data, root)
    data = merge_patch(base.data, patch_data)

    def reroot(marks: dict[NodePath, Mark]) -> dict[NodePath, Mark]:
        n = len(root)
        return {path[n:]: mark for path, mark in marks.items() if path[:n] == root}

    patch_marks, patch_keys = reroot(patch.marks), reroot(patch.key_marks)
    result = Document(data, {}, patch.file)
    for path in _walk(data):
        mark = patch_marks.get(path) or base.marks.get(path)
        if mark:
            result.marks[path] = mark
        key_mark = patch_keys.get(path) or base.key_marks.get(path)
        if key_mark:
            result.key_marks[path] = key_mark
    result.removed = {p: m for p, m in base.removed.items() if _get_or_none(data, p) is None}
    for path in _nulls(patch_data):
        gone = _get_or_none(base.data, path)
        where = patch_keys.get(path) or patch_marks.get(path)
        if gone is None or where is None:
            continue
        result.removed[path] = where
        # Removing a whole section removes the rules named in it too (`contracts:` left empty).
        for key in gone if isinstance(gone, dict) else ():
            result.removed.setdefault(path + (key,), where)
    return result


def _nulls(data: YamlValue, path: NodePath = ()) -> Iterator[NodePath]:
    """The paths a patch sets to null, that is removes (a reading's own patch is no removal yet)."""
    if isinstance(data, dict) and not _is_patch_body(path):
        for key, value in data.items():
            if value is None:
                yield path + (key,)
            else:
                yield from _nulls(value, path + (key,))


def merge_patch(base: Any, patch: Any, path: NodePath = ()) -> Any:
    if not isinstance(patch, dict):
        return patch
    if _is_patch_body(path):
        # A reading's, option's or player count's rules are a patch themselves: kept as written,
        # nulls included, to be applied when a game starts (and replaced whole by a variant).
        return copy.deepcopy(patch)
    result = dict(base) if isinstance(base, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value, path + (key,))
    return result


def _is_patch_body(path: NodePath) -> bool:
    return (len(path) == 5 and path[0] in ("readings", "options") and path[2] == "choices" and path[4] == "rules") or (
        len(path) == 3 and path[0] == "by_players" and path[2] == "rules"
    )


def _walk(data: YamlValue, path: NodePath = ()) -> Iterator[NodePath]:
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _walk(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _walk(value, path + (index,))


def _get(data: YamlValue, path: NodePath) -> YamlValue:
    for part in path:
        data = data[part]
    return data


def choice_groups(doc: Document) -> dict[str, tuple[str, dict[str, YamlValue]]]:
    """Readings and options by name: name -> ("readings" | "options", definition)."""
    groups: dict[str, tuple[str, dict[str, YamlValue]]] = {}
    for section in ("readings", "options"):
        written = doc.data.get(section) if isinstance(doc.data, dict) else None
        for name, definition in (written if isinstance(written, dict) else {}).items():
            if isinstance(definition, dict):
                groups[name] = (section, definition)
    return groups


def _choices_of(definition: dict[str, YamlValue]) -> list[str]:
    choices = definition.get("choices")
    return [str(c) for c in choices] if isinstance(choices, dict) else []


def _patches_of(definition: dict[str, YamlValue]) -> list[dict[str, YamlValue]]:
    """The `rules:` patches of a reading's or option's choices (those written as mappings)."""
    choices = definition.get("choices")
    bodies = choices.values() if isinstance(choices, dict) else []
    return [body["rules"] for body in bodies if isinstance(body, dict) and isinstance(body.get("rules"), dict)]


def apply_choices(doc: Document, chosen: Mapping[str, str]) -> tuple[Document, dict[str, str]]:
    """The document with every reading and option applied (defaults where not chosen).

    Returns the document and the full choice of every reading and option. Unknown names and
    choices raise RulesetError with a did-you-mean."""
    groups = choice_groups(doc)
    problems: list[Problem] = []
    for name, value in chosen.items():
        if name not in groups:
            otherwise = f"; this ruleset has: {', '.join(groups)}" if groups else "; this ruleset has none"
            hint = did_you_mean(name, groups, otherwise=otherwise)
            problems.append(
                Problem(doc.file, None, None, f"options.{name}", f"no reading or option named '{name}'{hint}")
            )
        elif str(value) not in _choices_of(groups[name][1]):
            known = _choices_of(groups[name][1])
            hint = did_you_mean(str(value), known, otherwise=f"; choose one of: {', '.join(known)}")
            problems.append(Problem(doc.file, None, None, f"options.{name}", f"no choice '{value}'{hint}"))
    if problems:
        raise UsageError(problems)
    full: dict[str, str] = {}
    result = doc
    for name, (section, definition) in groups.items():
        choice = str(chosen.get(name, definition.get("default")))
        full[name] = choice
        root: NodePath = (section, name, "choices", choice, "rules")
        rules = _get_or_none(doc.data, root)
        if not isinstance(rules, dict):
            continue
        patch = Document(doc.data, doc.marks, doc.file, doc.key_marks)
        players = rules.get("by_players")
        if players is not None:
            # Its rules for a number of players are applied when that many play, after the
            # ruleset's own for that number (apply_players): not merged here, where they would
            # replace those whole.
            patch = Document(_without(doc.data, root, "by_players"), doc.marks, doc.file, doc.key_marks)
        result = _merged_onto(result, patch, root)
        if isinstance(players, dict):
            result = _with_player_counts(result, [str(n) for n in players])
    # A choice's patch makes a new document: it still extends what the ruleset extends.
    result.parents, result.lineage = doc.parents, doc.lineage
    return result, full


def _without(data: YamlValue, root: NodePath, key: str) -> YamlValue:
    """`data` with the mapping at `root` lacking `key` (copies along the path, nothing else)."""
    if not root:
        assert isinstance(data, dict)
        return {k: v for k, v in data.items() if k != key}
    assert isinstance(data, dict)
    return {**data, root[0]: _without(data[root[0]], root[1:], key)}


def _with_player_counts(doc: Document, counts: list[str]) -> Document:
    """`doc` with an entry under `by_players` for each of `counts` (empty rules where it had
    none), so that a choice's rules for a number of players are compiled for that number."""
    assert isinstance(doc.data, dict)
    current = doc.data.get("by_players")
    present = current if isinstance(current, dict) else {}
    missing = [n for n in counts if n not in present]
    if not missing:
        return doc
    data = {**doc.data, "by_players": {**present, **{n: {"rules": {}} for n in missing}}}
    return dataclasses.replace(doc, data=data)


def _get_or_none(data: YamlValue, path: NodePath) -> YamlValue:
    try:
        return _get(data, path)
    except (KeyError, IndexError, TypeError):
        return None


# -- the compiled ruleset --------------------------------------------------------------------


def apply_players(doc: Document, active: int | None, chosen: Mapping[str, str] | None = None) -> Document:
    """The document with its `by_players` patch for `active` players applied, if it has one,
    then the rules for that number of the readings and options `chosen` (each choice's
    `rules.by_players`), in the order they are defined."""
    if active is None:
        return doc
    roots: list[NodePath] = [("by_players", str(active), "rules")]
    for name, (section, _definition) in choice_groups(doc).items():
        if chosen is not None and name in chosen:
            roots.append((section, name, "choices", chosen[name], "rules", "by_players", str(active), "rules"))
    merged = doc
    for root in roots:
        if isinstance(_get_or_none(doc.data, root), dict):
            merged = _merged_onto(merged, Document(doc.data, doc.marks, doc.file, doc.key_marks), root)
    if merged is doc:
        return doc
    merged.parents, merged.lineage = doc.parents, doc.lineage
    return merged


def _compile(
    doc: Document,
    name: str,
    chosen: Mapping[str, str],
    active: int | None = None,
    *,
    written: list[Problem] | None = None,
    check: bool = True,
) -> tuple[Ruleset | None, list[Problem]]:
    """The ruleset compiled with `chosen` readings and options (and `active` players), or None,
    and every problem found. `written`: the problems of the document as written, if known.
    `check=False`: the schema's checks left out (a ruleset already checked, compiled again)."""
    # The document as written is checked too: a reading's patch could otherwise mend a mistake
    # (a contract written as text would become a mapping once a reading sets its factor).
    if not check:
        written = []
    elif written is None:
        written = written_problems(doc)
    try:
        applied, full = apply_choices(doc, chosen)
        applied = apply_players(applied, active, full)
    except RulesetError:
        raise  # a reading or option that does not exist
    except Exception as exc:  # readings or options of a shape the schema refused
        return None, written or [_fault(doc, exc)]
    schema_checked = check and applied is not doc
    problems = unique_problems(written + (schema_problems(applied, derived_from=doc) if schema_checked else []))
    compiler = Compiler(applied, name, full, tuple(doc.parents), source_ref=doc.lineage[-1] if doc.lineage else name)
    # The compiler reads what the schema let through; what the schema refused it may trip over,
    # and then the schema's messages are the useful ones (the compiler reports its own faults).
    ruleset = compiler.compile(schema_checked=not problems)
    reported = {p.path for p in problems}
    problems = unique_problems(problems + [p for p in compiler.problems if p.path not in reported])
    problems = [_at_cause(applied, p) for p in problems]
    return (ruleset if not problems else None), problems


def _at_cause(doc: Document, problem: Problem) -> Problem:
    """`problem` at the place that caused it: a base that names a rule a later file removed
    (the ladder's `call: solo` after `contracts: {solo: null}`, or after `solo:` slipped out of
    its indentation) is not at fault; the removal is, and it is reported where it is written."""
    if not doc.removed or problem.line is None:
        return problem
    value = _get_or_none(doc.data, parse_path(problem.path))
    if not isinstance(value, str):
        return problem
    for path, where in doc.removed.items():
        if path[-1] == value and where.file != problem.file:
            rule = format_path(path)
            if doc.removed.get(path[:-1]) == where:
                rule = f"{format_path(path[:-1])} (and {rule} with it)"
            return Problem(
                where.file,
                where.line,
                where.column,
                format_path(path),
                f"this removes {rule}, but {problem.file}:{problem.line}:{problem.column} still uses "
                f"'{value}' ({problem.path}: {problem.message}); a key with nothing after it is null, "
                f"which removes the inherited rule: if the lines below were meant to belong to it, "
                f"indent them under it; if the rule is to go, remove its uses as well",
            )
    return problem


@lru_cache(maxsize=128)
def _load_cached(
    ref: str, chosen: tuple[tuple[str, str], ...], stamp: float, active: int | None, where: str, cwd: str
) -> Ruleset:
    # `where` (the file the name found) and `cwd` are part of the key: the same name may find
    # another file from another working directory or TAROCK_PATH, and the places in a ruleset
    # name their files as seen from the working directory.
    return compile_document(resolve(ref, playable=True), ref, dict(chosen), active)


def compile_document(
    doc: Document, ref: str, chosen: Mapping[str, str] | None = None, active: int | None = None, *, check: bool = True
) -> Ruleset:
    """A resolved ruleset document (`resolve`) compiled with these readings and options, as
    `load_ruleset` compiles it. `check=False` leaves out the schema's checks, for tools that
    compile many choices of a ruleset that has been checked (`tarock diff` and `doc` describe
    each reading by the rules it makes). Raises RulesetError listing every problem found."""
    if doc.data.get("base") is True:
        raise UsageError(
            [Problem(doc.file, None, None, "", f"'{ref}' is a base for other rulesets, not a game to play")]
        )
    ruleset, problems = _compile(doc, _name_of(ref), dict(chosen or {}), active, check=check)
    if problems or ruleset is None:
        raise RulesetError(problems)

    def rechoose(other: Mapping[str, str]) -> Ruleset:
        return compile_document(doc, ref, other, active, check=check)

    ruleset = dataclasses.replace(ruleset, rechoose=rechoose)
    if active is None and ruleset.by_players:
        # The rules for each number of players with rules of its own, compiled now, so that a
        # game started with that number reads them without going back to the files.
        ruleset = dataclasses.replace(
            ruleset,
            player_rules={n: compile_document(doc, ref, chosen, n, check=check) for n in ruleset.by_players},
        )
    return ruleset


def load_ruleset(ref: str, options: Mapping[str, str] | None = None, active: int | None = None) -> Ruleset:
    """A playable ruleset by name or path, with readings and options chosen (defaults elsewhere),
    and with the rules for `active` players when it has rules of its own for that number.

    Raises RulesetError listing every problem found."""
    file = find_ruleset_file(ref)
    try:
        stamp = file.stat().st_mtime if file else 0.0
    except OSError:  # a path to nothing readable: reading it says why
        stamp = 0.0
    chosen = tuple(sorted((str(k), str(v)) for k, v in (options or {}).items()))
    return _load_cached(ref, chosen, stamp, active, str(file) if file else "", str(Path.cwd()))


def written_problems(doc: Document) -> list[Problem]:
    """The problems of a document as written: where it does not fit the schema, and rules it sets
    that a reading or option would replace."""
    problems = schema_problems(doc)
    try:
        return problems + overridden_by_choices(doc) + revived_by_choices(doc)
    except Exception as exc:  # readings of a shape the schema refused
        return problems or [_fault(doc, exc)]


def _fault(doc: Document, exc: Exception) -> Problem:
    """A failure of the loader itself on a document that fits the schema, reported as a problem."""
    return Problem(
        doc.file,
        None,
        None,
        "",
        f"the interpreter failed to read this ruleset ({type(exc).__name__}: {exc}); "
        "this is a fault of the interpreter, please report it with the ruleset",
    )


# Every combination of readings and options is compiled when there are at most this many runs
# (combinations times the table sizes with rules of their own); beyond it, a covering set in which
# every two choices of two questions meet at least once.
EXHAUSTIVE_RUNS = 256


def check_ruleset(ref: str, notes: list[str] | None = None) -> list[Problem]:
    """Every problem of a ruleset: with every combination of its readings and options (or, where
    there are too many, a set in which every two choices meet), each at every number of players
    with rules of its own; a base as itself. `notes`: where given, what was not checked and why."""
    try:
        doc = resolve(ref)
    except RulesetError as exc:
        return exc.problems
    name = _name_of(ref)
    written = written_problems(doc)
    if doc.data.get("base") is True:
        return _sorted(written + _base_problems(doc, name, written) + useless_removals(ref, doc))
    combinations, total = _combinations(doc)
    if notes is not None and len(combinations) < total:
        notes.append(
            f"checked {len(combinations)} of the {total:,} combinations of its readings and options: every "
            f"choice, and every two choices of two questions together; compiling each would take too long "
            f"(more than {EXHAUSTIVE_RUNS} runs), so a problem only three choices together cause could remain"
        )
    problems: list[Problem] = []
    seen: set[tuple[str, int | None, int | None, str, str]] = set()
    used: set[str] | None = set()
    for chosen in combinations:
        for active in (None, *_player_counts(doc, chosen)):
            try:
                ruleset, more = _compile(doc, name, chosen, active, written=written)
            except RulesetError as exc:
                ruleset, more = None, exc.problems
            for problem in more:
                key = (problem.file, problem.line, problem.column, problem.path, problem.message)
                if key in seen:
                    continue
                seen.add(key)
                # Found only with some choices, or at some table: say which, so that it can be found.
                problems.append(_in_run(problem, chosen, active) if chosen or active else problem)
            if ruleset is None:
                used = None  # judged only where every run compiles: a broken run hides its calls
            elif used is not None:
                used.update(ruleset.used_calls())
    if used is not None:
        problems += unused_calls(doc, used)
    problems += replaced_by_choices(doc, name)
    problems += useless_removals(ref, doc)
    return _sorted(problems)


def useless_removals(ref: str, doc: Document) -> list[Problem]:
    """Each `null` the ruleset's own file writes that removes nothing (`factr: null`, a reading
    that does not exist): the rule meant to go is still there. A null in the file's rules removes
    an inherited rule; one in a reading's, option's or table size's rules, a rule of the ruleset
    (`doc`, resolved) or one that another of those patches sets."""
    file = find_ruleset_file(ref)
    if file is None:
        return []
    try:
        own = read_document(file)
        inherited = _parents_merged(file, own)
    except RulesetError:
        return []  # reported by the runs
    problems = [
        _removes_nothing(own, path, inherited.data)
        for path in _nulls(own.data)
        if path[0] != "extends" and _get_or_none(inherited.data, path) is None
    ]
    # The patches applied when a game starts: what they may remove.
    bodies = _patch_bodies(doc.data)
    set_by_patches = {
        root + leaf for root, body in bodies for leaf in _leaves(body) if _get_or_none(body, leaf) is not None
    }
    for root, body in _patch_bodies(own.data):
        for path in _all_nulls(body):
            target = path
            if _get_or_none(doc.data, target) is not None or any(p[: len(target)] == target for p in set_by_patches):
                continue
            problems.append(_removes_nothing(own, root + path, doc.data, target))
    return problems


def _removes_nothing(own: Document, path: NodePath, data: YamlValue, target: NodePath | None = None) -> Problem:
    """The problem of the null at `path` of `own`, which removes nothing at `target` of `data`."""
    target = path if target is None else target
    parent = _get_or_none(data, target[:-1]) if len(target) > 1 else data
    key = str(target[-1])
    known = [str(k) for k in parent] if isinstance(parent, dict) else []
    rule = format_path(target)
    hint = did_you_mean(
        key, known, otherwise=f"; {format_path(target[:-1]) or 'the ruleset'} has: {', '.join(known)}" if known else ""
    )
    return own.problem(
        path,
        f"`{key}: null` removes nothing: there is no {rule} to remove{hint} (a misspelt name leaves the rule in place)",
        at_key=True,
    )


def _parents_merged(file: Path, own: Document) -> Document:
    """What the file extends, merged as `_resolve_file` merges it (empty when nothing)."""
    parents = own.data.get("extends") if isinstance(own.data, dict) else None
    merged = Document({}, {}, own.file)
    for name in [parents] if isinstance(parents, str) else parents if isinstance(parents, list) else []:
        parent_file = find_ruleset_file(str(name), relative_to=file.parent)
        if parent_file is not None and parent_file.resolve() != file.resolve():
            merged = _merged_onto(merged, _resolve_file(parent_file, (file.resolve(),)))
    return merged


def _patch_bodies(data: YamlValue) -> list[tuple[NodePath, dict[str, YamlValue]]]:
    """The patches a game applies at its start (readings', options' and table sizes' rules, and a
    choice's rules for a number of players), each with its place."""
    found: list[tuple[NodePath, dict[str, YamlValue]]] = []
    if not isinstance(data, dict):
        return found
    for section in ("readings", "options"):
        groups = data.get(section)
        for name, group in groups.items() if isinstance(groups, dict) else []:
            choices = group.get("choices") if isinstance(group, dict) else None
            for choice, body in choices.items() if isinstance(choices, dict) else []:
                rules = body.get("rules") if isinstance(body, dict) else None
                if isinstance(rules, dict):
                    root: NodePath = (section, name, "choices", choice, "rules")
                    found.append((root, {k: v for k, v in rules.items() if k != "by_players"}))
                    players = rules.get("by_players")
                    for count, entry in players.items() if isinstance(players, dict) else []:
                        if isinstance(entry, dict) and isinstance(entry.get("rules"), dict):
                            found.append((root + ("by_players", count, "rules"), entry["rules"]))
    players = data.get("by_players")
    for count, entry in players.items() if isinstance(players, dict) else []:
        if isinstance(entry, dict) and isinstance(entry.get("rules"), dict):
            found.append((("by_players", count, "rules"), entry["rules"]))
    return found


def _all_nulls(data: YamlValue, path: NodePath = ()) -> Iterator[NodePath]:
    """Every path a patch sets to null."""
    if isinstance(data, dict):
        for key, value in data.items():
            if value is None:
                yield path + (key,)
            else:
                yield from _all_nulls(value, path + (key,))


def _sorted(problems: list[Problem]) -> list[Problem]:
    return sorted(unique_problems(problems), key=lambda p: (p.file, p.line or 0, p.column or 0, p.path))


def _in_run(problem: Problem, chosen: Mapping[str, str], active: int | None) -> Problem:
    """`problem` with the choices and table size of the run that found it."""
    parts = [f"{group} = {choice}" for group, choice in chosen.items()]
    if active is not None:
        parts.append(f"{active} players")
    together = " and ".join(parts)
    hint = (
        "; each alone is fine: make the choices agree (a choice may patch `by_players` for a number of players)"
        if len(parts) > 1
        else ""
    )
    return dataclasses.replace(problem, message=f"{problem.message} (with {together}{hint})")


def _combinations(doc: Document) -> tuple[list[dict[str, str]], int]:
    """The combinations of readings and options to compile (each the choices that differ from the
    defaults; the defaults first), and how many there are in all."""
    groups = [
        (name, str(definition.get("default")), [c for c in _choices_of(definition) if c != definition.get("default")])
        for name, (_section, definition) in choice_groups(doc).items()
    ]
    groups = [(name, default, others) for name, default, others in groups if others]
    total = 1
    for _name, _default, others in groups:
        total *= len(others) + 1
    # Each combination is compiled as it is, and at each number of players with rules of its own.
    every = [{name: choice} for name, _default, others in groups for choice in others]
    sizes = len(set(_player_counts(doc, {})).union(*(_player_counts(doc, one) for one in every)))
    if total * (1 + sizes) <= EXHAUSTIVE_RUNS:
        runs: list[dict[str, str]] = [{}]
        for name, _default, others in groups:
            runs = [*runs, *({**run, name: choice} for run in runs for choice in others)]
        return runs, total
    return _pairwise([(name, [default, *others]) for name, default, others in groups]), total


def _pairwise(groups: list[tuple[str, list[str]]]) -> list[dict[str, str]]:
    """Combinations in which every two choices of two questions meet at least once (a covering
    array of strength two, built greedily and the same every time): the defaults first, then runs
    that each cover as many pairs not yet covered as they can. Only the choices that differ from
    the defaults are kept in each."""
    wanted = {((a, x), (b, y)) for i, (a, xs) in enumerate(groups) for b, ys in groups[i + 1 :] for x in xs for y in ys}
    defaults = {name: choices[0] for name, choices in groups}

    def covered(run: dict[str, str]) -> set[tuple[tuple[str, str], tuple[str, str]]]:
        names = [name for name, _ in groups]
        return {((a, run[a]), (b, run[b])) for i, a in enumerate(names) for b in names[i + 1 :]}

    runs = [dict(defaults)]
    wanted -= covered(defaults)
    while wanted:
        # Start from the first pair not yet covered; fill each other question with the choice
        # that covers most new pairs with what is chosen so far.
        (a, x), (b, y) = min(wanted)
        run = {a: x, b: y}
        for name, choices in groups:
            if name in run:
                continue
            run[name] = max(
                choices,
                key=lambda c: sum(
                    ((n, run[n]), (name, c)) in wanted or ((name, c), (n, run[n])) in wanted for n in run
                ),
            )
        run = {name: run[name] for name, _ in groups}
        wanted -= covered(run)
        runs.append(run)
    # With a single question there are no pairs: each of its choices alone.
    for name, choices in groups:
        runs += [{**defaults, name: c} for c in choices if not any(run[name] == c for run in runs)]
    return [{name: choice for name, choice in run.items() if choice != defaults[name]} for run in runs]


def _player_counts(doc: Document, chosen: Mapping[str, str]) -> list[int]:
    """The numbers of players with rules of their own: the ruleset's, and those the choices add."""
    counts: set[str] = set()
    players = doc.data.get("by_players")
    counts.update(str(n) for n in (players if isinstance(players, dict) else {}))
    for name, (section, _definition) in choice_groups(doc).items():
        if name in chosen:
            patch = _get_or_none(doc.data, (section, name, "choices", chosen[name], "rules", "by_players"))
            counts.update(str(n) for n in (patch if isinstance(patch, dict) else {}))
    return sorted(int(n) for n in counts if n.isdigit())


def _base_problems(doc: Document, name: str, written: list[Problem]) -> list[Problem]:
    """A base (a pack, a family's core) compiled as itself: the problems of what it writes (an
    unknown source, a misspelt name in a condition), but not those of the sections a game needs
    and a base may leave to the rulesets that extend it."""
    present = set(doc.data) if isinstance(doc.data, dict) else set()
    compiler = Compiler(doc, name, {}, tuple(doc.parents), source_ref=doc.lineage[-1] if doc.lineage else name)
    compiler.compile(schema_checked=not written)
    return [p for p in compiler.problems if p.path.split(".", 1)[0].split("[", 1)[0] in present or not p.path]


def replaced_by_choices(doc: Document, name: str) -> list[Problem]:
    """Problems of rules as written that every game replaces by a reading's or option's patch
    (a broken expression whose every choice writes another): no run of the game compiles them,
    so they are compiled here, as written, without the patches."""
    patched = {
        format_path(path)
        for _section, definition in choice_groups(doc).values()
        for rules in _patches_of(definition)
        for path in _leaves(rules)
    }
    if not patched:
        return []
    try:
        _, full = apply_choices(doc, {})
        compiler = Compiler(apply_players(doc, None), name, full, tuple(doc.parents), source_ref=doc.lineage[-1])
        compiler.compile(schema_checked=True)
    except Exception:  # a document the runs with the patches report on already
        return []

    def replaced(path: str) -> bool:
        return any(path == leaf or path.startswith(leaf + ".") for leaf in patched)

    # Only where a value is written: a field a patch supplies is no problem of the text.
    return [
        p
        for p in compiler.problems
        if p.line is not None and replaced(p.path) and _get_or_none(doc.data, parse_path(p.path)) is not None
    ]


def unused_calls(doc: Document, used: set[str]) -> list[Problem]:
    """Calls the file itself names that no auction phase uses, in any reading, option or table
    size (a call inherited and left unused when a variant removes its contract is the base's)."""
    calls = doc.data.get("calls") if isinstance(doc.data, dict) else None
    own = doc.lineage[-1] if doc.lineage else doc.file
    problems = []
    for call in calls if isinstance(calls, dict) else {}:
        mark = doc.key_marks.get(("calls", call)) or doc.marks.get(("calls", call))
        if call in used or mark is None or mark.file != own:
            continue
        problems.append(
            Problem(
                mark.file,
                mark.line,
                mark.column,
                f"calls.{call}",
                f"the call '{call}' is named here, but no auction phase uses it (with any reading, option or "
                f"table size); add it to a ladder (`{{call: {call}}}`) or remove it",
            )
        )
    return problems


def overridden_by_choices(doc: Document) -> list[Problem]:
    """Rules a file sets that a reading or option of one of its bases would replace.

    A variant that extends another states what differs; if the base's reading then patched the
    same rule at game start, the variant's own value would silently never be used."""
    problems = []
    for name, (section, definition) in choice_groups(doc).items():
        home = doc.marks.get((section, name))
        if home is None or home.file not in doc.lineage:
            continue
        patched = sorted({path for rules in _patches_of(definition) for path in _leaves(rules)}, key=str)
        for path in patched:
            # The rule itself, or a value written higher up in its place (`factor: 2` where the
            # reading patches `factor.won`), set by a file that comes after the reading's.
            candidates = [path] + [
                path[:n]
                for n in range(len(path) - 1, 0, -1)
                if not isinstance(_get_or_none(doc.data, path[:n]), (dict, type(None)))
            ]
            marks = [doc.marks.get(p) for p in candidates]
            mark = next(
                (
                    m
                    for m in marks
                    if m is not None
                    and m.file in doc.lineage
                    and doc.lineage.index(m.file) > doc.lineage.index(home.file)
                ),
                None,
            )
            if mark is not None:
                problems.append(
                    Problem(
                        mark.file,
                        mark.line,
                        mark.column,
                        ".".join(map(str, path)),
                        f"set here, but the {section[:-1]} '{name}' of {home.file}:{home.line} replaces it when a game "
                        f"starts, so this value would never be used; say `{section}: {{{name}: null}}` here if the "
                        f"question does not arise in this variant, or encode your value as a choice of '{name}'",
                    )
                )
                break  # one report per reading is enough to act on
    return problems


def revived_by_choices(doc: Document) -> list[Problem]:
    """Rules a file removes (`ulti: null`) that a reading or option of a base would bring back
    in part when chosen (an option that patches only `announcements.ulti.value`): the game would
    then have a rule with only the patched fields, defined nowhere whole."""
    problems = []
    for name, (section, definition) in choice_groups(doc).items():
        home = doc.key_marks.get((section, name)) or doc.marks.get((section, name))
        choices = definition.get("choices")
        for choice, body in choices.items() if isinstance(choices, dict) else []:
            rules = body.get("rules") if isinstance(body, dict) else None
            for path in sorted(set(_leaves(rules)) if isinstance(rules, dict) else (), key=str):
                gone = next((path[:n] for n in range(1, len(path) + 1) if path[:n] in doc.removed), None)
                if gone is None or _get_or_none(rules, gone) is None:
                    continue
                mark = doc.removed[gone]
                if mark.file not in doc.lineage or (home is not None and home.file == mark.file):
                    continue
                where = f" of {home.file}:{home.line}" if home is not None else ""
                problems.append(
                    Problem(
                        mark.file,
                        mark.line,
                        mark.column,
                        ".".join(map(str, gone)),
                        f"removed here, but the {section[:-1]} '{name}'{where} sets {'.'.join(map(str, path))} "
                        f"when '{choice}' is chosen, which would bring it back defined in part; say "
                        f"`{section}: {{{name}: null}}` here if the question does not arise without it",
                    )
                )
                break  # one report per choice is enough to act on
    return problems


def _leaves(data: YamlValue, path: NodePath = ()) -> Iterator[NodePath]:
    """The paths a patch sets (an empty patch sets none)."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, path + (key,))
    elif path:
        yield path


def _name_of(ref: str) -> str:
    return Path(ref).stem if is_path_ref(ref) else ref
