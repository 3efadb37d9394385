"""Every level always returns a legal play; seeded play is deterministic;
hints are ranked and consistent."""

from __future__ import annotations

import random

import pytest

from ai import levels, search
from ai.hint import hint, play_loss
from ai.speed import random_walk
from engine import Position, build


def random_positions(n: int, seed: int) -> list[tuple[Position, int, int]]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = random_walk(rng, rng.randint(0, 90))
        if any(pos.mover) and any(pos.opponent):
            out.append((pos, rng.randint(1, 6), rng.randint(1, 6)))
    return out


CASES = random_positions(60, 11)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_every_level_plays_legally(level):
    cases = CASES if level < 5 else CASES[:12]
    for pos, d1, d2 in cases:
        plays = pos.legal_plays(d1, d2)
        play = levels.choose(pos, d1, d2, level=level, seed=1)
        if not plays:
            assert play is None
        else:
            assert play in plays
            assert pos.parse_play(play.notation, d1, d2).result == play.result


def test_seed_makes_play_deterministic():
    for level in (1, 2, 3):
        a = [levels.choose(p, d1, d2, level=level, seed=42) for p, d1, d2 in CASES[:25]]
        b = [levels.choose(p, d1, d2, level=level, seed=42) for p, d1, d2 in CASES[:25]]
        assert [x and x.notation for x in a] == [x and x.notation for x in b]


def test_noise_changes_some_plays_between_seeds():
    cases = [c for c in CASES if len(c[0].legal_plays(c[1], c[2])) > 5][:25]
    a = [levels.choose(p, d1, d2, level=1, seed=1).notation for p, d1, d2 in cases]
    b = [levels.choose(p, d1, d2, level=1, seed=2).notation for p, d1, d2 in cases]
    assert a != b


def test_bad_level():
    with pytest.raises(ValueError):
        levels.choose(Position.start(), 3, 1, level=6)
    with pytest.raises(ValueError):
        levels.choose(Position.start(), 3, 1, level=True)


def test_no_legal_play_returns_none():
    # White on the bar against a closed board: no play with any roll.
    pos = build("w bar:1 6:5 8:3 13:6; b 19:2 20:2 21:2 22:2 23:2 24:2 12:3", turn="white")
    assert levels.choose(pos, 6, 6, level=5) is None
    assert hint(pos, 6, 6) == []


def test_forced_play_is_taken():
    pos = build("w 1:15; b 24:15", turn="white")
    play = levels.choose(pos, 6, 5, level=5)
    assert play.notation  # the only play: bear off two checkers
    assert play.result.off("white") == 2


def test_hint_ranked_with_probabilities():
    pos = Position.start()
    hs = hint(pos, 3, 1)
    assert len(hs) == len(pos.legal_plays(3, 1))
    assert hs[0].loss == 0.0
    assert all(h.loss >= 0.0 for h in hs)
    for h in hs:
        assert 0.0 <= h.win <= 1.0 and 0.0 <= h.win_gammon <= h.win + 1e-6
    deep = [h for h in hs if h.ply == 1]
    assert deep == sorted(deep, key=lambda h: -h.equity)
    assert play_loss(pos, 3, 1, hs[0].notation) == 0.0


def test_bearoff_positions_use_the_database():
    # a no-contact bear-off: 0-ply equals the database's evaluation
    pos = build("w 1:2 2:2 3:2; b 24:3 23:3", turn="white")
    ev = search.Evaluator()
    from ai import bearoff

    for play in pos.legal_plays(2, 1):
        r = play.result
        got = ev.after(r)
        want = bearoff.probabilities((r.mover, r.opponent))
        assert got == pytest.approx((1 - want[0], want[3], want[4], want[1], want[2]))
