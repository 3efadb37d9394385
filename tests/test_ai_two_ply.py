"""Level 5's 2-ply look: the two best plays after the 1-ply lookahead, when
they are close, are evaluated again two plies deep (``ai.search``).

The 2-ply value is checked against a plain exhaustive 2-ply written here
from the engine and the 0-ply evaluator alone; the level's use of it (when
it looks, how it ranks, how hints and reviews compare depths) is checked on
seeded positions."""

from __future__ import annotations

import random

import pytest

from ai import bearoff, levels, search
from ai.hint import hint
from ai.net import equity, invert
from ai.encoder import is_contact
from ai.search import ROLLS, win_probs
from ai.speed import fixed_positions, random_walk
from engine import Position, result_positions


def _mean(pairs):
    acc = [0.0] * 5
    for w, p in pairs:
        acc = [a + w * x for a, x in zip(acc, p)]
    return [a / 36.0 for a in acc]


BEAROFF_LEAVES: list = []


def on_roll_reference(ev, pos):
    """1-ply for ``pos``'s mover on roll: each roll's best play by 0-ply (in a
    bear-off, the database's value for the side on roll)."""
    if bearoff.applies((pos.opponent, pos.mover)):
        BEAROFF_LEAVES.append(pos)
        return list(bearoff.probabilities((pos.opponent, pos.mover)))
    pairs = []
    for d1, d2, w in ROLLS:
        rs = result_positions(pos, d1, d2)
        pairs.append((w, max((ev.after(s) for s in rs), key=equity) if rs else ev.after(pos)))
    return _mean(pairs)


def two_ply_reference(ev, r):
    """2-ply for the side that played into ``r``, every reply and play evaluated."""
    if not any(r.mover):
        return list(win_probs(r.opponent))
    pairs = []
    for d1, d2, w in ROLLS:
        replies = result_positions(r.swap(), d1, d2)
        if not replies:
            pairs.append((w, on_roll_reference(ev, r)))
            continue
        q = max(replies, key=lambda q: equity(ev.after(q)))  # the opponent's best reply
        pairs.append((w, invert(win_probs(q.opponent)) if not any(q.mover) else on_roll_reference(ev, q.swap())))
    return _mean(pairs)


