"""Record GNU Backgammon's own noisy 0-ply evaluations, to check ``ai.gnubg_noise``.

Dev-only (GNU Backgammon is GPL and never ships in the site). Debian's
``gnubg`` (``gnubg -t -q -p``) evaluates every position of the engine's
reference corpus (``corpus.json.gz``: game positions, closed boards, races,
bear-offs with and without contact), and each with the sides swapped,
cubeless at 0-ply: once without noise and once with deterministic noise at
each of its predefined players' settings (Beginner 0.06, Casual 0.05,
Intermediate 0.04, Advanced 0.015). Run from the repository root::

    python tests/reference/make_gnubg_noise.py

The result is ``tests/reference/gnubg_noise.json.gz``.
"""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus.json.gz"
OUT = HERE / "gnubg_noise.json.gz"
NOISES = (0.06, 0.05, 0.04, 0.015)

GNUBG_SCRIPT = r'''
import json
src, dst, noises = SRC, DST, NOISES
gnubg.command("new game")
ci = gnubg.cubeinfo()
out = []
for pid in json.load(open(src)):
    b = gnubg.positionfromid(pid)
    for board in (b, (b[1], b[0])):
        row = {"board": [list(board[0]), list(board[1])]}
        ec = dict(cubeful=0, plies=0, deterministic=1, prune=0, noise=0.0)
        row["clean"] = list(gnubg.evaluate(board, ci, ec))[:5]
        for n in noises:
            ec["noise"] = n
            row[str(n)] = list(gnubg.evaluate(board, ci, ec))[:5]
        out.append(row)
json.dump(out, open(dst, "w"))
'''


def main() -> int:
    ids = [e["id"] for e in json.loads(gzip.decompress(CORPUS.read_bytes()))["positions"]]
    with tempfile.TemporaryDirectory() as tmp:
        src, dst, script = (os.path.join(tmp, n) for n in ("in.json", "out.json", "s.py"))
        json.dump(ids, open(src, "w"))
        Path(script).write_text(GNUBG_SCRIPT.replace("SRC, DST, NOISES", f"{src!r}, {dst!r}, {NOISES!r}"))
        subprocess.run(["gnubg", "-t", "-q", "-p", script], check=True, stdout=subprocess.DEVNULL,
                       env={**os.environ, "PATH": os.environ.get("PATH", "") + ":/usr/games"})
        rows = json.load(open(dst))
    for row in rows:
        for k, v in row.items():
            if k != "board":
                row[k] = [round(x, 7) for x in v]
    blob = {"generator": "Debian gnubg 1.07 gnubg.evaluate, cubeless 0-ply, deterministic noise",
            "noises": list(NOISES), "rows": rows}
    OUT.write_bytes(gzip.compress(json.dumps(blob, separators=(",", ":")).encode(), 9, mtime=0))
    print(f"{len(rows)} boards -> {OUT} ({OUT.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
