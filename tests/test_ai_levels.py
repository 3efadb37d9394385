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
    for level in (1, 2, 3, 4):
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


# --------------------------------------------------------- output noise (level 4)
CAREFUL_OVERLOOKER = levels.Level(0, 0.015, blind=0.104)


def _candidate(opponent_view, play=None) -> search.Candidate:
    """A candidate whose result the opponent (about to roll) sees as ``opponent_view``."""
    play = play or Position.start().legal_plays(3, 1)[0]
    probs = search.invert(opponent_view)
    return search.Candidate(play, probs, search.equity(probs), 0)


def test_output_noise_overlooks_the_opponents_long_shots():
    # The opponent wins 2% after one play and 7% after the other, no gammons:
    # far apart clean, both "no chance" to a player blind below about 0.1.
    a, b = _candidate((0.02, 0.0, 0.0, 0.0, 0.0)), _candidate((0.07, 0.0, 0.0, 0.0, 0.0))
    assert a.equity - b.equity == pytest.approx(0.10)
    assert levels._output_noise(a, CAREFUL_OVERLOOKER, 1) == 1.0
    assert levels._output_noise(b, CAREFUL_OVERLOOKER, 1) == 1.0
    # without the blind spot the noise is small and the difference survives
    sharp = levels.Level(0, 0.015)._replace(blind=1e-9)
    assert levels._output_noise(a, sharp, 1) > levels._output_noise(b, sharp, 1)


def test_output_noise_is_a_function_of_the_position_and_key():
    c = _candidate((0.45, 0.12, 0.01, 0.10, 0.01))
    same = {levels._output_noise(c, CAREFUL_OVERLOOKER, 7) for _ in range(3)}
    assert len(same) == 1
    others = {levels._output_noise(c, CAREFUL_OVERLOOKER, k) for k in range(20)}
    assert len(others) == 20
    # lowering every output of the opponent by blind x scale raises the
    # mover's equity by 2 x blind (the gammon terms cancel); the win output's
    # noise of 0.015 spreads it by about 2 x 0.015
    vals = sorted(others)
    mean = sum(vals) / len(vals)
    sd = (sum((v - mean) ** 2 for v in vals) / (len(vals) - 1)) ** 0.5
    assert mean == pytest.approx(c.equity + 2 * 0.104, abs=0.025)
    assert 0.012 < sd < 0.06


def test_level_losses_fall_with_the_level():
    from ai import level_losses

    cases = level_losses.sample(40, 5)
    assert len(cases) == 40 and all(len(p.legal_plays(d1, d2)) > 1 for p, d1, d2 in cases)
    mean = {lv: sum(level_losses.losses(lv, cases)) / len(cases) for lv in (1, 3, 4)}
    assert mean[1] > mean[3] > mean[4] >= 0.0
