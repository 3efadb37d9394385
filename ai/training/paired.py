"""Two players' choices on the same held-out decisions, judged deeper where they differ (dev-only).

A net trained on gnubg 2-ply labels imitates the 2-ply judge, so that judge
flatters it (as the 1-ply judge flattered the 1-ply-label net). This judges
only what separates two players: on each decision where their saved choices
(``heldout.py --save``: ``PREFIX_..._choice.npy``) differ, both results are
evaluated with gnubg at ``--plies`` (3-ply: about 0.4 s a position here),
and the mean of (B's equity - A's) over all decisions is printed with its
standard error (decisions where they agree count as 0).

    python -m ai.training.paired --test T1.npz T2.npz --a A_1_5_0.1_choice.npy --b B_1_5_0.1_choice.npy --plies 3
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ai.training.gen import progress, result_equity


def decisions(paths: list[str]) -> list[np.ndarray]:
    """The result boards of each decision with a choice, as ``heldout.py`` lists them."""
    out = []
    for path in paths:
        d = np.load(path)
        res, offs = d["results"], d["offsets"]
        out += [res[offs[k]:offs[k + 1]] for k in range(len(offs) - 1) if offs[k + 1] - offs[k] > 1]
    return out


def judge(paths: list[str], a: np.ndarray, b: np.ndarray, plies: int) -> np.ndarray:
    """Per decision, B's equity minus A's by gnubg at ``plies`` (0 where they agree)."""
    ds = decisions(paths)
    if not len(ds) == len(a) == len(b):
        raise ValueError(f"{len(ds)} decisions but {len(a)} and {len(b)} choices")
    diff = np.zeros(len(ds))
    todo = np.nonzero(a != b)[0]
    t0 = time.time()
    for n, k in enumerate(todo):
        ra, rb = ds[k][a[k]], ds[k][b[k]]
        diff[k] = (result_equity([rb[:25].tolist(), rb[25:].tolist()], plies)
                   - result_equity([ra[:25].tolist(), ra[25:].tolist()], plies))
        progress(n + 1, len(todo), t0, f"{plies}-ply judge of {len(todo)} differing choices")
    return diff


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--test", nargs="+", required=True)
    ap.add_argument("--a", required=True, help="player A's saved choices")
    ap.add_argument("--b", required=True, help="player B's saved choices")
    ap.add_argument("--plies", type=int, default=3)
    ap.add_argument("--save", default=None, help="save the per-decision differences (.npy)")
    args = ap.parse_args(argv)
    a, b = np.load(args.a), np.load(args.b)
    diff = judge(args.test, a, b, args.plies)
    if args.save:
        np.save(args.save, diff)
    n = len(diff)
    se = diff.std(ddof=1) / np.sqrt(n) if n > 1 else 0.0
    print(f"{n} decisions, {int((a != b).sum())} with different choices; "
          f"B - A by gnubg {args.plies}-ply: {diff.mean():+.5f} +- {se:.5f} per decision")


if __name__ == "__main__":
    main()
