"""The benchmark's noisy gnubg players add noise the way GNU Backgammon does.

``tests/reference/gnubg_noise.json.gz`` (made by
``tests/reference/make_gnubg_noise.py``) holds Debian gnubg 1.07's own
evaluations of 5,000 positions, clean and with deterministic noise at each
predefined player's setting. ``ai.gnubg_noise`` must turn the clean outputs
into gnubg's noisy ones.
"""
from __future__ import annotations

import gzip
import json
import statistics
from pathlib import Path

import pytest

from ai import gnubg_noise

DATA = json.loads(gzip.decompress(
    (Path(__file__).parent / "reference" / "gnubg_noise.json.gz").read_bytes()))
ROWS = DATA["rows"]


def test_fixture_covers_every_setting_and_kind_of_position():
    assert sorted(DATA["noises"]) == [0.015, 0.04, 0.05, 0.06]
    assert len(ROWS) == 5000
    bearoffs = [r for r in ROWS if not any(r["board"][0][6:]) and not any(r["board"][1][6:])]
    assert len(bearoffs) > 100
    # the noise really moved gnubg's evaluations (the fixture is not all clean)
    moved = [r for r in ROWS if r["0.06"] != r["clean"]]
    assert len(moved) > 4900


@pytest.mark.parametrize("noise", [0.06, 0.05, 0.04, 0.015])
def test_noisy_outputs_match_gnubg(noise):
    off = []
    for r in ROWS:
        got = gnubg_noise.noisy(r["board"], r["clean"], noise)
        want = r[str(noise)]
        # the win output, which carries most of the noise, matches everywhere
        assert got[0] == pytest.approx(want[0], abs=2e-5), r["board"]
        if any(abs(a - b) > 2e-5 for a, b in zip(got, want)):
            off.append(r)
    # the rest (documented in ai/gnubg_noise.py): crashed positions whose raw
    # lose-gammon output the clean evaluation had capped at 1 - win
    assert len(off) <= 25
    for r in off:
        assert r["clean"][3] == pytest.approx(1.0 - r["clean"][0], abs=2e-6)


def test_deterministic_noise_is_biased_like_gnubgs():
    """gnubg sums the digest's bytes as signed chars: a mean near -6.9."""
    draws = [gnubg_noise.deviate(r["board"], 0) for r in ROWS[:2000]]
    assert -7.2 < statistics.mean(draws) < -6.6
    assert 0.85 < statistics.stdev(draws) < 1.15


def test_finished_games_get_no_noise():
    board = [[0] * 25, [2] + [0] * 24]
    probs = (1.0, 0.0, 0.0, 0.0, 0.0)
    assert gnubg_noise.noisy(board, probs, 0.06) == probs


def test_noisy_gnubg_player_plays_legally_and_differs_from_expert():
    import random

    from engine import Position

    from ai.bench import GnubgPlayer

    beginner, expert = GnubgPlayer("beginner", 1), GnubgPlayer("expert", 1)
    rng = random.Random(7)
    pos, differ = Position.start(), 0
    for _ in range(60):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        plays = pos.legal_plays(d1, d2)
        if not plays:
            pos = pos.swap()
            continue
        b = beginner.choose(pos, d1, d2, plays)
        assert b in plays
        differ += b != expert.choose(pos, d1, d2, plays)
        if not any(b.result.mover):
            break
        pos = b.next
    assert differ > 0
