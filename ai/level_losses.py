"""How often each level picks the best play, and what its mistakes cost.

``python -m ai.level_losses [--decisions 150] [--seed 5]``

Positions come from a seeded walk from the opening that mixes random plays
(30%) with level 4's; every decision with more than one legal play is kept.
Each level then chooses there (seed = the decision's index), and its loss is
the clean 0-ply equity of the best play minus that of its choice. Prints,
per level, the share of best plays, the share of losses over 0.1 and the
mean loss per decision.
"""

from __future__ import annotations

import argparse
import random
import statistics

from engine import Position

from ai.levels import LEVELS, choose, ranked


def sample(decisions: int, seed: int) -> list[tuple[Position, int, int]]:
    rng = random.Random(seed)
    pos, out = Position.start(), []
    while len(out) < decisions:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        plays = pos.legal_plays(d1, d2)
        if not plays:
            pos = pos.swap()
            continue
        if len(plays) > 1:
            out.append((pos, d1, d2))
        play = rng.choice(plays) if rng.random() < 0.3 else choose(pos, d1, d2, 4, seed=1)
        pos = Position.start() if not any(play.result.mover) else play.next
    return out


def losses(level: int, cases) -> list[float]:
    out = []
    for i, (pos, d1, d2) in enumerate(cases):
        cands = ranked(pos, d1, d2, 4)  # level 4's search: clean 0-ply
        eq = {c.play: c.equity for c in cands}
        out.append(cands[0].equity - eq[choose(pos, d1, d2, level, seed=i)])
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ai.level_losses", description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=150)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    cases = sample(args.decisions, args.seed)
    print(f"{len(cases)} decisions (seed {args.seed}); judge: clean 0-ply")
    print("level  best play  loses > 0.1  mean loss")
    for level in sorted(LEVELS):
        if LEVELS[level].plies:
            continue  # level 5 looks deeper than the judge
        ls = losses(level, cases)
        best = sum(x <= 0 for x in ls) / len(ls)
        big = sum(x > 0.1 for x in ls) / len(ls)
        print(f"{level:5d}  {best:9.0%}  {big:11.0%}  {statistics.mean(ls):9.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
