"""One-sided bear-off database: 15 checkers on 6 points (54,264 positions).

For every way to place up to 15 checkers on the six home points it holds the
distribution of the number of rolls needed to bear them all off (each roll
played to minimise the expected number of rolls), and, for the 15,504
positions with no checker off yet, the distribution of rolls needed to bear
off the first checker (to save the gammon). With both sides' distributions a
no-contact bear-off is evaluated exactly for the one-sided policy.

Built by code here: ``python -m ai.bearoff --build`` writes
``ai/weights/bearoff.bin.gz`` (a few seconds' load, ~2 min to build in CPython).

File format (after gzip): b"BGBO", u16 version=1, u32 record count, then per
position (in :func:`positions` order) u8 first-roll index, u8 length, then
``length`` u16 probabilities (x/65535); first the 54,264 bear-off records,
then the 15,504 gammon records of the positions with 15 checkers.

>>> dist((0, 0, 0, 0, 0, 0))
(1.0,)
>>> round(expected_rolls((1, 0, 0, 0, 0, 0)), 6)
1.0
"""

from __future__ import annotations

import gzip
import os
import struct
from functools import lru_cache
from itertools import combinations

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights", "bearoff.bin.gz")
MAX_CHECKERS = 15
POINTS = 6

# (d1, d2, weight out of 36) for the 21 distinct rolls
ROLLS = tuple((a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7))


def positions() -> list[tuple[int, ...]]:
    """All 54,264 one-sided positions (counts on points 1..6), in file order."""
    out = []
    for bars in combinations(range(MAX_CHECKERS + POINTS), POINTS):
        prev = -1
        counts = []
        for b in bars:
            counts.append(b - prev - 1)
            prev = b
        out.append(tuple(counts))
    return out


@lru_cache(maxsize=1)
def _index() -> dict:
    return {p: i for i, p in enumerate(positions())}


def _steps(pos: tuple, die: int) -> set:
    """Positions reachable by playing one die in a bear-off."""
    out = set()
    if not any(pos):
        out.add(pos)
        return out
    high = max(i for i in range(POINTS) if pos[i])  # 0-based highest occupied
    for i in range(POINTS):
        if not pos[i]:
            continue
        dst = i - die
        if dst < -1 and i != high:
            continue  # bearing off with a larger die only from the highest point
        p = list(pos)
        p[i] -= 1
        if dst >= 0:
            p[dst] += 1
        out.add(tuple(p))
    return out


def successors(pos: tuple, d1: int, d2: int) -> set:
    """All positions after playing the roll (d1, d2) from ``pos``."""
    if d1 == d2:
        cur = {pos}
        for _ in range(4):
            cur = {q for p in cur for q in _steps(p, d1)}
        return cur
    out = set()
    for a, b in ((d1, d2), (d2, d1)):
        for p in _steps(pos, a):
            out |= _steps(p, b)
    return out


def _mix(dists: list, weights: list) -> list:
    n = max(len(d) for d in dists)
    acc = [0.0] * (n + 1)
    for d, w in zip(dists, weights):
        for k, p in enumerate(d):
            acc[k + 1] += w * p
    return acc


def _mean(d: list) -> float:
    return sum(k * p for k, p in enumerate(d))


def generate(progress=None) -> tuple[dict, dict]:
    """Compute both databases: ({pos: dist}, {pos15: gammon dist}) as float lists."""
    allpos = sorted(positions(), key=lambda p: (sum((i + 1) * n for i, n in enumerate(p)), p))
    bear: dict = {}
    mean: dict = {}
    for k, pos in enumerate(allpos):
        if not any(pos):
            bear[pos] = [1.0]
            mean[pos] = 0.0
        else:
            dists, ws = [], []
            for d1, d2, w in ROLLS:
                best = min(successors(pos, d1, d2), key=mean.__getitem__)
                dists.append(bear[best])
                ws.append(w / 36.0)
            bear[pos] = _mix(dists, ws)
            mean[pos] = _mean(bear[pos])
        if progress and k % 2000 == 0:
            progress(k, len(allpos))
    gam: dict = {}
    gmean: dict = {}
    for pos in allpos:
        if sum(pos) != MAX_CHECKERS:
            continue
        dists, ws = [], []
        for d1, d2, w in ROLLS:
            succ = successors(pos, d1, d2)
            if any(sum(q) < MAX_CHECKERS for q in succ):
                dists.append([1.0])
            else:
                best = min(succ, key=gmean.__getitem__)
                dists.append(gam[best])
            ws.append(w / 36.0)
        gam[pos] = _mix(dists, ws)
        gmean[pos] = _mean(gam[pos])
    return bear, gam


