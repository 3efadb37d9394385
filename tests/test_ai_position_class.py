"""``ai.training.heldout.position_class`` (how the held-out error is split by
position class) agrees with GNU Backgammon's own ``ClassifyPosition``
(gnubg-nn's ``classify``) on every position of seeded random games."""

from __future__ import annotations

import random

import gnubg_nn as gnubg

from ai.training.heldout import position_class
from engine import Position


def _gnubg_class(mover, opponent) -> str | None:
    c = gnubg.classify([list(mover), list(opponent)])
    if c == gnubg.c_over:
        return None
    return {gnubg.c_contact: "contact", gnubg.c_crashed: "crashed"}.get(c, "race")


def test_position_class_matches_gnubg_on_random_games():
    rng = random.Random(2026)
    seen = {"contact": 0, "crashed": 0, "race": 0}
    for _ in range(120):
        pos = Position.start()
        for _ in range(400):
            want = _gnubg_class(pos.mover, pos.opponent)
            if want is None:
                break
            assert position_class(pos.mover, pos.opponent) == want, (pos.mover, pos.opponent)
            seen[want] += 1
            plays = pos.legal_plays(rng.randint(1, 6), rng.randint(1, 6))
            pos = (rng.choice(plays).result if plays else pos).swap()
    assert min(seen.values()) > 100, seen     # every class was met, many times
