"""The engine against GNU Backgammon's reference corpus (tests/reference/).

For every position (drawn from real games and from hard cases) and every one
of the 21 rolls, the engine's set of resulting positions must equal gnubg's,
and Position IDs must match gnubg's byte for byte.  For a subset the full
result sets and gnubg's own notation strings are stored: the engine must
format the same strings and parse gnubg's strings back to the same plays.
"""
from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest

from engine import Position, encode_position_id, parse_play

CORPUS = Path(__file__).parent / "reference" / "corpus.json.gz"
DATA = json.loads(gzip.decompress(CORPUS.read_bytes()))
POSITIONS = DATA["positions"]


def _board(e):
    b = e["board"]
    return [ord(c) - 48 for c in b[:25]], [ord(c) - 48 for c in b[25:]]


def _digest(ids):
    return hashlib.sha1(",".join(sorted(ids)).encode()).hexdigest()[:16]


def test_corpus_is_big_and_varied():
    assert len(POSITIONS) >= 2000
    kinds = {e["kind"] for e in POSITIONS}
    assert {"game", "bar_one", "bar_many", "closed_board", "primed", "bearoff_gaps",
            "bearoff_contact", "partial_doubles"} <= kinds
    assert all(len(e["rolls"]) == 21 for e in POSITIONS)


def test_position_ids_match_gnubg():
    for e in POSITIONS:
        opp, mover = _board(e)
        assert encode_position_id(opp, mover) == e["id"]
        p = Position.from_id(e["id"])
        assert p.opponent == tuple(opp) and p.mover == tuple(mover)
        assert p.id == e["id"]


@pytest.mark.parametrize("chunk", range(10))
def test_result_sets_match_gnubg(chunk):
    bad = []
    for e in POSITIONS[chunk::10]:
        pos = Position.from_id(e["id"])
        for roll, item in e["rolls"].items():
            d1, d2 = int(roll[0]), int(roll[1])
            ids = [p.result.id for p in pos.legal_plays(d1, d2)]
            if len(ids) != item["n"] or _digest(ids) != item["digest"]:
                bad.append(f"{e['id']} {e['kind']} {d1}-{d2}: engine {len(ids)} plays, gnubg {item['n']}")
    assert not bad, f"{len(bad)} mismatches, e.g. " + "; ".join(bad[:5])


def _full_items():
    for e in POSITIONS:
        for roll, item in e["rolls"].items():
            if "plays" in item:
                yield e, int(roll[0]), int(roll[1]), item


def test_full_sets_and_gnubg_notation():
    bad = []
    n = 0
    for e, d1, d2, item in _full_items():
        pos = Position.from_id(e["id"])
        ours = {p.result.id: p for p in pos.legal_plays(d1, d2)}
        assert set(ours) == {rid for rid, _mv, _txt in item["plays"]}
        for rid, _mv, txt in item["plays"]:
            n += 1
            if ours[rid].notation != txt:
                bad.append(f"{e['id']} {d1}-{d2}: engine {ours[rid].notation!r}, gnubg {txt!r}")
    assert n > 10000
    assert not bad, f"{len(bad)} of {n} notations differ, e.g. " + "; ".join(bad[:5])


def test_parse_every_gnubg_notation():
    bad = []
    for e, d1, d2, item in _full_items():
        pos = Position.from_id(e["id"])
        plays = pos.legal_plays(d1, d2)
        for rid, _mv, txt in item["plays"]:
            play = parse_play(pos, txt, d1, d2, plays)
            if play.result.id != rid:
                bad.append(f"{e['id']} {d1}-{d2} {txt!r}")
    assert not bad, f"{len(bad)} gnubg notations parsed to the wrong play, e.g. " + "; ".join(bad[:5])
