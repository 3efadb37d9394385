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
            # the pruning net reads the board inputs only (as search.best_reply gives them)
            small = [prune.equity(prune.pre(encoder.encode(b, False))) for b in boards
                     if encoder.is_contact(b)]
            best = min(range(len(full)), key=full.__getitem__)
            top = sorted(range(len(small)), key=small.__getitem__)[:search.PRUNE_KEEP]
            hits += best in top
            total += 1
    assert total >= 100
    assert hits >= 0.95 * total, (hits, total)  # 338 of 347 with the committed nets


def test_pruning_net_reads_the_board_inputs_and_matches_numpy():
    """The pruning net's file: no weight on the contact features (the search
    gives it only the board inputs), and its runtime equity is the numpy
    forward pass of the file, l2(sigmoid(l1(x))), one linear output."""
    from pathlib import Path

    import numpy as np

    from ai import encoder

    data = Path(net.WEIGHTS_DIR, "prune.bin").read_bytes()
    n_in, n_h, n_out = (int(v) for v in np.frombuffer(data, dtype="<u2", count=3, offset=6))
    vals = np.frombuffer(data, dtype="<f2", offset=12).astype(np.float64)
    assert (n_in, n_out) == (encoder.N_INPUTS, 1) and len(vals) == n_in * n_h + 2 * n_h + 1
    w1, b1 = vals[:n_in * n_h].reshape(n_in, n_h), vals[n_in * n_h:n_in * n_h + n_h]
    w2, b2 = vals[n_in * n_h + n_h:-1], vals[-1]
    assert not w1[encoder.FEAT:].any()
    prune = net.prune_net()
    checked = 0
    for pos, _, _ in fixed_positions(40, seed=3):
        b = (pos.opponent, pos.mover)
        if not encoder.is_contact(b):
            continue
        x = np.zeros(n_in)
        for i, v in encoder.encode(b, False):
            x[i] = v
        want = float(w2 @ (1.0 / (1.0 + np.exp(-(x @ w1 + b1)))) + b2)
        assert prune.equity(prune.pre(encoder.encode(b, False))) == pytest.approx(want, abs=2e-5)
        # the contact features would change nothing
        assert prune.equity(prune.pre(encoder.encode(b))) == pytest.approx(want, abs=2e-5)
        checked += 1
    assert checked >= 20
