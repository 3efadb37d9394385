"""Levels 1-5: search depth and evaluation noise, never the dice.

Each level ranks the legal plays with :func:`ai.search.rank` and then adds
Gaussian noise of standard deviation ``noise`` (in equity) to every play's
equity before taking the best (GNU Backgammon's noisy players add theirs to
each of the five outputs instead: ``ai.gnubg_noise``). The noise comes from
a seeded RNG keyed by (seed, position, dice), so a given seed always plays
the same way, whatever happened before.

======  =================================================  =========
level   search                                             noise
======  =================================================  =========
1       0-ply                                              0.14
2       0-ply                                              0.11
3       0-ply                                              0.08
4       0-ply                                              0
5       0-ply, then 1-ply on up to 5 plays within 0.10     0
======  =================================================  =========

The noises are set against GNU Backgammon's predefined players as the
benchmark plays them (``ai.bench``, ``ai/README.md``): level 1 near gnubg
Beginner, level 2 Casual, level 3 Intermediate; level 4 is the clean 0-ply
player, above Advanced.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from engine import Play, Position

from ai.search import Candidate, rank


class Level(NamedTuple):
    plies: int
    noise: float
    max_candidates: int = 6
    threshold: float = 0.12


LEVELS = {
    1: Level(0, 0.14),
    2: Level(0, 0.11),
    3: Level(0, 0.08),
    4: Level(0, 0.0),
    5: Level(1, 0.0, 5, 0.10),
}


def check_level(level: object) -> int:
    """:raises ValueError: a level that is not an integer 1-5."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise ValueError(f"bad level {level!r}: levels are whole numbers from 1 to 5")
    return level


def ranked(pos: Position, d1: int, d2: int, level: int = 5) -> list[Candidate]:
    """The legal plays ranked by the level's search (no noise), best first."""
    lv = LEVELS[check_level(level)]
    return rank(pos, d1, d2, plies=lv.plies, max_candidates=lv.max_candidates,
                threshold=lv.threshold)


def choose(pos: Position, d1: int, d2: int, level: int = 5,
           seed: int | None = None) -> Play | None:
    """The level's play for this roll, or None when there is no legal play.

    :raises ValueError: bad level; :raises engine.DiceError: bad dice.
    """
    lv = LEVELS[check_level(level)]
    plays = pos.legal_plays(d1, d2)
    if not plays:
        return None
    if len(plays) == 1:
        return plays[0]
    cands = rank(pos, d1, d2, plies=lv.plies, max_candidates=lv.max_candidates,
                 threshold=lv.threshold, plays=plays)
    if not lv.noise:
        return cands[0].play
    rng = random.Random(f"{seed}:{pos.id}:{pos.turn}:{d1}{d2}") if seed is not None else random.Random()
    return max(cands, key=lambda c: c.equity + rng.gauss(0.0, lv.noise)).play
