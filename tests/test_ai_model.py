"""The encoder and evaluator: training code and runtime agree; contact rules;
sibling (delta) evaluation equals full evaluation."""

from __future__ import annotations

import random

import pytest

from ai import encoder, net, search
from ai.speed import random_walk
from engine import Position


def random_positions(n: int, seed: int) -> list[Position]:
    """Positions from random legal play, seeded."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        out.append(random_walk(rng, rng.randint(1, 80)))
    return out


POSITIONS = random_positions(120, 7)


def board(pos: Position):
    return (pos.opponent, pos.mover)


def test_encode_is_sparse_and_in_range():
    for pos in POSITIONS:
        feats = encoder.encode(board(pos))
        idx = [i for i, _ in feats]
        assert len(idx) == len(set(idx))
        assert all(0 <= i < encoder.N_INPUTS and v != 0 for i, v in feats)
        dense = encoder.encode_dense(board(pos))
        assert sum(1 for v in dense if v) == len(feats)


def test_encoder_named_offsets():
    b = board(Position.start())
    d = encoder.encode_dense(b)
    # 5 checkers on own point 6 (index 5): units n>=2, n>=3 and (5-3)/2
    base = encoder.MOVER + encoder.UNITS * 5
    assert d[base:base + 4] == [0.0, 1.0, 1.0, 1.0]
    assert d[encoder.MOVER + encoder.PIP] == pytest.approx(1.67)
    assert d[encoder.OPPONENT + encoder.PIP] == pytest.approx(1.67)
    assert d[encoder.CONTACT] == 1.0
    assert d[encoder.MOVER + encoder.OFF] == 0.0


def test_contact_matches_gnubg_classification():
    import gnubg_nn as gnubg
    for pos in POSITIONS:
        b = [list(pos.opponent), list(pos.mover)]
        cls = gnubg.classify(b)
        gnubg_contact = cls in (gnubg.c_contact, gnubg.c_crashed)
        assert encoder.is_contact(board(pos)) == gnubg_contact, pos
        assert encoder.is_contact(board(pos)) == (not pos.is_race())


def test_delta_evaluation_equals_full():
    ev = search.Evaluator()
    contact, race = net.nets()
    for pos in POSITIONS[:40]:
        results = [p.result for p in pos.legal_plays(3, 1)] or [pos]
        fast = ev.plays0(pos, results)
        for r, f in zip(results, fast):
            full = ev.after(r)
            assert f == pytest.approx(full, abs=1e-9)


def test_runtime_net_matches_training_forward():
    import numpy as np
    import torch  # pinned in requirements-dev.txt (CPU build)

    from ai.training.export import quantised
    from ai.training.train import Net as TorchNet

    contact, race = net.nets()
    for runtime, name in ((contact, "contact"), (race, "race")):
        n_h = runtime.n_hidden
        m = TorchNet(n_h)
        with torch.no_grad():
            m.l1.weight.copy_(torch.tensor(np.array(runtime.rows, dtype=np.float32).T))
            m.l1.bias.copy_(torch.tensor(runtime.b1))
            m.l2.weight.copy_(torch.tensor(runtime.w2))
            m.l2.bias.copy_(torch.tensor(runtime.b2))
            for pos in POSITIONS[:30]:
                x = torch.tensor([encoder.encode_dense(board(pos))])
                want = m(x)[0].tolist()
                got = runtime.evaluate(board(pos))
                assert got == pytest.approx(want, abs=2e-5)
        # the file holds exactly the float16 values the exporter writes
        assert quantised(np.array(runtime.b1)).tolist() == pytest.approx(runtime.b1)


def test_outputs_are_probabilities_and_sensible():
    ev = search.Evaluator()
    for pos in POSITIONS[:40]:
        p = ev.board(board(pos))
        assert len(p) == 5 and all(0.0 <= x <= 1.0 for x in p)


def test_equity_and_invert():
    p = (0.6, 0.2, 0.05, 0.1, 0.01)
    assert net.equity(p) == pytest.approx(0.2 + 0.2 + 0.05 - 0.1 - 0.01)
    assert net.equity(net.invert(p)) == pytest.approx(-net.equity(p))
