"""Re-judge a held-out test set with gnubg at another depth (dev-only).

``python -m ai.training.rejudge --plies 2 --out /tmp/test2.npz`` re-evaluates
every play's result of ``data/test_0_1000.npz`` with gnubg-nn at ``--plies``
(2-ply: about 13 minutes on one core) and writes a test set in the same
format, for ``python -m ai.training.heldout``.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from ai.training.gen import progress, result_equity

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--test", default=os.path.join(HERE, "data", "test_0_1000.npz"))
    ap.add_argument("--plies", type=int, default=2)
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    d = np.load(a.test)
    results, offsets = d["results"], d["offsets"]
    eqs = []
    t0 = time.time()
    for i, row in enumerate(results.tolist()):
        eqs.append(result_equity([row[:25], row[25:]], a.plies))
        if i % 200 == 0 or i == len(results) - 1:
            progress(i + 1, len(results), t0, f"{a.plies}-ply judge")
    np.savez_compressed(a.out, results=results, offsets=offsets,
                        equities=np.array(eqs, dtype=np.float32))
    print(f"{len(results)} results judged at {a.plies}-ply in {time.time() - t0:.0f}s -> {a.out}")


if __name__ == "__main__":
    main()
