"""Equity lost per held-out decision by our search settings (dev-only).

``python -m ai.training.heldout [--test FILE ...] [--weights DIR] [--variants "[(0, 0, 0.0), (1, 5, 0.10)]"] [--by-class] [--save PREFIX] [--prune-keep N] [--look-keep N]``
prints, for gnubg's 0-ply choice and for each (plies, max plays, threshold)
or (plies, max plays, threshold, look[, look budget[, look_n]]) setting of
``ai.search``'s filter (``look``: the margin of its 2-ply look at the best
two; the budget: its ``look_budget``, none if left out; ``look_n``: how
many of the best it may compare, two if left out), the mean equity lost per decision judged
by the test set's equities (gnubg 1-ply for ``data/test_0_1000.npz``, or a
set re-judged by ``python -m ai.training.rejudge``). Several test files are
pooled. ``--by-class`` splits every figure by gnubg's position class of the
chosen play's result (:func:`position_class`: contact, crashed, race) and
adds each setting's paired difference from gnubg 0-ply, with standard errors.
"""

from __future__ import annotations

import argparse
import ast
import os
import time

import numpy as np

from engine import Position

HERE = os.path.dirname(os.path.abspath(__file__))
CLASSES = ("contact", "crashed", "race")


def position_class(a, b) -> str:
    """GNU Backgammon's class of a board (``ClassifyPosition``, standard
    variant), bear-off classes counted as race: ``a`` and ``b`` are each
    side's 25 counts from its own side (index 0 its ace point, 24 the bar).
    Contact: the two back checkers have not passed each other; crashed: in
    contact, and one side has at most 6 checkers outside its ace and deuce
    points' stacks (gnubg's rule, N = 6)."""
    a, b = [int(x) for x in a], [int(x) for x in b]
    back_a = max((i for i in range(25) if a[i] > 0), default=-1)
    back_b = max((i for i in range(25) if b[i] > 0), default=-1)
    if back_a + back_b <= 22:
        return "race"
    n = 6
    for s in (a, b):
        tot = sum(s)
        if tot <= n:
            return "crashed"
        if s[0] > 1:
            if tot <= n + s[0] or (s[1] > 1 and 1 + tot - (s[0] + s[1]) <= n):
                return "crashed"
        elif tot <= n + (s[1] - 1):
            return "crashed"
    return "contact"


def _by_class(lost: np.ndarray, base: np.ndarray, masks: dict) -> str:
    """Lines: the mean loss per class (``masks``: class -> decisions) with its
    standard error, and (unless ``lost`` is ``base``) the paired difference
    from ``base``, gnubg 0-ply."""
    parts = []
    for c, m in masks.items():
        n = int(m.sum())
        if not n:
            continue
        se = lost[m].std(ddof=1) / np.sqrt(n) if n > 1 else 0.0
        part = f"{c} ({n}): {lost[m].mean():.5f} +- {se:.5f}"
        if base is not lost:
            d = lost[m] - base[m]
            part += f", vs gnubg 0-ply {d.mean():+.5f} +- {d.std(ddof=1) / np.sqrt(n) if n > 1 else 0.0:.5f}"
        parts.append(part)
    return "".join("\n      " + part for part in parts)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--test", nargs="+", default=[os.path.join(HERE, "data", "test_0_1000.npz")])
    ap.add_argument("--weights", default=None, help="folder with contact.bin and race.bin")
    ap.add_argument("--variants", default="[(0, 0, 0.0), (1, 5, 0.10)]")
    ap.add_argument("--by-class", action="store_true", help="split by position class, with paired differences")
    ap.add_argument("--save", default=None, help="prefix: save each setting's equity lost per decision "
                    "(PREFIX_<plies>_<max plays>_<threshold>.npy) and the play it chose "
                    "(..._choice.npy) for paired comparisons of nets")
    ap.add_argument("--prune-keep", type=int, default=None,
                    help="replies a roll the lookahead's contact net evaluates after the "
                    "pruning net (default: ai.search.PRUNE_KEEP; 0: no pruning, every reply)")
    ap.add_argument("--look-keep", type=int, default=None,
                    help="plays of each of our rolls the contact net evaluates in a 2-ply look "
                    "(default: ai.search.LOOK_KEEP)")
    a = ap.parse_args(argv)
    from ai import net
    if a.weights:
        net.WEIGHTS_DIR = a.weights
    from ai import search
    if a.prune_keep == 0:
        search.evaluator().prune = None
    elif a.prune_keep is not None:
        search.PRUNE_KEEP = a.prune_keep
    if a.look_keep is not None:
        search.LOOK_KEEP = a.look_keep

    decisions = []     # (results, equities) per decision with a choice
    for path in a.test:
        d = np.load(path)
        res, offs, eqs = d["results"], d["offsets"], d["equities"]
        decisions += [(res[offs[k]:offs[k + 1]], eqs[offs[k]:offs[k + 1]])
                      for k in range(len(offs) - 1) if offs[k + 1] - offs[k] > 1]
    classes = np.array([position_class(r[0, :25], r[0, 25:]) for r, _ in decisions])
    masks = {"all": np.ones(len(decisions), bool)} | {c: classes == c for c in CLASSES}
    gnubg0 = np.array([float(e.max() - e[0]) for _, e in decisions])   # candidates come in gnubg 0-ply order
    print(f"{len(decisions)} decisions; gnubg 0-ply loses {gnubg0.mean():.5f} per decision"
          + (_by_class(gnubg0, gnubg0, masks) if a.by_class else ""), flush=True)
    ev = search.evaluator()
    for variant in ast.literal_eval(a.variants):
        plies, max_plays, threshold = variant[:3]
        look = variant[3] if len(variant) > 3 else 0.0
        budget = variant[4] if len(variant) > 4 else None
        look_n = variant[5] if len(variant) > 5 else 2
        t0 = time.time()
        lost, chosen = [], []
        for res, eqs in decisions:
            rs = [Position(tuple(int(v) for v in row[:25]), tuple(int(v) for v in row[25:])) for row in res]
            best = search.refine(range(len(rs)), rs, [ev.after(r) for r in rs], plies,
                                 max_plays, threshold, look, budget, look_n)[0].play
            lost.append(float(eqs.max() - eqs[best]))
            chosen.append(best)
        lost = np.array(lost)
        name = (f"{plies}_{max_plays}_{threshold}" + (f"_{look}" if look else "")
                + (f"_{budget}" if budget is not None else "") + (f"_n{look_n}" if look_n != 2 else ""))
        if a.save:
            np.save(f"{a.save}_{name}.npy", lost)
            np.save(f"{a.save}_{name}_choice.npy", np.array(chosen))
        print(f"  {plies}-ply, up to {max_plays} plays within {threshold}"
              + (f", the best {look_n} at 2-ply within {look}" if look else "")
              + (f" (budget {budget} plays)" if budget is not None else "") + ": "
              f"{lost.mean():.5f} per decision ({time.time() - t0:.0f}s)"
              + (_by_class(lost, gnubg0, masks) if a.by_class else ""), flush=True)


if __name__ == "__main__":
    main()
