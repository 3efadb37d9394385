"""The encoder's contact features after GNU Backgammon's (``EXT`` block of
ai/encoder.py): values worked out by hand, and hit statistics checked roll
by roll."""

from __future__ import annotations

import random

import pytest

from ai import encoder
from ai.speed import random_walk

START = (0,) * 5 + (5, 0, 3) + (0,) * 4 + (5,) + (0,) * 10 + (2, 0)


X = encoder


def ext(me, opp, my_back, opp_back):
    """One side's EXT features."""
    return encoder._side_features(me, opp, my_back, opp_back, encoder._made_mask(opp),
                                  encoder._made_mask(me))[1]


def test_start_position_by_hand():
    me = opp = START
    v = ext(me, opp, 23, 23)
    # every checker has to pass the other side's rearmost: 6*5 + 8*3 + 13*5 + 24*2 = 167
    assert v[X.BREAK] == 1.0
    assert v[X.FREEPIP] == 0.0
    # timing: 3 spare on the 13-point (3*12), the 8-point's 3 (3*7), 3 spare on the
    # 6-point (3*5), minus 2 each to make the 5- to 2-points (2*(4+3+2+1)): 52
    assert v[X.TIMING] == pytest.approx(0.52)
    assert v[X.BANCHOR] == pytest.approx(24 / 25)
    assert v[X.FANCHOR] == pytest.approx(1 / 6)  # the anchor on the other side's 1-point
    # mean point ceil(152/15) = 11; beyond it 5*1 + 2*12^2 = 293 over 7 checkers, rounded up
    assert v[X.MOMENT2] == pytest.approx(42 / 400)
    assert v[X.ENTER] == 0.0
    assert (v[X.BACKG], v[X.BACKG1]) == (0.0, 2 / 8)


def test_enter_loss_closed_board_and_one_point():
    closed = (2,) * 6 + (0,) * 19  # the other side holds its whole home board
    me = (0,) * 24 + (1,)
    v = ext(me, closed, 24, 5)
    assert v[X.ENTER] == 1.0  # no roll enters: every pip of every roll is lost
    one = (0,) * 5 + (2,) + (0,) * 19  # only its 6-point: a 6 cannot enter
    v1 = ext(me, one, 24, 5)
    # one on the bar: only 6-6 loses (4*6); a 6 with another number enters with that
    assert v1[X.ENTER] == pytest.approx(24 / 294)
    v2 = ext((0,) * 24 + (2,), one, 24, 5)
    # two on the bar: also x-6 (x<6, two rolls each) loses the 6: 24 + 5*2*6
    assert v2[X.ENTER] == pytest.approx(84 / 294)


def test_ext_block_only_in_contact():
    rng = random.Random(3)
    contact = 0
    for _ in range(300):
        pos = random_walk(rng, rng.randint(1, 80))
        b = (pos.opponent, pos.mover)
        extra = [(i, v) for i, v in encoder.encode(b) if i >= encoder.EXT]
        if encoder.is_contact(b):
            contact += 1
            assert extra and all(encoder.EXT <= i < encoder.N_INPUTS and v for i, v in extra)
        else:
            assert extra == []
    assert contact > 100


def test_anchor_features_by_hand():
    # the mover holds the other side's 5-point (index 19) and 2-point (index 22), one
    # checker on its 18-point, the rest at home; the other side's blocker on its 24-point
    me = [0] * 25
    me[0], me[1], me[2] = 5, 3, 2
    me[19], me[22], me[17] = 2, 2, 1
    v = ext(me, START, 22, 23)
    assert v[X.BANCHOR] == pytest.approx(23 / 25)  # the rearmost made point is index 22
    assert v[X.FANCHOR] == pytest.approx(5 / 6)  # its most forward anchor: their 5-point
    assert v[X.BACKG] == pytest.approx((4 - 3) / 4)  # two anchors, four checkers there
    assert v[X.BACKG1] == 0.0
    # no anchor in their home board, one point made in their outer board (index 14: their 10)
    me2 = [0] * 25
    me2[0], me2[14] = 13, 2
    v2 = ext(me2, START, 14, 23)
    assert v2[X.FANCHOR] == pytest.approx(10 / 6)
    assert (v2[X.BACKG], v2[X.BACKG1]) == (0.0, 0.0)


def _hit_stats_by_roll(attacker, defender):
    """hit_stats the slow way: for each of the 21 rolls, each blot on its own,
    does this roll reach it."""
    shots = pips = two = 0
    for a in range(1, 7):
        for b in range(a, 7):
            w = 1 if a == b else 2
            hit = []
            for k in range(24):
                if defender[k] == 1:
                    alone = list(defender)
                    for j in range(24):
                        if alone[j] == 1 and j != k:
                            alone[j] = 0
                    if _hits_with(attacker, alone, (a, b)):
                        hit.append(24 - k)
            if hit:
                shots += w
                pips += w * max(hit)
            if len(hit) > 1:
                two += w
    return shots, pips, two


def _hits_with(attacker, defender, roll):
    """Can ``roll`` carry one of ``attacker``'s checkers onto a blot of
    ``defender``, every point it touches on the way open (from the bar only,
    with two or more there)? Worked out directly, without encoder tables."""
    a, b = roll

    def open_at(i):  # the attacker's index i: is the defender's point there open?
        return defender[23 - i] < 2

    sources = (24,) if attacker[24] >= 2 else [i for i in range(25) if attacker[i]]
    for s in sources:
        for k in range(24):
            if defender[k] != 1:
                continue
            dist = s - (23 - k)
            if dist <= 0:
                continue
            if dist in (a, b):
                return True
            if a != b and a + b == dist and (open_at(s - a) or open_at(s - b)):
                return True
            if a == b and dist % a == 0 and dist // a <= 4 and all(
                    open_at(s - a * m) for m in range(1, dist // a)):
                return True
    return False


def test_hit_stats_matches_roll_by_roll():
    rng = random.Random(11)
    seen = 0
    for _ in range(400):
        pos = random_walk(rng, rng.randint(1, 60))
        opp, me = pos.opponent, pos.mover
        if not encoder.is_contact((opp, me)):
            continue
        got = encoder.hit_stats(me, opp, encoder._made_mask(opp))
        assert got == _hit_stats_by_roll(me, opp)
        seen += got[2] > 0
    assert seen > 20
