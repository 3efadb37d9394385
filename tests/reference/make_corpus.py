"""Build the GNU Backgammon reference corpus for the engine tests.

Dev-only (GNU Backgammon is GPL and never ships in the site).  Two stages:

1. With ``gnubg_nn`` (PyPI ``gnubg-nn``: gnubg's own move generator):
   draw positions from self-play games and from deliberately hard cases,
   and record for each position gnubg's Position ID and, for all 21 rolls,
   the set of resulting positions (count + digest; full sets for a subset).
2. With Debian's ``gnubg`` (``gnubg -t -q -p``): gnubg's own notation for
   every play of the subset, to test formatting and parsing.

Run from the repository root::

    python tests/reference/make_corpus.py            # both stages
    python tests/reference/make_corpus.py --check    # rebuild in memory, compare digests

The result is ``tests/reference/corpus.json.gz``.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "corpus.json.gz"
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
SEED = 20261129
N_GAME_POSITIONS = 1300
N_HARD_PER_KIND = 120
N_FULL = 400  # positions whose full result sets and notations are stored


def digest(ids: list[str]) -> str:
    return hashlib.sha1(",".join(sorted(ids)).encode()).hexdigest()[:16]


# --- stage 1: positions and result sets from gnubg_nn ------------------------

def _g():
    import gnubg_nn

    return gnubg_nn


def results(board, d1, d2):
    """gnubg's legal plays as (result ID unswapped, move tuple)."""
    g = _g()
    out = []
    for key, mv in g.moves(board, d1, d2, 1):
        b = g.board_from_position_key(key)
        out.append((g.position_id([list(b[0]), list(b[1])]), [x for pair in mv for x in pair]))
    return out


def swap(board):
    return [list(board[1]), list(board[0])]


def game_positions(rng: random.Random, want: int):
    """Positions before each play of gnubg self-play games with random deviations."""
    g = _g()
    g.set.seed(rng.randrange(1 << 30))
    out = []
    while len(out) < want:
        board = [[0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0] for _ in range(2)]
        wild = rng.random() * 0.5  # how often this game plays a random legal move
        for _ply in range(400):
            if sum(board[0]) == 0 or sum(board[1]) == 0:
                break
            out.append([list(board[0]), list(board[1])])
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            plays = g.moves(board, d1, d2)
            if plays:
                if rng.random() < wild:
                    key = rng.choice(plays)
                    b = g.board_from_position_key(key)
                    board = [list(b[0]), list(b[1])]
                else:
                    mv = g.best_move(board, d1, d2)
                    board = apply_moves(board, [x for pair in mv for x in pair])
            board = swap(board)
    return out


def apply_moves(board, flat):
    opp, me = [list(board[0]), list(board[1])]
    for i in range(0, len(flat), 2):
        s, d = flat[i], flat[i + 1]
        me[24 if s == 25 else s - 1] -= 1
        if d > 0:
            me[d - 1] += 1
            j = 24 - d
            if opp[j]:
                opp[24] += opp[j]
                opp[j] = 0
    return [opp, me]


def random_side(rng, weights, n=15):
    side = [0] * 25
    for _ in range(n):
        side[rng.choices(range(25), weights=weights)[0]] += 1
    return side


def fits(a, b):
    return all(not (a[i] and b[23 - i]) for i in range(24))


