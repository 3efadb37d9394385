"""Would a 2-ply look at level 5's best plays choose better? (dev-only experiment)

``python -m ai.training.two_ply --test T1.npz T2.npz --top 2 --save PREFIX``
plays level 5 on each held-out decision (as ``heldout.py`` does), then
re-ranks its best ``--top`` plays by a 2-ply lookahead with our nets
(:meth:`ai.search.Evaluator.ply2`): for each of the opponent's 21 rolls its
best reply (0-ply, pruned as level 5's lookahead is), then for each of our
21 rolls our best play (0-ply, the contact net on the pruning net's best
``--keep``), valued at 0-ply: gnubg's 2-ply, with the pruning net in place
of gnubg's move filter. (Level 5 itself now looks at its best two within
0.04, not in races: ``heldout.py``'s variant ``(1, 5, 0.10, 0.04)``
measures exactly that.) It prints the equity lost per decision by the test
set's judge for both choices and saves the choices
(``PREFIX_choice.npy``, and level 5's as ``PREFIX_level5_choice.npy``) for
``paired.py``'s deeper judge, with the time a 2-ply look took.

Only decisions whose best 1-ply plays are within ``--margin`` get the
2-ply look (the others keep level 5's choice).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ai import search
from ai.net import equity
from engine import Position


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--test", nargs="+", required=True)
    ap.add_argument("--top", type=int, default=2)
    ap.add_argument("--margin", type=float, default=0.10)
    ap.add_argument("--keep", type=int, default=search.PRUNE_KEEP,
                    help="at our own rolls (2nd ply), how many plays of a roll the contact net evaluates")
    ap.add_argument("--part", default="0/1", help="K/N: only every N-th decision from the K-th")
    ap.add_argument("--save", default=None)
    a = ap.parse_args(argv)
    k_part, n_part = (int(x) for x in a.part.split("/"))
    from ai.training.paired import decisions as result_sets

    ds = result_sets(a.test)
    eqs = []
    for path in a.test:
        d = np.load(path)
        offs, e = d["offsets"], d["equities"]
        eqs += [e[offs[k]:offs[k + 1]] for k in range(len(offs) - 1) if offs[k + 1] - offs[k] > 1]
    ev = search.evaluator()
    idx = list(range(k_part, len(ds), n_part))
    lvl5, deep = np.zeros(len(ds), dtype=np.int64) - 1, np.zeros(len(ds), dtype=np.int64) - 1
    looks, look_time = 0, 0.0
    t0 = time.time()
    for n, k in enumerate(idx):
        rs = [Position(tuple(int(v) for v in row[:25]), tuple(int(v) for v in row[25:])) for row in ds[k]]
        cands = search.refine(range(len(rs)), rs, [ev.after(r) for r in rs], 1, 5, 0.10)
        lvl5[k] = deep[k] = cands[0].play
        top = [c for c in cands[:a.top] if c.ply == 1 and c.equity >= cands[0].equity - a.margin]
        if len(top) > 1:
            t1 = time.perf_counter()
            scored = [(equity(ev.ply2(rs[c.play], a.keep)), c.play) for c in top]
            look_time += time.perf_counter() - t1
            looks += len(top)
            deep[k] = max(scored)[1]
        if n % 20 == 0:
            print(f"{n + 1}/{len(idx)} decisions, {looks} 2-ply looks, {time.time() - t0:.0f}s", flush=True)
    sel = np.array(idx)
    lost5 = np.array([float(eqs[k].max() - eqs[k][lvl5[k]]) for k in sel])
    lostd = np.array([float(eqs[k].max() - eqs[k][deep[k]]) for k in sel])
    d = lostd - lost5
    print(f"{len(sel)} decisions: level 5 loses {lost5.mean():.5f}, with the 2-ply look {lostd.mean():.5f} "
          f"(paired {d.mean():+.5f} +- {d.std(ddof=1) / np.sqrt(len(d)):.5f}; {int((lvl5 != deep).sum())} "
          f"choices changed); {looks} 2-ply looks, {look_time / max(looks, 1):.2f} s each", flush=True)
    if a.save:
        np.save(f"{a.save}_choice.npy", deep)
        np.save(f"{a.save}_level5_choice.npy", lvl5)


if __name__ == "__main__":
    main()
