"""Would a 2-ply look at level 5's best plays choose better? (dev-only experiment)

``python -m ai.training.two_ply --test T1.npz T2.npz --top 2 --save PREFIX``
plays level 5 on each held-out decision (as ``heldout.py`` does), then
re-ranks its best ``--top`` plays by a 2-ply lookahead with our nets: for
each of the opponent's 21 rolls its best reply (0-ply, pruned as level 5's
lookahead is), then for each of our 21 rolls our best play (0-ply, pruned
alike), valued at 0-ply: gnubg's 2-ply, with the pruning net in place of
gnubg's move filter. It prints the equity lost per decision by the test
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

from ai import encoder, search
from ai.net import equity, invert
from ai.search import ROLLS, _Base, _first, _packed, win_probs
from engine import Position, result_positions


def pick(ev: search.Evaluator, parent: Position, results) -> tuple:
    """(0-ply probabilities for ``parent``'s mover, result) of its best play
    among ``results`` (its plays' results). With more than
    :data:`ai.search.PRUNE_KEEP` results, the contact net evaluates only the
    pruning net's best ``PRUNE_KEEP`` contact ones (races and bear-offs are
    always evaluated), as in level 5's lookahead."""
    base = _Base((parent.mover, parent.opponent))
    keep = search.PRUNE_KEEP
    prune = ev.prune if len(results) > keep else None
    best, best_s, best_eq = None, None, -9.0
    ranked = []
    for s in results:
        if not any(s.mover):
            return win_probs(s.opponent), s  # bearing off the last checker: nothing is better
        board = (s.mover, s.opponent)
        feats = encoder.encode(board)
        if prune is not None and feats[-1][0] == encoder.CONTACT:
            # the pruning net's equity for the side to play next: the lowest is best for the mover
            ranked.append((equity(prune.output(_packed(prune, feats, base))), s, board, feats))
            continue
        p = invert(ev.board(board, base, feats))
        e = equity(p)
        if e > best_eq:
            best, best_s, best_eq = p, s, e
    ranked.sort(key=_first)
    for _, s, board, feats in ranked[:keep]:
        p = invert(ev.board(board, base, feats))
        e = equity(p)
        if e > best_eq:
            best, best_s, best_eq = p, s, e
    return best, best_s


def one_ply_on_roll(ev: search.Evaluator, pos: Position) -> tuple:
    """1-ply probabilities for ``pos``'s mover, on roll: over its 21 rolls, the
    0-ply value of its best play."""
    acc = [0.0] * 5
    for d1, d2, w in ROLLS:
        results = result_positions(pos, d1, d2)
        p = pick(ev, pos, results)[0] if results else ev.after(pos)
        for k in range(5):
            acc[k] += w * p[k]
    return tuple(a / 36.0 for a in acc)


def two_ply(ev: search.Evaluator, r: Position) -> tuple:
    """2-ply probabilities for the side that played into ``r``."""
    if not any(r.mover):
        return win_probs(r.opponent)
    rn = r.swap()
    acc = [0.0] * 5
    for d1, d2, w in ROLLS:
        replies = result_positions(rn, d1, d2)
        if not replies:
            p = one_ply_on_roll(ev, r)  # the opponent cannot move: we are on roll in r
        else:
            q = pick(ev, rn, replies)[1]
            if not any(q.mover):
                p = invert(win_probs(q.opponent))
            else:
                p = one_ply_on_roll(ev, q.swap())
        for k in range(5):
            acc[k] += w * p[k]
    return tuple(a / 36.0 for a in acc)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--test", nargs="+", required=True)
    ap.add_argument("--top", type=int, default=2)
    ap.add_argument("--margin", type=float, default=0.10)
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
            scored = [(equity(two_ply(ev, rs[c.play])), c.play) for c in top]
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
