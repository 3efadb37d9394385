"""The lookahead's pruning net: the opponent's best reply of each roll is
found among the pruning net's best few, so level 5 plays as it would with
every reply evaluated, at a fraction of the contact net's evaluations."""

from __future__ import annotations

import random

import pytest

from ai import net, search
from ai.net import equity
from ai.speed import fixed_positions
from engine import result_positions


@pytest.fixture(scope="module")
def cases():
    return fixed_positions(40, seed=7)


def _without_pruning(fn):
    ev = search.evaluator()
    saved = ev.prune
    ev.prune = None
    try:
        return fn()
    finally:
        ev.prune = saved


def test_committed_pruning_net_is_loaded_and_small():
    prune = net.prune_net()
    assert prune is not None, "ai/weights/prune.bin is missing"
    assert search.evaluator().prune is prune
    contact, _ = net.nets()
    assert len(prune.rows) == len(contact.rows)
    assert 16 <= prune.n_hidden <= contact.n_hidden // 4


def test_pruned_lookahead_never_credits_a_reply_better_for_the_opponent(cases):
    """A pruned roll can only miss the opponent's best reply, never invent a
    better one: every candidate's pruned 1-ply equity is at least the full
    one, and equal on most."""
    ev = search.evaluator()
    pairs = []
    for pos, d1, d2 in cases[:12]:
        for p in pos.legal_plays(d1, d2)[:3]:
            pruned = equity(ev.ply1(p.result))
            full = _without_pruning(lambda: equity(ev.ply1(p.result)))
            pairs.append((pruned, full))
    assert len(pairs) >= 30
    assert all(pr >= f - 1e-12 for pr, f in pairs)
    assert sum(pr == f for pr, f in pairs) >= 0.6 * len(pairs)
    assert sum(pr - f for pr, f in pairs) / len(pairs) < 0.003


def test_best_reply_is_exact_when_a_roll_has_few_replies():
    ev = search.evaluator()
    rng = random.Random(3)
    checked = 0
    for pos, _, _ in fixed_positions(60, seed=11):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        replies = result_positions(pos, d1, d2)
        if not 1 <= len(replies) <= search.PRUNE_KEEP or not any(pos.opponent):
            continue
        base = search._Base((pos.opponent, pos.mover))
        pruned = ev.best_reply(replies, base)
        full = _without_pruning(lambda: ev.best_reply(replies, base))
        assert pruned == full
        checked += 1
    assert checked >= 5


def test_level5_plays_as_without_pruning_with_far_fewer_evaluations(cases):
    ev = search.evaluator()

    def choices():
        ev.evals = 0
        out = [search.rank(pos, d1, d2, plies=1, max_candidates=5, threshold=0.10)[0].play
               for pos, d1, d2 in cases]
        return out, ev.evals

    pruned, n_pruned = choices()
    full, n_full = _without_pruning(choices)
    assert sum(a == b for a, b in zip(pruned, full)) >= len(cases) - 1
    assert n_pruned < 0.5 * n_full, (n_pruned, n_full)


def test_pruning_net_ranks_replies_like_the_contact_net():
    """The contact net's best reply (lowest equity for the side that played)
    is among the pruning net's best PRUNE_KEEP in nearly every roll with more
    replies than that: the pruning net was distilled from this contact net
    (retrain it with ``python -m ai.training.prune`` after the contact net)."""
    ev = search.evaluator()
    contact, prune = ev.contact, ev.prune
    from ai import encoder

    hits = total = 0
    for pos, d1, d2 in fixed_positions(60, seed=5):
        r = pos.legal_plays(d1, d2)[0].result
        if not any(r.mover):
            continue
        rn = r.swap()
        for e1, e2, _ in search.ROLLS[::3]:
            boards = [(q.mover, q.opponent) for q in result_positions(rn, e1, e2) if any(q.mover)]
            feats = [encoder.encode(b) for b in boards]
            feats = [f for f in feats if f[-1][0] == encoder.CONTACT]
            if len(feats) <= search.PRUNE_KEEP:
                continue
            full = [equity(contact.output(contact.pre(f))) for f in feats]
            small = [equity(prune.output(prune.pre(f))) for f in feats]
            best = min(range(len(full)), key=full.__getitem__)
            top = sorted(range(len(small)), key=small.__getitem__)[:search.PRUNE_KEEP]
            hits += best in top
            total += 1
    assert total >= 100
    assert hits >= 0.95 * total, (hits, total)  # 338 of 347 with the committed nets
