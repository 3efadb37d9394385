"""The encoder and evaluator: training code and runtime agree; contact rules;
sibling (delta) evaluation equals full evaluation."""

from __future__ import annotations

import random
from pathlib import Path

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
        assert all(0 <= i < encoder.N_INPUTS and v != 0 and abs(v) <= net.MAX_INPUT
                   for i, v in feats)
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


def test_packed_rows_round_trip_with_borrows():
    """Packing and unpacking are exact to 2**-45, whatever the signs of the
    neighbouring units (a negative unit borrows from the one above it)."""
    contact, _ = net.nets()
    rng = random.Random(3)
    scale = 2.0 ** net._FRAC_BITS
    for _ in range(20):
        v = [rng.choice((-1, 1)) * rng.uniform(0, 50) for _ in range(contact.n_hidden)]
        v[rng.randrange(len(v))] = 0.0
        back = list(contact.unpack(contact._pack(v, net._FRAC_BITS)))
        assert all(abs(x - round(y * scale) / scale) <= 1.0 / scale for x, y in zip(back, v))


def test_packed_pre_activation_is_the_float_sum():
    """The packed hidden layer is bias + sum(value * row) of the weights,
    to within the inputs' quantization (2**-21 of each value)."""
    contact, race = net.nets()
    for pos in POSITIONS[:30]:
        feats = encoder.encode(board(pos))
        n = contact if feats[-1][0] == encoder.CONTACT else race
        want = [b + sum(v * n._rows[i][k] for i, v in feats) for k, b in enumerate(n._b1)]
        slack = [sum(2.0 ** -21 * abs(n._rows[i][k]) for i, _ in feats) + 1e-12
                 for k in range(n.n_hidden)]
        got = list(n.unpack(n.pre(feats)))
        assert all(abs(g - w) <= e for g, w, e in zip(got, want, slack))


def test_delta_adds_exactly_what_a_full_evaluation_does():
    contact, _ = net.nets()
    for pos in POSITIONS[:40]:
        base = encoder.encode(board(pos))
        if base[-1][0] != encoder.CONTACT:
            continue
        acc = contact.pre(base)
        for play in pos.legal_plays(5, 2):
            r = play.result
            feats = encoder.encode((r.opponent, r.mover))
            if feats[-1][0] == encoder.CONTACT:
                assert contact.delta(acc, net.feature_diff(base, feats)) == contact.pre(feats)


def test_weights_too_large_to_pack_are_refused():
    contact, _ = net.nets()
    big = [list(row) for row in contact.rows]
    big[0] = [4e4] * contact.n_hidden  # 8 (MAX_INPUT) * 2e4 (halved) > 2**16
    with pytest.raises(ValueError, match="too large"):
        net.Net(big, contact.b1, contact.w2, contact.b2)


def numpy_forward(path: str):
    """An independent reading of a committed weights file (BGNN header, then
    float16 l1 weights by input, l1 bias, l2 weights by output, l2 bias) and
    the training net's forward pass, sigmoid(l2(sigmoid(l1(x)))), in numpy."""
    import numpy as np

    data = Path(path).read_bytes()
    assert data[:4] == b"BGNN"
    version, n_in, n_h, n_out = (int(v) for v in np.frombuffer(data, dtype="<u2", count=4, offset=4))
    vals = np.frombuffer(data, dtype="<f2", offset=12).astype(np.float64)
    assert version == 1 and n_in == encoder.N_INPUTS
    assert len(vals) == n_in * n_h + n_h + n_out * n_h + n_out
    w1 = vals[: n_in * n_h].reshape(n_in, n_h)
    b1 = vals[n_in * n_h: n_in * n_h + n_h]
    w2 = vals[n_in * n_h + n_h: n_in * n_h + n_h + n_out * n_h].reshape(n_out, n_h)
    b2 = vals[-n_out:]

    def sigmoid(z):
        return 1.0 / (1.0 + np.exp(-z))

    return lambda x: sigmoid(w2 @ sigmoid(np.asarray(x) @ w1 + b1) + b2)


def test_runtime_net_matches_numpy_forward_of_the_weights():
    contact, race = net.nets()
    for runtime, name in ((contact, "contact"), (race, "race")):
        forward = numpy_forward(str(Path(net.WEIGHTS_DIR) / f"{name}.bin"))
        for pos in POSITIONS[:30]:
            want = forward(encoder.encode_dense(board(pos))).tolist()
            got = runtime.evaluate(board(pos))
            assert got == pytest.approx(want, abs=2e-6)


