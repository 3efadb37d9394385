"""The one-sided bear-off database against hand-computed values and gnubg."""

from __future__ import annotations

import random

import pytest

from ai import bearoff

Q = 1 / 65535 + 1e-9  # the file stores probabilities as multiples of 1/65535


def test_size():
    ps = bearoff.positions()
    assert len(ps) == 54264 and len(set(ps)) == 54264
    assert sum(1 for p in ps if sum(p) == 15) == 15504


def test_hand_computed():
    assert bearoff.dist((0,) * 6) == (1.0,)
    assert bearoff.dist((1, 0, 0, 0, 0, 0)) == pytest.approx((0.0, 1.0), abs=Q)
    assert bearoff.dist((2, 0, 0, 0, 0, 0)) == pytest.approx((0.0, 1.0), abs=Q)
    # one checker on the 6 point: off in one roll when the dice total 6 or more
    # (27 of 36 rolls; every double but 1-1 counts 4 times its value); else two.
    d = bearoff.dist((0, 0, 0, 0, 0, 1))
    assert d == pytest.approx((0.0, 27 / 36, 9 / 36), abs=Q)
    assert bearoff.expected_rolls((0, 0, 0, 0, 0, 1)) == pytest.approx(1.25, abs=1e-4)
    # three checkers on the 1 point: one roll only with a double
    assert bearoff.dist((3, 0, 0, 0, 0, 0)) == pytest.approx((0.0, 6 / 36, 30 / 36), abs=Q)


def test_successors_rules():
    # a 6 with checkers on the 2 and 5 points bears off from the 5 (highest)
    assert bearoff._steps((0, 1, 0, 0, 1, 0), 6) == {(0, 1, 0, 0, 0, 0)}
    # a 4 with checkers on the 2 and 5 points: 5->1, or 2 bears off? No: 2 < 4
    # bears off only from the highest point, so just 5->1.
    assert bearoff._steps((0, 1, 0, 0, 1, 0), 4) == {(1, 1, 0, 0, 0, 0)}
    assert bearoff.successors((0, 0, 0, 0, 0, 1), 1, 1) == {(0, 1, 0, 0, 0, 0)}


def test_probabilities_small():
    me = (1,) + (0,) * 24
    opp = (0, 0, 0, 0, 0, 1) + (0,) * 19
    p = bearoff.probabilities((opp, me))
    assert p[0] == pytest.approx(1.0, abs=1e-4)
    p = bearoff.probabilities((me, opp))  # on roll with one checker on 6, opponent off next roll
    assert p[0] == pytest.approx(27 / 36, abs=1e-4)


def test_matches_gnubg_one_sided_database():
    import gnubg_nn as gnubg
    rng = random.Random(3)
    ps = bearoff.positions()
    for p in rng.sample(ps, 400):
        if not any(p):
            continue
        mine = bearoff.dist(p)[1:]  # gnubg's list starts at one roll
        ref = gnubg.bearoff_probabilities(p)
        n = max(len(mine), len(ref))
        a = list(mine) + [0.0] * (n - len(mine))
        b = list(ref) + [0.0] * (n - len(ref))
        assert a == pytest.approx(b, abs=1e-3), p


def test_two_sided_matches_gnubg_evaluation():
    import gnubg_nn as gnubg
    rng = random.Random(5)
    ps = [p for p in bearoff.positions() if 6 <= sum(p) <= 15]
    for _ in range(150):
        a, b = rng.choice(ps), rng.choice(ps)
        board = (tuple(a) + (0,) * 19, tuple(b) + (0,) * 19)
        mine = bearoff.probabilities(board)
        ref = gnubg.probabilities([list(board[0]), list(board[1])], 0)
        assert mine[0] == pytest.approx(ref[0], abs=0.01), board
        assert mine[1] == pytest.approx(ref[1], abs=0.02), board
        assert mine[3] == pytest.approx(ref[3], abs=0.02), board
