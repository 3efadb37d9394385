"""What level 5's search would choose with other 2-ply looks, on the held-out decisions (dev-only).

Running level 5 once per setting (``heldout.py``) costs 15-25 minutes of a
core each. This records, once, what every setting needs, then scores any
look offline:

    python -m ai.training.look_study record --test T1.npz T2.npz --part P --parts 2 --out REC_P.json
    python -m ai.training.look_study score --test T1.npz T2.npz --records REC_0.json REC_1.json \\
        --base BASE_choice.npy [--save DIR]

``record`` stores, per decision with a choice (every ``parts``-th from
``part``, so that two processes share the cores): every play's 0-ply
equity; the 1-ply equity of the 0-ply best 8 within 0.16 (a superset of
level 5's filter, 5 within 0.10); and, where one of them has contact, the
2-ply equity of the best three of level 5's filter by 1-ply, each looked at
in full (no budget) with the number of our plays its look valued
(:attr:`ai.search.Evaluator.looked`, the unit of level 5's look budget).

``score`` prints the loss per decision, judged by the test sets' equities,
of oracle bounds (the judge's best play among a set: what a perfect ranking
of that set would lose) and of looks at the best ``n`` within ``margin``
(:func:`choose`), paired with ``--base`` (level 5's saved choices,
``heldout.py --save``), and saves each look's choices for
``paired.py --plies 3``.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from ai.training.gen import progress
from ai.training.paired import decisions

#: level 5's move filter (ai.levels.LEVELS[5]): at most 5 plays within 0.10 of the 0-ply best
FILTER = (5, 0.10)
#: the wider set whose 1-ply equities are recorded (gnubg's own first filter)
WIDE = (8, 0.16)
#: how many of the filter's best by 1-ply get a recorded 2-ply look
LOOKED = 3


def top(eqs: list[float], n: int, within: float) -> list[int]:
    """The 0-ply best ``n`` plays within ``within`` of the best, best first."""
    order = sorted(range(len(eqs)), key=lambda i: -eqs[i])
    return [i for i in order[:n] if eqs[i] >= eqs[order[0]] - within]


def record(results: np.ndarray) -> dict:
    """One decision's record (see the module): ``results`` are its plays'
    result boards (the mover's 25 counts, then the opponent's)."""
    from engine import Position

    from ai import search
    from ai.net import equity

    ev = search.evaluator()
    rs = [Position(tuple(int(v) for v in row[:25]), tuple(int(v) for v in row[25:])) for row in results]
    eqs = [equity(ev.after(r)) for r in rs]
    one, replies = {}, {}
    wide = top(eqs, *WIDE)
    if len(top(eqs, *FILTER)) > 1:
        for i in wide:
            replies[i] = []
            one[i] = equity(ev.ply1(rs[i], replies[i]))
    two = {}
    by1 = sorted(top(eqs, *FILTER), key=lambda i: -one[i])[:LOOKED] if one else []
    contact = contact_plays(results, by1)
    if len(by1) > 1 and contact:
        for i in by1:
            before = ev.looked
            p = ev.look([(rs[i], replies[i])], budget=None)[0]
            two[i] = (equity(p), ev.looked - before)
    return {"eqs": eqs, "one": one, "two": two, "contact": contact}


def contact_plays(results: np.ndarray, plays) -> list[int]:
    """Those of ``plays`` whose results still have contact (the look skips a
    set of plays that are all races: ai.search.refine)."""
    from ai import encoder

    return [i for i in plays
            if encoder.is_contact((tuple(int(v) for v in results[i, 25:]), tuple(int(v) for v in results[i, :25])))]


def _looked(rec: dict, n: int, margin: float, cost: int | None) -> tuple[list[int], list[int]]:
    """(level 5's filter ranked by 1-ply, the plays the look compares at 2-ply:
    empty where it compares none). See :func:`choose`."""
    one, two = rec["one"], rec["two"]
    cands = top(rec["eqs"], *FILTER)
    if len(cands) < 2:
        return cands, []
    by1 = sorted(cands, key=lambda i: -one[i])
    near = [i for i in by1[:n] if one[by1[0]] - one[i] <= margin]
    if not two or len(near) < 2 or not set(near) & set(rec["contact"]):
        return by1, []
    if n > LOOKED:
        raise ValueError(f"the records hold 2-ply values of the best {LOOKED}, not {n}")
    while cost is not None and len(near) > 2 and sum(two[i][1] for i in near) > cost:
        near.pop()
    return by1, near


def choose(rec: dict, n: int, margin: float, cost: int | None = None) -> int:
    """The play a look at the best ``n`` by 1-ply within ``margin`` of the
    best chooses (each looked at in full): level 5's filter, ranked by 1-ply;
    the best ``n`` within ``margin`` compared by 2-ply when one has contact.
    ``cost``: while the looked plays would value more than that many of our
    plays and more than two are looked at, the last is left out (the two best
    are always looked at in full)."""
    by1, near = _looked(rec, n, margin, cost)
    if not near:
        return by1[0]
    return max(near, key=lambda i: rec["two"][i][0])   # the first of equals, as ai.search's stable sort


def looked_plays(rec: dict, n: int, margin: float, cost: int | None = None) -> int:
    """How many of our plays :func:`choose`'s look values (0 when it looks at none)."""
    return sum(rec["two"][i][1] for i in _looked(rec, n, margin, cost)[1])