def hard_positions(rng: random.Random, per_kind: int):
    """Deliberately hard positions, by kind."""
    out = {}

    def gen(kind, make):
        got = []
        tries = 0
        while len(got) < per_kind and tries < per_kind * 200:
            tries += 1
            pos = make()
            if pos and sum(pos[0]) <= 15 and sum(pos[1]) <= 15 and fits(pos[1], pos[0]):
                got.append(pos)
        out[kind] = got

    def opp_home_block(points_closed):
        # opponent (not on roll) holds `points_closed` of its home points with 2+ checkers
        opp = [0] * 25
        pts = rng.sample(range(6), points_closed)
        left = 15
        for p in pts:
            opp[p] = 2
            left -= 2
        for _ in range(left):
            opp[rng.choice(pts + [rng.randrange(6, 24)])] += 1
        return opp

    def mover_elsewhere(opp, n, bar, region=range(24)):
        me = [0] * 25
        me[24] = bar
        free = [i for i in region if opp[23 - i] == 0]
        for _ in range(n - bar):
            me[rng.choice(free)] += 1
        return me

    def bar_one():
        opp = opp_home_block(rng.randint(2, 5))
        return [opp, mover_elsewhere(opp, 15, 1)]

    def bar_many():
        opp = opp_home_block(rng.randint(1, 5))
        return [opp, mover_elsewhere(opp, 15, rng.randint(2, 4))]

    def closed_board():
        opp = opp_home_block(rng.choice([5, 6, 6]))
        return [opp, mover_elsewhere(opp, rng.randint(10, 15), rng.randint(0, 3))]

    def entry_blots():
        # opponent home board with blots and points: entering may hit
        opp = [0] * 25
        for p in range(6):
            opp[p] = rng.choice([0, 1, 1, 2, 3])
        while sum(opp) < 15:
            opp[rng.randrange(6, 24)] += 1
        if sum(opp) > 15:
            return None
        return [opp, mover_elsewhere(opp, 15, rng.randint(1, 3))]

    def primed():
        # mover's back checkers behind a prime: one-die-only and higher-die cases
        opp = [0] * 25
        start = rng.randrange(0, 14)
        length = rng.randint(4, 6)
        for p in range(start, min(start + length, 24)):
            opp[p] = 2
        while sum(opp) < 15:
            opp[rng.randrange(0, 24)] += 1
        if sum(opp) > 15:
            return None
        me = [0] * 25
        # mover's checkers just behind the prime (in mover numbering: 23 - p)
        behind = [23 - p for p in range(start + length, min(start + length + 4, 24))]
        behind = [i for i in behind if 0 <= i < 24 and opp[23 - i] == 0]
        if not behind:
            return None
        for _ in range(rng.randint(1, 4)):
            me[rng.choice(behind)] += 1
        free = [i for i in range(24) if opp[23 - i] == 0]
        for _ in range(15 - sum(me) - rng.randint(0, 6)):
            me[rng.choice(free[: max(1, len(free) // 2)])] += 1
        return [opp, me]

    def bearoff_gaps():
        me = [0] * 25
        n = rng.randint(1, 15)
        pts = rng.sample(range(6), rng.randint(1, 4))
        for _ in range(n):
            me[rng.choice(pts)] += 1
        opp = [0] * 25
        free = [i for i in range(24) if me[23 - i] == 0]
        for _ in range(rng.randint(1, 15)):
            opp[rng.choice(free[-12:])] += 1
        return [opp, me]

    def bearoff_contact():
        # bear-off against an anchor / blots in mover's home, or with mover on the bar
        me = [0] * 25
        for _ in range(rng.randint(3, 15)):
            me[rng.randrange(6)] += 1
        if rng.random() < 0.5:
            me[24] = 1
            me[rng.choice([i for i in range(6) if me[i]] or [0])] -= 1 if sum(me[:6]) > 1 else 0
        opp = [0] * 25
        free = [i for i in range(24) if me[23 - i] == 0]
        for _ in range(rng.randint(2, 15)):
            opp[rng.choice(free)] += 1
        if rng.random() < 0.3:
            opp[24] += 1
        return [opp, me]

    def straggler():
        # all but one or two checkers home: bearing off depends on bringing them in
        me = [0] * 25
        for _ in range(rng.randint(8, 13)):
            me[rng.randrange(6)] += 1
        for _ in range(rng.randint(1, 2)):
            me[rng.randrange(6, 12)] += 1
        opp = [0] * 25
        free = [i for i in range(24) if me[23 - i] == 0]
        for _ in range(rng.randint(5, 15)):
            opp[rng.choice(free)] += 1
        return [opp, me]

    def partial_doubles():
        # few mobile checkers among many blocks: doubles only partly playable
        opp = [0] * 25
        for p in rng.sample(range(24), 7):
            opp[p] = 2
        opp[rng.randrange(24)] += 1
        me = [0] * 25
        free = [i for i in range(24) if opp[23 - i] == 0]
        for _ in range(15):
            me[rng.choice(free)] += 1
        return [opp, me]

    def random_any():
        me = random_side(rng, [1] * 24 + [0.3])
        opp = [0] * 25
        free = [i for i in range(24) if me[23 - i] == 0]
        for _ in range(15):
            opp[rng.choice(free + [24])] += 1
        return [opp, me]

    for kind, make in [
        ("bar_one", bar_one), ("bar_many", bar_many), ("closed_board", closed_board),
        ("entry_blots", entry_blots), ("primed", primed), ("bearoff_gaps", bearoff_gaps),
        ("bearoff_contact", bearoff_contact), ("straggler", straggler),
        ("partial_doubles", partial_doubles), ("random", random_any),
    ]:
        gen(kind, make)
    return out


def stage1(seed: int):
    g = _g()
    rng = random.Random(seed)
    entries = []
    seen = set()

    def add(board, kind):
        pid = g.position_id(board)
        if pid in seen:
            return
        seen.add(pid)
        entries.append({"kind": kind, "id": pid,
                        "board": "".join(chr(48 + n) for n in board[0] + board[1])})

    games = game_positions(rng, N_GAME_POSITIONS * 3)
    rng.shuffle(games)
    for b in games[: N_GAME_POSITIONS * 2]:
        if sum(1 for e in entries if e["kind"] == "game") >= N_GAME_POSITIONS:
            break
        add(b, "game")
    for kind, boards in hard_positions(rng, N_HARD_PER_KIND).items():
        for b in boards:
            add(b, kind)
    full_idx = set(rng.sample(range(len(entries)), N_FULL))
    for i, e in enumerate(entries):
        board = [[ord(c) - 48 for c in e["board"][:25]], [ord(c) - 48 for c in e["board"][25:]]]
        rolls = {}
        for d1, d2 in ROLLS:
            res = results(board, d1, d2)
            ids = [r[0] for r in res]
            item = {"n": len(ids), "digest": digest(ids)}
            if i in full_idx:
                item["plays"] = [[rid, mv] for rid, mv in res]
            rolls[f"{d1}{d2}"] = item
        e["rolls"] = rolls
    return entries


# --- stage 2: gnubg's notation strings ---------------------------------------

GNUBG_SCRIPT = r'''
import json, sys
src, dst = sys.argv[-2], sys.argv[-1]
data = json.load(open(src))
out = []
for pid, plays in data:
    b = gnubg.positionfromid(pid)
    out.append([gnubg.movetupletostring(tuple(mv), b) for mv in plays])
json.dump(out, open(dst, "w"))
'''


def stage2(entries):
    todo = []
    refs = []
    for e in entries:
        for roll, item in e["rolls"].items():
            if "plays" in item:
                todo.append([e["id"], [mv for _rid, mv in item["plays"]]])
                refs.append(item)
    with tempfile.TemporaryDirectory() as tmp:
        src, dst, script = (os.path.join(tmp, n) for n in ("in.json", "out.json", "s.py"))
        json.dump(todo, open(src, "w"))
        # gnubg -p takes no script arguments: pass paths by environment-free rewrite
        Path(script).write_text(GNUBG_SCRIPT.replace("sys.argv[-2], sys.argv[-1]", f"{src!r}, {dst!r}"))
        subprocess.run(["gnubg", "-t", "-q", "-p", script], check=True,
                       stdout=subprocess.DEVNULL, env={**os.environ, "PATH": os.environ.get("PATH", "") + ":/usr/games"})
        notations = json.load(open(dst))
    for item, nots in zip(refs, notations):
        item["plays"] = [[rid, mv, txt] for (rid, mv), txt in zip(item["plays"], nots)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--check", action="store_true", help="rebuild and compare with the committed corpus")
    args = ap.parse_args(argv)
    entries = stage1(args.seed)
    stage2(entries)
    blob = {"seed": args.seed, "generator": "gnubg_nn.moves + gnubg movetupletostring", "positions": entries}
    if args.check:
        old = json.loads(gzip.decompress(OUT.read_bytes()))
        same = old["positions"] == entries
        print("identical" if same else "DIFFERENT")
        return 0 if same else 1
    data = json.dumps(blob, separators=(",", ":")).encode()
    OUT.write_bytes(gzip.compress(data, 9, mtime=0))
    kinds = {}
    for e in entries:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print(f"{len(entries)} positions x {len(ROLLS)} rolls -> {OUT} ({OUT.stat().st_size} bytes)")
    print(kinds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