def _record(d: list) -> bytes:
    q = [round(p * 65535) for p in d]
    lo = 0
    while lo < len(q) - 1 and q[lo] == 0:
        lo += 1
    hi = len(q)
    while hi > lo + 1 and q[hi - 1] == 0:
        hi -= 1
    return struct.pack(f"<BB{hi - lo}H", lo, hi - lo, *q[lo:hi])


def build(path: str = PATH) -> None:
    """Generate the databases and write the compressed file."""
    import sys

    def progress(k, n):
        sys.stderr.write(f"\rbear-off database {k}/{n}")
        sys.stderr.flush()

    bear, gam = generate(progress)
    sys.stderr.write("\n")
    allpos = positions()
    fifteen = [p for p in allpos if sum(p) == MAX_CHECKERS]
    body = [b"BGBO", struct.pack("<HI", 1, len(allpos) + len(fifteen))]
    body += [_record(bear[p]) for p in allpos]
    body += [_record(gam[p]) for p in fifteen]
    with gzip.GzipFile(path, "wb", compresslevel=9, mtime=0) as f:
        f.write(b"".join(body))


class _DB:
    def __init__(self, path: str = PATH):
        with gzip.open(path, "rb") as f:
            data = f.read()
        if data[:4] != b"BGBO":
            raise ValueError(f"{path}: not a bear-off database")
        version, count = struct.unpack_from("<HI", data, 4)
        offs = []
        k = 10
        for _ in range(count):
            offs.append(k)
            k += 2 + 2 * data[k + 1]
        self.data = data
        self.offs = offs
        self.n_bear = len(_index())
        self.g_index = {p: i for i, p in enumerate(p for p in positions() if sum(p) == MAX_CHECKERS)}
        self.cache: dict = {}

    def record(self, i: int) -> tuple:
        r = self.cache.get(i)
        if r is None:
            k = self.offs[i]
            lo, n = self.data[k], self.data[k + 1]
            vals = struct.unpack_from(f"<{n}H", self.data, k + 2)
            r = (0.0,) * lo + tuple(v / 65535.0 for v in vals)
            self.cache[i] = r
        return r


_db: list = []


def _get() -> _DB:
    if not _db:
        _db.append(_DB())
    return _db[0]


def dist(pos: tuple) -> tuple:
    """Probability of needing exactly n rolls to bear off ``pos`` (index n)."""
    return _get().record(_index()[tuple(pos)])


def gammon_dist(pos: tuple) -> tuple:
    """For 15 checkers: probability that the first checker comes off on roll n."""
    db = _get()
    return db.record(db.n_bear + db.g_index[tuple(pos)])


def expected_rolls(pos: tuple) -> float:
    return sum(k * p for k, p in enumerate(dist(pos)))


def _tail(d: tuple) -> list:
    """t[n] = P(X >= n) for n = 0..len(d)."""
    t = [0.0] * (len(d) + 1)
    s = 0.0
    for n in range(len(d) - 1, -1, -1):
        s += d[n]
        t[n] = s
    return t


def _p_first(mine: tuple, theirs: tuple) -> float:
    """P(I, rolling first, need no more rolls than they do): sum P(m=n) P(t>=n)."""
    t = _tail(theirs)
    last = len(t) - 1
    return sum(p * t[min(n, last)] for n, p in enumerate(mine) if p)


def applies(board) -> bool:
    """Both sides have all their checkers on their own points 1-6 (or off)."""
    opp, me = board
    return not any(me[6:]) and not any(opp[6:])


def probabilities(board) -> tuple:
    """(win, wg, wbg, lg, lbg) for the player on roll of a bear-off ``board``
    = (opponent, mover), every checker on the home points or off."""
    opp, me = board
    mine = tuple(me[:6])
    theirs = tuple(opp[:6])
    if not any(mine):
        return (1.0, 0.0, 0.0, 0.0, 0.0)
    if not any(theirs):
        return (0.0, 0.0, 0.0, 0.0, 0.0)
    dm, do = dist(mine), dist(theirs)
    win = min(1.0, max(0.0, _p_first(dm, do)))
    wg = 0.0
    if sum(theirs) == MAX_CHECKERS:
        # I finish on my roll n before they take a checker off in n-1 rolls.
        wg = _p_first(dm, gammon_dist(theirs))
    lg = 0.0
    if sum(mine) == MAX_CHECKERS:
        # they finish on their roll m; I have had m rolls and saved nothing.
        gm = gammon_dist(mine)
        t = _tail(gm)
        last = len(t) - 1
        lg = sum(p * t[min(m + 1, last)] for m, p in enumerate(do) if p)
    return (win, wg, 0.0, lg, 0.0)


if __name__ == "__main__":
    import sys

    if "--build" in sys.argv:
        build()
        print(f"wrote {PATH} ({os.path.getsize(PATH)} bytes)")
    else:
        print("usage: python -m ai.bearoff --build")
