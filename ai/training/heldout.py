"""Equity lost per held-out decision by our search settings (dev-only).

``python -m ai.training.heldout [--test FILE] [--weights DIR] [--variants "[(0, 0, 0.0), (1, 5, 0.10)]"]``
prints, for gnubg's 0-ply choice and for each (plies, max plays, threshold)
setting of ``ai.search``'s filter, the mean equity lost per decision judged
by the test set's equities (gnubg 1-ply for ``data/test_0_1000.npz``, or a
set re-judged by ``python -m ai.training.rejudge``).
"""

from __future__ import annotations

import argparse
import ast
import os
import time

import numpy as np

from engine import Position

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--test", default=os.path.join(HERE, "data", "test_0_1000.npz"))
    ap.add_argument("--weights", default=None, help="folder with contact.bin and race.bin")
    ap.add_argument("--variants", default="[(0, 0, 0.0), (1, 5, 0.10)]")
    a = ap.parse_args(argv)
    from ai import net
    if a.weights:
        net.WEIGHTS_DIR = a.weights
    from ai import search

    d = np.load(a.test)
    res, offs, eqs = d["results"], d["offsets"], d["equities"]
    decisions = [(offs[k], offs[k + 1]) for k in range(len(offs) - 1) if offs[k + 1] - offs[k] > 1]
    gnubg0 = sum(float(eqs[i:j].max() - eqs[i]) for i, j in decisions) / len(decisions)
    print(f"{len(decisions)} decisions; gnubg 0-ply loses {gnubg0:.5f} per decision", flush=True)
    ev = search.evaluator()
    for plies, max_plays, threshold in ast.literal_eval(a.variants):
        t0 = time.time()
        lost = 0.0
        for i, j in decisions:
            rs = [Position(tuple(int(v) for v in res[k, :25]), tuple(int(v) for v in res[k, 25:]))
                  for k in range(i, j)]
            best = search.refine(range(len(rs)), rs, [ev.after(r) for r in rs], plies,
                                 max_plays, threshold)[0].play
            lost += float(eqs[i:j].max() - eqs[i + best])
        print(f"  {plies}-ply, up to {max_plays} plays within {threshold}: "
              f"{lost / len(decisions):.5f} per decision ({time.time() - t0:.0f}s)", flush=True)


if __name__ == "__main__":
    main()