def _late_results(n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = random_walk(rng, rng.randint(40, 90))
        if not (any(pos.mover) and any(pos.opponent)):
            continue
        plays = pos.legal_plays(rng.randint(1, 6), rng.randint(1, 6))
        if plays:
            out.append(plays[0].result)
    return out


@pytest.fixture
def unpruned():
    ev = search.evaluator()
    saved = ev.prune
    ev.prune = None
    yield ev
    ev.prune = saved


def test_unpruned_two_ply_is_the_exhaustive_two_ply(unpruned):
    # and a race whose replies lead into bear-offs (the database's value there)
    race = Position(mover=(3, 3, 3, 2, 2, 1) + (0,) * 19, opponent=(2, 2, 2, 2, 2, 1, 0, 2) + (0,) * 17)
    for r in _late_results(3, 5) + [race]:
        # (races are evaluated from checker counts, ai.net.BoardTable: equal up
        # to the inputs' quantization, about 1e-7)
        assert list(unpruned.ply2(r, keep=99)) == pytest.approx(two_ply_reference(unpruned, r), abs=2e-6)
    assert len(BEAROFF_LEAVES) >= 15
    # a finished game is its result
    loser = tuple([2] * 7 + [1] + [0] * 17)  # 15 checkers, none borne off: a gammon
    assert unpruned.ply2(Position(tuple([0] * 25), loser)) == (1.0, 1.0, 0.0, 0.0, 0.0)


def test_pruned_two_ply_stays_close_to_the_exhaustive_one():
    ev = search.evaluator()
    results = _late_results(3, 5)
    pruned = [equity(ev.ply2(r)) for r in results]
    saved = ev.prune
    ev.prune = None
    try:
        full = [equity(ev.ply2(r, keep=99)) for r in results]
    finally:
        ev.prune = saved
    assert max(abs(a - b) for a, b in zip(pruned, full)) < 0.02


def test_level5_looks_at_2ply_exactly_when_its_best_two_are_close_in_contact():
    lv = levels.LEVELS[5]
    assert lv.plies == 1 and lv.look > 0.0
    ev = search.evaluator()
    looked = skipped = reviewed = 0
    for pos, d1, d2 in fixed_positions(16, seed=21):
        one = search.rank(pos, d1, d2, 1, lv.max_candidates, lv.threshold)
        got = levels.ranked(pos, d1, d2, 5)
        if (len(one) < 2 or one[1].ply != 1 or one[0].equity - one[1].equity > lv.look
                or not any(is_contact((c.play.result.opponent, c.play.result.mover)) for c in one[:2])):
            assert got == one  # no look: the 1-ply ranking as it was
            skipped += 1
            continue
        looked += 1
        # the best two, at 2-ply, ranked by it; the rest as before
        assert [c.ply for c in got[:2]] == [2, 2]
        assert {c.play for c in got[:2]} == {c.play for c in one[:2]}
        assert got[0].equity >= got[1].equity
        for c in got[:2]:
            assert c.ply1_equity == next(o.equity for o in one if o.play == c.play)
        assert got[2:] == one[2:]
        if looked > 2:
            continue
        # their values are the look's, within the level's budget
        probs = ev.look([(c.play.result, None) for c in one[:2]], budget=lv.look_budget)
        assert {c.play: c.probs for c in got[:2]} == {c.play: p for c, p in zip(one[:2], probs)}
        assert levels.choose(pos, d1, d2, 5, seed=1) == got[0].play
        # hints compare a 1-ply play with the best play's 1-ply equity (the
        # same depth), and show its equity that far below the best's
        hs = hint(pos, d1, d2, 5)
        assert hs[1].loss == pytest.approx(got[0].equity - got[1].equity)
        for h, c in zip(hs[2:], got[2:]):
            if c.ply == 1:
                assert h.loss == pytest.approx(got[0].ply1_equity - c.equity)
                assert h.loss >= 0.0 and h.equity == pytest.approx(got[0].equity - h.loss)
                assert h.equity <= hs[0].equity
        # a review compares a play left at 1-ply with the best's 1-ply equity
        from webui.analysis import review_decision

        third = next((c for c in got[2:] if c.ply == 1), None)
        if third is not None:
            rv = review_decision(pos.id, pos.turn, d1, d2, third.play.notation)
            assert rv["best"] == got[0].play.notation
            assert rv["best_equity"] == pytest.approx(got[0].ply1_equity, abs=1e-4)
            assert rv["played_equity"] == pytest.approx(third.equity, abs=1e-4)
            reviewed += 1
    assert looked >= 4 and skipped >= 4 and reviewed >= 1


def _plays_at_second_ply(r, q):
    """How many of our plays a look values after the opponent's reply ``q``
    to ``r`` (None: no reply), counted from the engine: our plays to each
    of our 21 rolls, none in a bear-off (the database's value) or once the
    opponent has borne off."""
    if q is not None and not any(q.mover):
        return 0
    pos = r if q is None else q.swap()
    if bearoff.applies((pos.opponent, pos.mover)):
        return 0
    return sum(len(result_positions(pos, d1, d2)) for d1, d2, _ in ROLLS)


def test_a_budgeted_look_deepens_the_likeliest_rolls_until_its_budget_is_spent():
    ev = search.evaluator()
    assert sorted(search.LOOK_ORDER) == list(range(21))
    assert [ROLLS[j][2] for j in search.LOOK_ORDER] == [2] * 15 + [1] * 6  # non-doubles first
    checked = 0
    for pos, d1, d2 in fixed_positions(40, seed=33):
        plays = pos.legal_plays(d1, d2)
        rs = [p.result for p in plays[:2]]
        if len(rs) < 2 or not any(is_contact((r.opponent, r.mover)) for r in rs):
            continue
        replies = []
        for r in rs:
            replies.append([])
            ev.ply1(r, replies[-1])
        full = ev.look(list(zip(rs, replies)))
        assert full == [ev.ply2(r) for r in rs]
        # no budget left: the 1-ply values, exactly
        assert ev.look(list(zip(rs, replies)), budget=0) == [ev.ply1(r) for r in rs]
        # a budget of about half the full look's work
        cost = [sum(_plays_at_second_ply(r, rp[j][1]) for r, rp in zip(rs, replies)) for j in range(21)]
        budget = sum(cost) // 2
        done, spent = [], 0
        for j in search.LOOK_ORDER:
            if spent >= budget:
                break
            done.append(j)
            spent += cost[j]
        assert 0 < len(done) < 21
        before = ev.looked
        got = ev.look(list(zip(rs, replies)), budget=budget)
        assert ev.looked - before == spent  # the work counted is the engine's plays
        assert spent - budget < max(cost)  # it stops at the first roll after the budget
        for r, rp, g in zip(rs, replies, got):
            deep = {}
            for j in done:
                q = rp[j][1]
                if q is None:
                    deep[j] = ev.on_roll1(r, search.LOOK_KEEP)
                elif not any(q.mover):
                    deep[j] = invert(win_probs(q.opponent))
                else:
                    deep[j] = ev.on_roll1(q.swap(), search.LOOK_KEEP)
            want = _mean([(w, deep[j] if j in deep else rp[j][0]) for j, (_, _, w) in enumerate(ROLLS)])
            assert list(g) == pytest.approx(want, abs=1e-12)
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def test_level5_looks_within_its_budget_on_the_slowest_speed_positions():
    lv = levels.LEVELS[5]
    assert lv.look_budget == 12000
    ev = search.evaluator()
    cases = fixed_positions(200)
    # the two speed positions whose looks were the largest without a budget
    # (72,746 and 64,004 plays at the second ply)
    for k in (93, 64):
        pos, d1, d2 = cases[k]
        before = ev.looked
        got = levels.ranked(pos, d1, d2, 5)
        spent = ev.looked - before
        assert [c.ply for c in got[:2]] == [2, 2]
        # it stops at the first of the opponent's rolls after the budget is
        # spent: one roll's work for two candidates past it at most
        assert lv.look_budget <= spent < 1.5 * lv.look_budget


def test_a_look_at_the_best_three_deepens_those_within_its_margin():
    """``look_n`` = 3 (an experiment's setting; level 5 compares two) looks
    at the best three 1-ply plays that are within the margin of the best,
    all over the same rolls, and ranks them by it; two is the default."""
    ev = search.evaluator()
    lv = levels.LEVELS[5]
    assert lv.look_n == 2
    three = two = 0
    for pos, d1, d2 in fixed_positions(30, seed=25):
        one = search.rank(pos, d1, d2, 1, lv.max_candidates, lv.threshold)
        got = search.rank(pos, d1, d2, 1, lv.max_candidates, lv.threshold, look=0.06,
                          look_budget=lv.look_budget, look_n=3)
        if len(one) < 2 or one[1].ply != 1:
            assert got == one
            continue
        near = [c for c in one[:3] if c.ply == 1 and one[0].equity - c.equity <= 0.06]
        if len(near) < 2 or not any(is_contact((c.play.result.opponent, c.play.result.mover))
                                    for c in near):
            assert got == one
            continue
        n = len(near)
        assert [c.ply for c in got[:n]] == [2] * n and got[n:] == one[n:]
        assert {c.play for c in got[:n]} == {c.play for c in near}
        assert all(a.equity >= b.equity for a, b in zip(got, got[1:n]))
        probs = ev.look([(c.play.result, None) for c in near], budget=lv.look_budget)
        assert {c.play: c.probs for c in got[:n]} == {c.play: p for c, p in zip(near, probs)}
        if n == 3:
            three += 1
            # the default compares only the best two
            dflt = search.rank(pos, d1, d2, 1, lv.max_candidates, lv.threshold, look=0.06,
                               look_budget=lv.look_budget)
            assert [c.ply for c in dflt[:3]] == [2, 2, 1]
        else:
            two += 1
    assert three >= 2 and two >= 1
