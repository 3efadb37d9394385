"""Think times on a fixed set of positions (pure Python: runs in CPython and in
Pyodide, e.g. through ``node ai/tools/pyodide_speed.mjs``).

``python -m ai.speed [--positions 200] [--levels 1,2,3,4,5] [--no-prune] [--no-look] [--no-budget]``
prints, per level, the median, 95th percentile and mean think time in
milliseconds (for comparison: ``--no-prune``, level 5's lookahead evaluates
every reply with the contact net, as before the pruning net; ``--no-look``,
level 5 without its 2-ply look at its best two plays; ``--no-budget``,
the look without its budget).
"""

from __future__ import annotations

import random
import sys
import time

from engine import Position


def random_walk(rng: random.Random, plies: int) -> Position:
    """The position after up to ``plies`` random legal plays from the start
    (stopping before a play that would end the game)."""
    pos = Position.start()
    for _ in range(plies):
        plays = pos.legal_plays(rng.randint(1, 6), rng.randint(1, 6))
        if plays:
            r = rng.choice(plays).result
            if not any(r.mover):
                break
            pos = r.swap()
        else:
            pos = pos.swap()
    return pos


def fixed_positions(n: int = 200, seed: int = 2026) -> list[tuple[Position, int, int]]:
    """``n`` (position, d1, d2) from seeded random play, each with 2+ legal plays."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = random_walk(rng, rng.randint(0, 70))
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if any(pos.mover) and any(pos.opponent) and len(pos.legal_plays(d1, d2)) > 1:
            out.append((pos, d1, d2))
    return out


def stats(times: list[float]) -> tuple[float, float, float]:
    """(median, 95th percentile, mean) of think times in seconds."""
    ts = sorted(times)
    return ts[len(ts) // 2], ts[int(0.95 * len(ts))], sum(ts) / len(ts)


def warm_up(cases: list) -> None:
    """Load the weights and tables (the first call's cost is not think time)."""
    from ai.levels import choose

    pos, d1, d2 = cases[0]
    choose(pos, d1, d2, level=5, seed=0)


def think_times(cases: list, level: int):
    """Yield the level's think time, in seconds, for each (position, d1, d2)."""
    from ai.levels import choose

    for pos, d1, d2 in cases:
        t0 = time.perf_counter()
        choose(pos, d1, d2, level=level, seed=0)
        yield time.perf_counter() - t0


def measure(levels=(1, 2, 3, 4, 5), n: int = 200, out=sys.stdout, prune: bool = True,
            look: bool = True, budget: bool = True) -> dict:
    cases = fixed_positions(n)
    warm_up(cases)
    if not prune:
        from ai.search import evaluator

        evaluator().prune = None
    if not look or not budget:
        from ai.levels import LEVELS

        LEVELS[5] = LEVELS[5]._replace(look=LEVELS[5].look if look else 0.0,
                                       look_budget=LEVELS[5].look_budget if budget else None)
    res = {}
    for level in levels:
        ts = list(think_times(cases, level))
        res[level] = stats(ts)
        print(f"level {level}: median {1000 * res[level][0]:.0f} ms, p95 {1000 * res[level][1]:.0f} ms, "
              f"mean {1000 * res[level][2]:.0f} ms over {len(ts)} positions", file=out, flush=True)
    return res


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(prog="python -m ai.speed")
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--levels", default="1,2,3,4,5")
    ap.add_argument("--no-prune", action="store_true",
                    help="level 5's lookahead without the pruning net (every reply evaluated)")
    ap.add_argument("--no-look", action="store_true",
                    help="level 5 without its 2-ply look at the best two plays")
    ap.add_argument("--no-budget", action="store_true",
                    help="level 5's 2-ply look without its budget (every roll two plies deep)")
    a = ap.parse_args()
    measure(tuple(int(x) for x in a.levels.split(",")), a.positions, prune=not a.no_prune,
            look=not a.no_look, budget=not a.no_budget)
