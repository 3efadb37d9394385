"""`python -m ai play` / `python -m ai hint`: the protocol in docs/contracts.md."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from engine import Position

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(args, stdin=""):
    return subprocess.run([sys.executable, "-m", "ai", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_play_answers_one_line_per_request():
    req = "4HPwATDgc/ABMA 3 1\n\n4HPwATDgc/ABMA 6 6\n"
    r = run(["play", "--level", "3", "--seed", "5"], req)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2
    start = Position.from_id("4HPwATDgc/ABMA")
    for line, (d1, d2) in zip(lines, [(3, 1), (6, 6)]):
        notation, result_id = line.split("\t")
        play = start.parse_play(notation, d1, d2)
        assert play.result.id == result_id  # mover still on roll
    assert r.stderr == ""


def test_play_is_long_lived_and_flushes():
    p = subprocess.Popen([sys.executable, "-m", "ai", "play", "--level", "1", "--seed", "1"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        for d in ("3 1", "5 5"):
            p.stdin.write(f"4HPwATDgc/ABMA {d}\n")
            p.stdin.flush()
            line = p.stdout.readline()
            assert "\t" in line and line.endswith("\n")
    finally:
        p.stdin.close()
        assert p.wait(timeout=60) == 0


def test_play_with_seed_is_deterministic():
    req = "".join(f"4HPwATDgc/ABMA {a} {b}\n" for a in range(1, 7) for b in range(1, 7))
    a = run(["play", "--level", "1", "--seed", "9"], req).stdout
    b = run(["play", "--level", "1", "--seed", "9"], req).stdout
    assert a == b and len(a.splitlines()) == 36


def test_play_no_legal_play():
    from engine import build

    pos = build("w bar:1 6:5 8:3 13:6; b 19:2 20:2 21:2 22:2 23:2 24:2 12:3", turn="white")
    r = run(["play", "--level", "5"], f"{pos.id} 6 6\n")
    assert r.returncode == 0
    assert r.stdout == f"\t{pos.id}\n"


def test_hint_lists_ranked_plays():
    r = run(["hint", "4HPwATDgc/ABMA", "3", "1", "--level", "4"])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 16
    eqs = [float(line.split("\t")[1]) for line in lines]
    assert eqs == sorted(eqs, reverse=True)


@pytest.mark.parametrize("args,stdin", [
    (["hint", "4HPwATDgc/ABM", "3", "1"], ""),
    (["hint", "4HPwATDgc/ABMA", "7", "1"], ""),
    (["hint", "4HPwATDgc/ABMA", "x", "1"], ""),
    (["hint", "4HPwATDgc/ABMA", "3", "1", "--level", "6"], ""),
    (["play", "--level", "0"], ""),
    (["play", "--level", "3"], "4HPwATDgc/ABMA 3\n"),
    (["play", "--level", "3"], "not-an-id!!!!! 3 1\n"),
    (["play", "--level", "3"], "4HPwATDgc/ABMA 0 1\n"),
    ([], ""),
    (["frobnicate"], ""),
])
def test_bad_input_one_line_exit_2(args, stdin):
    r = run(args, stdin)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr
    assert r.stdout == ""
