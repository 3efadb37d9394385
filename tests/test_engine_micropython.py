"""The engine in MicroPython 1.27 (the main thread's interpreter) gives exactly
CPython's answers: the whole GNU Backgammon reference corpus, seeded random
games, dice sequences and step-by-step input.

Each check runs one script, tests/mpy/engine_checks.py, in both runtimes on the
same input and compares everything it prints, line for line.  CPython's
answers are themselves checked against gnubg by tests/test_reference_gnubg.py;
here the play counts and gnubg's notations are also checked directly.
"""
import contextlib
import gzip
import io
import json
from pathlib import Path

import pytest

from micropython import run

HERE = Path(__file__).parent
SCRIPT = (HERE / "mpy" / "engine_checks.py").read_text()
POSITIONS = json.loads(gzip.decompress((HERE / "reference" / "corpus.json.gz").read_bytes()))["positions"]
CHUNKS = 10  # MicroPython takes about 6 minutes for the whole corpus: ten cases of about 40 s


def both(mode: str, lines: list, tmp_path) -> tuple[list, list]:
    """What the script prints for ``lines`` in MicroPython and in CPython."""
    data = tmp_path / "in.txt"
    data.write_text("".join(line + "\n" for line in lines))
    mp = run(f"MODE = {mode!r}\nINPUT = '/data/in.txt'\n" + SCRIPT, files={"/data/in.txt": data})
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(f"MODE = {mode!r}\nINPUT = {str(data)!r}\n" + SCRIPT, "engine_checks.py", "exec"), {"__name__": "__main__"})
    return mp.splitlines(), out.getvalue().splitlines()


def corpus_input(entries: list) -> list:
    lines = []
    for e in entries:
        lines.append(e["id"])
        for roll, item in e["rolls"].items():
            for rid, _mv, txt in item.get("plays", ()):
                lines.append(f"{e['id']} {roll} {rid} {txt}")
    return lines


def test_corpus_chunks_cover_every_position():
    chunks = [POSITIONS[c::CHUNKS] for c in range(CHUNKS)]
    assert sorted(e["id"] for chunk in chunks for e in chunk) == sorted(e["id"] for e in POSITIONS)
    assert len(POSITIONS) >= 2000


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_reference_corpus_in_micropython(chunk, tmp_path):
    entries = POSITIONS[chunk::CHUNKS]
    lines = corpus_input(entries)
    mp, cp = both("corpus", lines, tmp_path)
    assert len(mp) == len(lines)
    for ours, theirs in zip(mp, cp):
        assert ours == theirs
    by_id = {e["id"]: e for e in entries}
    notations = 0
    for line in mp:
        if line.startswith("G "):  # a gnubg notation parsed to gnubg's result
            notations += 1
            assert line.endswith(" True"), line
            continue
        pid, *rolls = line.split()
        assert len(rolls) == 21
        for r in rolls:
            roll, n, _ids, _plays, back = r.split(":")
            assert int(n) == by_id[pid]["rolls"][roll]["n"], f"{pid} {roll}"
            assert back == "1", f"{pid} {roll}: a play's notation does not parse back to it"
    assert notations == len(lines) - len(entries)


def test_seeded_random_games_in_micropython(tmp_path):
    seeds = [str(s) for s in range(50)]
    mp, cp = both("games", seeds, tmp_path)
    assert mp == cp
    games = [line for line in mp if line.startswith("game ")]
    assert len(games) == 50
    assert all(line.endswith(" True") for line in mp if line.startswith("reloaded "))
    assert {line.split()[6] for line in games} >= {"single", "gammon"}  # real endings, varied
    assert sum(int(line.split()[4]) for line in games) > 50 * 40  # about 95 turns a game


def test_dice_sequences_in_micropython(tmp_path):
    seeds = ["0", "1", "7", "42", "20261202", str(2**40 + 3), "-5", str(2**70)]
    mp, cp = both("dice", seeds, tmp_path)
    assert mp == cp and len(mp) == len(seeds)
    rolls = "".join(line.split()[1] for line in mp)
    assert set(rolls) == set("123456")


def test_turn_builder_in_micropython(tmp_path):
    lines = [f"{e['id']} {1 + i % 6} {1 + (i * 5 // 6) % 6}" for i, e in enumerate(POSITIONS[::25])]
    mp, cp = both("turns", lines, tmp_path)
    assert mp == cp and len(mp) == len(lines)
    assert sum(" done " in line for line in mp) == len(lines)
    assert all(" True [" in line for line in mp)  # undo went back to the start


def test_every_engine_module_imports_in_micropython():
    modules = sorted(p.stem for p in (HERE.parent / "engine").glob("*.py") if p.stem not in ("__init__", "__main__"))
    out = run("import sys\n" + "".join(f"import engine.{m}\n" for m in modules) + "print(sys.implementation.name)\n")
    assert out.strip() == "micropython"
    assert "bench" in modules and "dice" in modules and "points" in modules
