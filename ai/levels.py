"""Levels 1-5: search depth and evaluation noise, never the dice.

Each level ranks the legal plays with :func:`ai.search.rank` and then, for
levels 1-3, adds Gaussian noise of standard deviation ``noise`` (in equity)
to every play's equity before taking the best. Level 4 misjudges the way GNU
Backgammon's noisy players do (``ai.gnubg_noise``): noise on each of the five
outputs of a play's result, whose downward shift (``blind``) makes it
overlook long shots (see :func:`_output_noise`). The noise comes from a
seeded RNG keyed by the seed and the position, so a given seed always plays
the same way, whatever happened before.

======  =================================================  ==================
level   search                                             noise
======  =================================================  ==================
1       0-ply                                              0.14 on equity
2       0-ply                                              0.11 on equity
3       0-ply                                              0.08 on equity
4       0-ply                                              0.025 on outputs,
                                                           blind 0.1725
5       0-ply, then 1-ply on up to 5 plays within 0.10     0
        (each roll's replies pruned to the pruning
        net's best 4, ``ai.search``); when the best
        two are within 0.04 and not both races, 2-ply
        on those two (about 12,000 plays at most)
======  =================================================  ==================

The noises are set against GNU Backgammon's predefined players as the
benchmark plays them (``ai.bench``, ``ai/README.md``): level 1 near gnubg
Beginner, level 2 Casual, level 3 Intermediate, level 4 below Advanced
(whose noise is 0.015 with, through gnubg's deterministic noise, an
effective blind of 6.9 x 0.015 = 0.104; level 4 has the same shape at
0.025), where the steps from level 3 to 4 and from 4 to 5 come out about
equal.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from engine import Play, Position

from ai.net import equity, invert, sane
from ai.search import Candidate, rank


class Level(NamedTuple):
    plies: int
    noise: float
    max_candidates: int = 6
    threshold: float = 0.12
    # > 0: the noise goes on the five outputs instead (see _output_noise), and
    # each output is first lowered by ``blind`` x its scale
    blind: float = 0.0
    # > 0: when the two best plays after the 1-ply lookahead are within
    # ``look``, both are evaluated again at 2-ply (ai.search.rank)
    look: float = 0.0
    # the look's budget: about how many of our plays it values at its second
    # ply before the rest of the opponent's rolls keep their 1-ply value
    # (ai.search.Evaluator.look; None: no limit)
    look_budget: int | None = None
    # how many of the best plays the look may compare, each within ``look`` of the best
    look_n: int = 2


# how much of the noise each output gets: win, win gammon, win backgammon,
# lose gammon, lose backgammon (GNU Backgammon's scaling)
OUTPUT_SCALE = (1.0, 0.25, 0.01, 0.25, 0.01)


LEVELS = {
    1: Level(0, 0.14),
    2: Level(0, 0.11),
    3: Level(0, 0.08),
    4: Level(0, 0.025, blind=0.1725),
    5: Level(1, 0.0, 5, 0.10, look=0.04, look_budget=12000),
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
                threshold=lv.threshold, look=lv.look, look_budget=lv.look_budget, look_n=lv.look_n)


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
                 threshold=lv.threshold, plays=plays, look=lv.look, look_budget=lv.look_budget, look_n=lv.look_n)
    if not lv.noise:
        return cands[0].play
    if lv.blind:
        key = seed if seed is not None else random.getrandbits(64)
        return max(cands, key=lambda c: _output_noise(c, lv, key)).play
    rng = random.Random(f"{seed}:{pos.id}:{pos.turn}:{d1}{d2}") if seed is not None else random.Random()
    return max(cands, key=lambda c: c.equity + rng.gauss(0.0, lv.noise)).play


def _output_noise(c: Candidate, lv: Level, key) -> float:
    """A play's equity as a player who misjudges positions and overlooks long
    shots sees it: the five outputs of the play's result, from the opponent's
    side (about to roll), each get Gaussian noise of ``lv.noise`` x its scale
    and are lowered by ``lv.blind`` x its scale, then clamped to [0, 1] and
    made consistent. The opponent's winning chances under about ``lv.blind``
    and gammon chances (either side's) under about a quarter of it so count
    as none: ahead, the player stops telling safe plays from loose ones. The
    noise is a function of the resulting position (and ``key``): the same
    position is always misjudged the same way, whichever play led to it."""
    r = c.play.result
    if not any(r.mover):
        return c.equity  # bore off the last checker: the result is known
    rng = random.Random(f"{key}:{r.id}:{r.turn}")
    seen = sane([min(max(p - lv.blind * s + rng.gauss(0.0, lv.noise * s), 0.0), 1.0)
                 for p, s in zip(invert(c.probs), OUTPUT_SCALE)])
    return -equity(seen)