def test_outputs_are_probabilities_and_sensible():
    ev = search.Evaluator()
    for pos in POSITIONS[:40]:
        p = ev.board(board(pos))
        assert len(p) == 5 and all(0.0 <= x <= 1.0 for x in p)


def test_equity_and_invert():
    p = (0.6, 0.2, 0.05, 0.1, 0.01)
    assert net.equity(p) == pytest.approx(0.2 + 0.2 + 0.05 - 0.1 - 0.01)
    assert net.equity(net.invert(p)) == pytest.approx(-net.equity(p))


# The well-known count of rolls (of 36) that hit a lone blot k pips in front
# of a single attacking checker on an otherwise open board.
SHOTS_BY_DISTANCE = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3,
                     11: 2, 12: 3, 13: 0, 14: 0, 15: 1, 16: 1, 17: 0, 18: 1, 19: 0, 20: 1}


@pytest.mark.parametrize("k", sorted(SHOTS_BY_DISTANCE))
def test_shots_match_the_known_table(k):
    attacker, defender = [0] * 25, [0] * 25
    attacker[20] = 1
    defender[23 - (20 - k)] = 1  # the blot, in the defender's own layout
    assert encoder.shots(attacker, defender) == SHOTS_BY_DISTANCE[k]


def test_shots_respect_blocks_and_the_bar():
    attacker, defender = [0] * 25, [0] * 25
    attacker[20] = 1
    defender[23 - 12] = 1  # blot 8 away: 6-2, 5-3, 4-4, 2-2
    assert encoder.shots(attacker, defender) == 6
    defender[23 - 18] = 2  # the 2 point (on the way for 6-2, 4-4, 2-2) blocked
    defender[23 - 17] = 2  # the 3 point (on the way for 5-3) blocked
    # 6-2 still goes 6 first (point 14 open); 5-3 via 5 (15) open; 4-4 via 16 open;
    # 2-2 needs 18, 16, 14 and 18 is blocked
    assert encoder.shots(attacker, defender) == 5
    # two checkers on the bar: only hits from the bar count; the blot is 12
    # pips from the bar: 4-4 (via 20, 16) hits, 6-6 and 3-3 pass the blocked 18
    attacker[24] = 2
    assert encoder.shots(attacker, defender) == 1
    defender[23 - 21] = 1  # a blot 3 pips from the bar: any 3, 2-1, 1-1, plus the 4-4
    assert encoder.shots(attacker, defender) == 11 + 2 + 1 + 1


def test_escapes_and_prime_features():
    # mover on the bar against a closed board: no escapes, fully contained
    opp = [2, 2, 2, 2, 2, 2] + [0] * 18 + [0]
    opp[12] = 3
    me = [0] * 24 + [1]
    me[5] = 14
    d = encoder.encode_dense((opp, me))
    f = encoder.FEAT
    assert d[f + encoder.ESCAPE] == 0.0
    assert d[f + encoder.CONTAINED] == 1.0
    assert d[f + encoder.N_FEAT + encoder.PRIME] == 1.0  # the opponent's 6-prime
    assert d[f + encoder.N_FEAT + encoder.CLOSED] == 1.0
    # races have no contact features
    race = ([0] * 6 + [0] * 18 + [0], [3] * 5 + [0] * 20)
    race[0][0] = 15
    assert all(v == 0.0 for v in encoder.encode_dense(race)[f:])


def test_shots_agree_with_the_engine_nearly_always():
    """The shot count is a fast approximation (it ignores the rule that both
    dice must be played when possible): compared with the engine's legal plays
    it must agree on nearly every position."""
    rng = random.Random(5)
    agree = total = 0
    while total < 300:
        pos = random_walk(rng, rng.randint(1, 60))
        if pos.mover[24] or not encoder.is_contact(board(pos)):
            continue
        brute = 0
        for a in range(1, 7):
            for b in range(1, 7):
                if any(p.result.opponent[24] > pos.opponent[24] for p in pos.legal_plays(a, b)):
                    brute += 1
        total += 1
        agree += brute == encoder.shots(pos.mover, pos.opponent)
    assert agree >= 0.97 * total, (agree, total)


def test_weights_and_tables_fit_in_one_and_a_half_megabytes_gzipped():
    """The issue's size limit for everything the AI downloads into the browser."""
    import gzip
    import pathlib

    folder = pathlib.Path(net.__file__).parent / "weights"
    files = sorted(folder.iterdir())
    assert {f.name for f in files} >= {"contact.bin", "race.bin", "prune.bin", "bearoff.bin.gz"}
    total = sum(len(f.read_bytes()) if f.suffix == ".gz" else len(gzip.compress(f.read_bytes()))
                for f in files)
    assert total <= 1_500_000, f"{total} bytes gzip-compressed"