def oracle(rec: dict, eqs: np.ndarray, which: str) -> int:
    """The judge's best play among a set: ``all`` plays, the ``wide`` set,
    level 5's ``filter``, or its best two or three by 1-ply (``by1-2``, ``by1-3``)."""
    if which == "all":
        cands = list(range(len(eqs)))
    elif which == "wide":
        cands = top(rec["eqs"], *WIDE)
    else:
        cands = top(rec["eqs"], *FILTER)
        if which.startswith("by1-") and len(cands) > 1:
            cands = sorted(cands, key=lambda i: -rec["one"][i])[:int(which[4:])]
    return max(cands, key=lambda i: eqs[i])


def _load(paths: list[str]) -> dict:
    """The records of ``record`` files, by decision."""
    recs = {}
    for path in paths:
        with open(path) as f:
            for k, rec in json.load(f).items():
                rec["one"] = {int(i): v for i, v in rec["one"].items()}
                rec["two"] = {int(i): tuple(v) for i, v in rec["two"].items()}
                recs[int(k)] = rec
    return recs


POLICIES = [("oracle", w) for w in ("all", "wide", "filter", "by1-2", "by1-3")] + [
    ("look", (2, 0.04, None)), ("look", (2, 0.10, None)), ("look", (3, 0.04, None)),
    ("look", (3, 0.10, None)), ("look", (3, 0.10, 12000)), ("look", (3, 0.10, 20000)),
    ("look", (3, 0.10, 30000))]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--test", nargs="+", required=True)
    r.add_argument("--part", type=int, default=0)
    r.add_argument("--parts", type=int, default=1)
    r.add_argument("--out", required=True)
    s = sub.add_parser("score")
    s.add_argument("--test", nargs="+", required=True)
    s.add_argument("--records", nargs="+", required=True)
    s.add_argument("--base", required=True, help="level 5's saved choices (heldout.py --save)")
    s.add_argument("--save", default=None, help="folder for each look's choices (.npy)")
    a = ap.parse_args(argv)
    ds = decisions(a.test)
    if a.cmd == "record":
        todo = range(a.part, len(ds), a.parts)
        out, t0 = {}, time.time()
        for n, k in enumerate(todo):
            out[k] = record(ds[k])
            progress(n + 1, len(todo), t0, f"record part {a.part}/{a.parts}")
        with open(a.out, "w") as f:
            json.dump(out, f)
        return
    recs = _load(a.records)
    if sorted(recs) != list(range(len(ds))):
        raise SystemExit(f"the records cover {len(recs)} of the {len(ds)} decisions")
    judged = []
    for path in a.test:
        d = np.load(path)
        o, e = d["offsets"], d["equities"]
        judged += [e[o[k]:o[k + 1]] for k in range(len(o) - 1) if o[k + 1] - o[k] > 1]
    base = np.load(a.base)
    lost_base = np.array([float(e.max() - e[c]) for e, c in zip(judged, base)])
    print(f"{len(ds)} decisions; level 5 (--base) loses {lost_base.mean():.5f} per decision")
    if a.save:
        os.makedirs(a.save, exist_ok=True)
    for kind, arg in POLICIES:
        if kind == "oracle":
            ch = np.array([oracle(recs[k], judged[k], arg) for k in range(len(ds))])
            name = f"oracle among {arg}"
            extra = ""
        else:
            ch = np.array([choose(recs[k], *arg) for k in range(len(ds))])
            costs = np.array([looked_plays(recs[k], *arg) for k in range(len(ds))])
            name = f"look n={arg[0]} margin={arg[1]} cost={arg[2]}"
            looked = costs[costs > 0]
            extra = (f"; looks {len(looked)}, plays valued: median {np.median(looked):.0f}, max {looked.max()}"
                     if len(looked) else "; no looks")
            if a.save:
                np.save(os.path.join(a.save, f"look_{arg[0]}_{arg[1]}_{arg[2]}.npy"), ch)
        lost = np.array([float(e.max() - e[c]) for e, c in zip(judged, ch)])
        d = lost_base - lost
        print(f"  {name}: {lost.mean():.5f} per decision, gain over --base {d.mean():+.5f} "
              f"+- {d.std(ddof=1) / np.sqrt(len(d)):.5f}, {int((ch != base).sum())} choices differ{extra}",
              flush=True)


if __name__ == "__main__":
    main()
