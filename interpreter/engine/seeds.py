"""Seeds handed on: each deal of a seeded session and each bot draws from a stream of its own.

A session, a simulation or a game given one seed derives the seeds of what it starts (the
shuffle of deal i, a bot) through a hash of what the seed is for, the seed and an index:
64 bits of BLAKE2b. It never passes its own seed on, nor draws the seeds from a generator
seeded with it:
- a bot seeded with the game's own seed would draw the very numbers that shuffled the cards
  (a random bot's choices would follow the deal, and tell it);
- a deal's seed is one of 2**64, so one seat's hand does not give it away by trying seeds (a
  32-bit seed is found from twelve cards within hours), and with it the other hands.
What it cannot hide is a small seed given to the session itself: a seeded session is as public
as its seed. A session without a seed shuffles from the operating system's randomness and has no
seed to find.

`Game(seed=N)` shuffles from N itself, as records and tests have always named a deal.
"""

from __future__ import annotations

import hashlib
import json

PURPOSES = ("deal", "bot")  # what a seed is derived for; each its own family of streams


def derive_seed(seed: int, purpose: str, *which: int | str) -> int:
    """The seed for `purpose` (a deal's shuffle, a bot), told apart by `which` (the deal's
    number, the seat, the kind of bot), derived from `seed`: 64 bits of BLAKE2b over all of
    them, a whole number from 0 to 2**64 - 1 (what `Game` takes as a seed)."""
    if purpose not in PURPOSES:
        raise ValueError(f"a seed is derived for one of {', '.join(PURPOSES)}, not {purpose!r}")
    text = json.dumps([purpose, seed, *which])  # unambiguous: ("bot", 1, 23) is not ("bot", 12, 3)
    digest = hashlib.blake2b(text.encode(), digest_size=8, person=b"tarock.seeds").digest()
    return int.from_bytes(digest, "big")


def deal_seed(seed: int, index: int) -> int:
    """The shuffle's seed of deal `index` (counted from 0) of a session or simulation seeded `seed`."""
    return derive_seed(seed, "deal", index)


def bot_seed(seed: int | None, *which: int | str) -> int | None:
    """The seed of the bot `which` (a seat, a deal and seat, a kind of bot) where the game or
    session was seeded `seed`; None, a stream from the operating system's randomness, where it
    was not."""
    return None if seed is None else derive_seed(seed, "bot", *which)
