"""Fair dice by commit-reveal (site/webui/fair_dice.py): derivation, uniformity, commitments."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from webui import fair_dice  # noqa: E402
from webui.fair_dice import CommitmentMismatch, Exchange  # noqa: E402

# chi-square critical values at p = 0.001
CHI2_35 = 66.62   # 35 degrees of freedom (36 outcomes)
CHI2_29 = 58.30   # 29 degrees of freedom (30 opening outcomes)


def secret(i: int, salt: bytes = b"") -> bytes:
    return hashlib.sha256(salt + i.to_bytes(4, "big")).digest()


def chi2(counts: Counter, cells: list, n: int) -> float:
    e = n / len(cells)
    return sum((counts[c] - e) ** 2 / e for c in cells)


ALL36 = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def test_rolls_are_uniform_over_36_outcomes():
    n = 36_000
    counts = Counter(fair_dice.roll(secret(i, b"w"), secret(i, b"b"), f"room|1|{i}") for i in range(n))
    assert set(counts) == set(ALL36)
    assert chi2(counts, ALL36, n) < CHI2_35
    # doubles one time in six, each die uniform
    assert abs(sum(counts[(d, d)] for d in range(1, 7)) / n - 1 / 6) < 0.01


def test_rolls_stay_uniform_when_one_side_uses_a_fixed_secret():
    """A cheater who always sends the same secret cannot bias the dice: the honest
    side's random secret alone makes every outcome equally likely."""
    n = 18_000
    fixed = bytes(32)
    counts = Counter(fair_dice.roll(fixed, secret(i, b"honest"), "r|1|5") for i in range(n))
    assert chi2(counts, ALL36, n) < CHI2_35


def test_opening_rerolls_ties_and_is_uniform_over_30_outcomes():
    n = 30_000
    counts = Counter(fair_dice.opening(secret(i, b"w"), secret(i, b"b"), f"room|{i}|0") for i in range(n))
    cells = [c for c in ALL36 if c[0] != c[1]]
    assert set(counts) == set(cells)
    assert chi2(counts, cells, n) < CHI2_29


def test_the_outcome_stream_rejects_bytes_above_251():
    w, b = secret(1), secret(2)
    seed = fair_dice.DOMAIN + b"\0ctx\0" + w + b
    first = hashlib.sha256(seed + (0).to_bytes(8, "big")).digest()
    want = [x % 36 for x in first if x < 252]
    stream = fair_dice.outcomes(w, b, "ctx")
    assert [next(stream) for _ in want] == want


def test_derivation_depends_on_both_secrets_and_the_context():
    w, b = secret(1), secret(2)
    base = [fair_dice.roll(w, b, f"r|1|{i}") for i in range(40)]
    assert base == [fair_dice.roll(w, b, f"r|1|{i}") for i in range(40)]         # deterministic
    assert base != [fair_dice.roll(b, w, f"r|1|{i}") for i in range(40)]         # order matters
    assert base != [fair_dice.roll(w, secret(3), f"r|1|{i}") for i in range(40)]  # each secret matters
    assert base != [fair_dice.roll(w, b, f"r|2|{i}") for i in range(40)]         # bound to the game


def test_commitment_and_verify():
    s = secret(7)
    c = fair_dice.commitment(s)
    assert c == hashlib.sha256(s).hexdigest() and len(c) == 64
    fair_dice.verify(c, s)
    fair_dice.verify(c.upper(), s)
    with pytest.raises(CommitmentMismatch) as err:
        fair_dice.verify(c, secret(8))
    assert "does not match" in str(err.value)
    with pytest.raises(ValueError):
        fair_dice.commitment(b"short")


def test_new_secrets_are_32_random_bytes():
    got = {fair_dice.new_secret() for _ in range(100)}
    assert len(got) == 100 and all(len(s) == 32 for s in got)


def test_exchange_both_sides_derive_the_same_dice():
    white, black = Exchange(3), Exchange(3)
    assert not white.may_reveal
    white.receive_commit(black.commit)
    black.receive_commit(white.commit)
    assert white.may_reveal and black.may_reveal
    assert white.receive_reveal(black.mine) and black.receive_reveal(white.mine)
    assert not white.receive_reveal(black.mine)   # a resend is harmless
    w1 = white.secrets_by_colour("white")
    assert w1 == black.secrets_by_colour("black")
    assert fair_dice.roll(*w1, "x") == fair_dice.roll(*black.secrets_by_colour("black"), "x")
    again = Exchange.from_dict(white.to_dict())
    assert again.to_dict() == white.to_dict()


def test_exchange_refuses_a_reveal_before_the_commitment_and_a_changed_commitment():
    me, peer = Exchange(1), Exchange(1)
    with pytest.raises(ValueError):
        me.receive_reveal(peer.mine)
    me.receive_commit(peer.commit)
    assert not me.receive_commit(peer.commit)
    with pytest.raises(CommitmentMismatch):
        me.receive_commit(Exchange(1).commit)
    with pytest.raises(CommitmentMismatch):
        me.receive_reveal(secret(99))
    assert me.peer_secret is None
