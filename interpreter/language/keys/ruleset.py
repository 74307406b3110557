"""The top of a ruleset: its sections, where it comes from, and the patches a game chooses
(readings, options, the rules for a number of players)."""

from __future__ import annotations

from interpreter.language.keys.auction import AUCTION, CALLS
from interpreter.language.keys.contracts import ANNOUNCEMENTS, CLAIM, CONTRACTS
from interpreter.language.keys.kinds import (
    NUMBER_PATTERN,
    STATUS,
    Anything,
    Boolean,
    Choice,
    Computed,
    Entries,
    Key,
    ListOf,
    OneOf,
    Rule,
    Said,
    Schema,
    Text,
    title,
)
from interpreter.language.keys.pack import DEAL, DECK, PLAYERS, direction
from interpreter.language.keys.play import PLAY
from interpreter.language.keys.scoring import (
    ACCUSATION,
    ANNOUNCING,
    BONUSES,
    KONTRA,
    PENALTIES,
    POT_ANTE,
    counting,
    settlement,
)
from interpreter.language.keys.session import SESSION

EFFECTS = "described by the places it changes, in their words"

SECTIONS: dict[str, Key] = {
    "deck": DECK,
    "players": PLAYERS,
    "direction": direction,
    "deal": DEAL,
    "calls": CALLS,
    "auction": AUCTION,
    "contracts": CONTRACTS,
    "claim": CLAIM,
    "announcements": ANNOUNCEMENTS,
    "bonuses": BONUSES,
    "announcing": ANNOUNCING,
    "kontra": KONTRA,
    "play": PLAY,
    "counting": Key(counting),
    "settlement": Key(settlement),
}
AFTER_BY_PLAYERS: dict[str, Key] = {
    "accusation": ACCUSATION,
    "penalties": PENALTIES,
    "pot_ante": POT_ANTE,
    "session": SESSION,
}
# The sections a patch (a reading, an option, the rules for a number of players) may set: every
# section of rules but the session, which spans the deals. A reading or an option chosen for the
# whole session may set the session too (a pot kept or not); a round of its own may not choose it.
RULE_SECTIONS = [key for key in [*SECTIONS, *AFTER_BY_PLAYERS] if key != "session"]
CHOICE_SECTIONS = [*RULE_SECTIONS, "session"]

SECTION = Anything("A section of the ruleset, or part of one, as it would be written at the top level.")

player_rules = Rule(
    "The rules of their own for one number of active players.",
    {
        "title": title(),
        "rules": Entries(
            "The rules for this number of players, as a patch merged over the ruleset (maps merge, lists replace, null removes) when that many play; checked against this schema once applied.",
            SECTION,
            {"enum": RULE_SECTIONS},
        ),
    },
)

choice = Rule(
    "One way to read a disputed rule, or one table agreement.",
    {
        "title": title(),
        "rules": Entries(
            "The rules this choice sets, as a patch merged over the ruleset (maps merge, lists replace, null removes); checked against this schema once applied. It may set the session's rules (a pot kept or not) where it is chosen for the whole session, never by a round of its own. Under `by_players`, rules for a number of active players: applied when that many play, after the ruleset's own rules for that number (an option that adds a bid to the ladder of six players, which `by_players` writes out whole).",
            SECTION,
            {"enum": [*CHOICE_SECTIONS, "by_players"]},
        ),
    },
)


def choice_group(what: str) -> Rule:
    return Rule(
        what,
        {
            "question": title("The question the choice answers.", Computed("the title, or the name")),
            "title": title(),
            "default": Text("The choice taken when a game names none."),
            "choices": Entries("The choices by name.", choice),
        },
        ("default", "choices"),
    )


source_entry = Rule(
    "A source text.",
    {
        "title": Text("Its title, author and date."),
        "seed": Text("Its file under shared/seeds/, where the project keeps it."),
        "url": Text("Where it was published."),
    },
    ("title",),
    provenance=False,
)

ruleset = Rule(
    "A Tarock ruleset: one regional variant, or a base that variants extend.",
    {
        "title": title("The variant's name for display."),
        "family": Key(
            Text("The family it belongs to (dappen, cego, tapp)."), said=Said("Family", missing="not stated")
        ),
        "extends": Key(
            OneOf(
                "The ruleset(s) this one builds on; it states only what differs.",
                (
                    Text("One ruleset name or path."),
                    ListOf("Several, merged left to right.", Text("A ruleset name or path.")),
                ),
            ),
            unsaid="inheritance: resolved before the rules are compared",
        ),
        "base": Key(
            Boolean("A base (a pack, a family core) that is extended but not played."),
            default=False,
            unsaid="marks a file that is only extended",
        ),
        "inherited_status": Key(
            Choice(
                "The status of every rule this ruleset takes from its bases without restating it: a variant known only in part says `assumed`, so each inherited rule shows as an assumption here.",
                STATUS,
            ),
            default=Computed("each inherited rule's own status"),
            unsaid="provenance of inherited rules",
        ),
        "sources": Key(
            Entries(
                "The source texts cited in `source:` fields, by key (such as dappen-en).",
                source_entry,
                {"type": "string", "pattern": "^[a-z][a-z0-9_-]*$"},
            ),
            unsaid="the bibliography, listed under Sources",
        ),
        **SECTIONS,
        "by_players": Key(
            Entries(
                "Rules of their own for a number of active players (Cego for three), each a patch applied automatically when that many play.",
                player_rules,
                {"pattern": NUMBER_PATTERN},
            ),
            unsaid=EFFECTS,
        ),
        **AFTER_BY_PLAYERS,
        "readings": Key(
            Entries(
                "Disagreements between sources: each reading is chosen when a game starts.",
                choice_group("A disputed rule and its readings."),
            ),
            unsaid=EFFECTS,
        ),
        "options": Key(
            Entries(
                "Table agreements (half or full game …), chosen when a game starts.",
                choice_group("A table agreement and its choices."),
            ),
            unsaid=EFFECTS,
        ),
    },
)

# What a file must have unless it is a base.
PLAYABLE = ("title", "deck", "players", "deal", "auction", "contracts", "play", "counting", "settlement")


def ruleset_schema() -> Schema:
    """The JSON Schema of a ruleset file (schema/ruleset.schema.json)."""
    out = ruleset.schema()
    out["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    out["$id"] = "https://tarock.invalid/schema/ruleset.schema.json"
    out["title"] = "Tarock ruleset"
    out["if"] = {"properties": {"base": {"const": True}}, "required": ["base"]}
    out["else"] = {"required": list(PLAYABLE)}
    return out
