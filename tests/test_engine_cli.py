"""`python -m engine` exactly as docs/contracts.md specifies."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import Position

ROOT = Path(__file__).resolve().parents[1]


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "engine", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_moves_single():
    r = run("moves", "4HPwATDgc/ABMA", "3", "1")
    assert r.returncode == 0 and r.stderr == ""
    lines = r.stdout.splitlines()
    assert len(lines) == 16
    pos = Position.start()
    for line in lines:
        notation, rid = line.split("\t")
        assert pos.parse_play(notation, 3, 1).result.id == rid
    assert "8/5 6/5\t" + pos.parse_play("8/5 6/5", 3, 1).result.id in lines


def test_moves_no_legal_play_prints_nothing():
    from engine import build

    blocked = build("w bar:1 13:14; b 19:2 20:2 21:2 22:2 23:2 24:2 12:3")
    r = run("moves", blocked.id, "6", "5")
    assert r.returncode == 0 and r.stdout == ""


def test_moves_batch_mode():
    r = run("moves", stdin="4HPwATDgc/ABMA 3 1\n4HPwATDgc/ABMA 6 6\n")
    assert r.returncode == 0
    blocks = r.stdout.split("\n\n")
    assert len(blocks[0].splitlines()) == 16 and len(blocks[1].splitlines()) == 11


def test_batch_mode_is_flushed_per_request():
    p = subprocess.Popen([sys.executable, "-m", "engine", "moves"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, cwd=ROOT)
    p.stdin.write("4HPwATDgc/ABMA 2 1\n")
    p.stdin.flush()
    got = []
    while True:
        line = p.stdout.readline()
        if line == "\n":
            break
        got.append(line)
    assert len(got) == 15  # answered before stdin closed
    p.stdin.close()
    p.wait(timeout=30)


@pytest.mark.parametrize("args,needle", [
    (("moves", "nonsense", "3", "1"), "Position ID"),
    (("moves", "4HPwATDgc/ABMA", "7", "1"), "die"),
    (("moves", "4HPwATDgc/ABMA", "x", "1"), "die"),
    (("moves", "4HPwATDgc/ABMA", "3"), "usage"),
    (("frobnicate",), "invalid choice"),
])
def test_bad_input_one_line_exit_2(args, needle):
    r = run(*args)
    assert r.returncode == 2
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and needle in r.stderr
    assert "Traceback" not in r.stderr


def test_bench_prints_numbers():
    r = run("bench", "--positions", "30", "--games", "2")
    assert r.returncode == 0
    assert "position-rolls/s" in r.stdout and "games/s" in r.stdout
