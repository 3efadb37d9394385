"""Benchmark the AI against GNU Backgammon (gnubg-nn, dev/test only).

``python -m ai.bench --games N --level L --opponent expert``
    cubeless single games (gammon 2, backgammon 3) with mirrored dice: every
    dice sequence is played twice with the sides swapped. Prints points per
    game with its standard error (over mirrored pairs), win / gammon /
    backgammon rates, think times, and an error rate: the mean equity lost
    per non-forced decision, judged by gnubg at ``--judge-plies`` (default 1;
    2 is ~10x slower), with the opponent judged the same way in the same run.
``python -m ai.bench --ladder --games N``
    level k against level k-1 for k = 2..5, same report.

Opponents: gnubg ``expert`` (0-ply, no noise), ``advanced`` (noise 0.015),
``intermediate`` (0.04), ``casual`` (0.05), ``beginner`` (0.06), or ``levelK``
(our own level K). gnubg-nn has no noise setting, so the noisy players add
gnubg's own deterministic noise to the 0-ply evaluation of each play and take
the best, as gnubg 1.07's predefined players do (``ai.gnubg_noise``: noise on
each of the five outputs, not on the equity, checked against Debian gnubg). ``expert1ply`` is gnubg-nn's 1-ply player (no
noise), a reference for what a one-roll lookahead is worth; ``expert2ply``
is its 2-ply player on the best 8 plays within 0.16 at 0-ply (the first
stage of gnubg's move filter), a reference for what a two-roll lookahead is worth.
``--player SPEC`` replaces our level as the first player by any of these, e.g.
``--player expert1ply --opponent advanced``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time

from engine import Position

from ai import gnubg_noise

GNUBG_NOISE = {"expert": 0.0, "advanced": 0.015, "intermediate": 0.04, "casual": 0.05,
               "beginner": 0.06, "expert1ply": 0.0, "expert2ply": 0.0}
GNUBG_PLIES = {"expert1ply": 1, "expert2ply": 2}  # the others are 0-ply
# the first stage of gnubg's default move filter: the best 8 plays at
# 0-ply within 0.16 of the best (2-ply costs ~17 ms a position in gnubg-nn)
DEEP_FILTER = (8, 0.16)


def _eq_of(p) -> float:
    return 2.0 * p[0] - 1.0 + p[1] + p[2] - p[3] - p[4]


def _board(pos: Position):
    return [list(pos.opponent), list(pos.mover)]


def _result_value(g, result: Position, plies: int) -> float:
    """gnubg's equity at ``plies`` of a play's ``result`` for the side that
    played (exact when that play bore off the last checker)."""
    if not any(result.mover):
        loser = result.opponent
        if sum(loser) < 15:
            return 1.0
        return 3.0 if any(loser[18:25]) else 2.0
    return -_eq_of(g.probabilities([list(result.mover), list(result.opponent)], plies))


class GnubgPlayer:
    def __init__(self, name: str, seed: int):
        """``seed`` is unused: gnubg's noise is deterministic (ai.gnubg_noise);
        the parameter keeps every player's constructor alike."""
        import gnubg_nn

        self.g = gnubg_nn
        self.plies = GNUBG_PLIES.get(name, 0)
        self.name = f"gnubg {name} ({self.plies}-ply, noise {GNUBG_NOISE[name]})"
        self.noise = GNUBG_NOISE[name]

    def choose(self, pos: Position, d1: int, d2: int, plays):
        if self.plies:
            return self._deep(plays)
        board = _board(pos)
        cands = self.g.best_move(board, d1, d2, n=0, list=1)[1]
        if self.noise:
            mover, opp = self._noisy_best(board, d1, d2, cands)
        else:
            b = self.g.board_from_position_key(cands[0][0])  # (mover after play, opponent)
            mover, opp = tuple(b[0]), tuple(b[1])
        for p in plays:
            if p.result.mover == mover and p.result.opponent == opp:
                return p
        raise RuntimeError(f"gnubg's play not found among the engine's: {pos.id} {d1}{d2}")

    def _noisy_best(self, board, d1, d2, cands):
        """gnubg's noisy 0-ply choice (see ai.gnubg_noise): the best play by
        noisy equity; ties (clamped outputs make exact ties common) go to
        the play gnubg generated first, as gnubg's ScoreMoves does."""
        order = {}
        for i, key in enumerate(self.g.moves(board, d1, d2)):
            opp, mover = self.g.board_from_position_key(key)
            order.setdefault((tuple(mover), tuple(opp)), i)
        best = None
        for key, _move, probs, _equity in cands:
            b = self.g.board_from_position_key(key)  # (mover after play, opponent on roll)
            result = (tuple(b[0]), tuple(b[1]))
            value = 9.0 if not any(result[0]) else -_eq_of(gnubg_noise.noisy(result, probs, self.noise))
            score = (value, -order[result])
            if best is None or score > best[0]:
                best = (score, result)
        return best[1]

    def _deep(self, plays):
        """gnubg-nn's best_move at 1-ply and more crashes (and at 0-ply returns
        garbage) in some late bear-offs, so a deeper gnubg player evaluates
        every play's result itself; a play that bears off the last checker wins."""
        for p in plays:
            if not any(p.result.mover):
                return p
        if self.plies >= 2:
            keep, within = DEEP_FILTER
            v0 = sorted(((_result_value(self.g, p.result, 0), i) for i, p in enumerate(plays)),
                        reverse=True)
            plays = [plays[i] for v, i in v0[:keep] if v >= v0[0][0] - within]
        return max(plays, key=lambda p: _result_value(self.g, p.result, self.plies))


class OurPlayer:
    def __init__(self, level: int, seed: int):
        from ai.levels import choose

        self.choose_fn = choose
        self.level = level
        self.seed = seed
        self.name = f"ai level {level}"

    def choose(self, pos: Position, d1: int, d2: int, plays):
        return self.choose_fn(pos, d1, d2, level=self.level, seed=self.seed)


def make_player(spec: str, seed: int):
    if spec in GNUBG_NOISE:
        return GnubgPlayer(spec, seed)
    if spec.startswith("level") and spec[5:].isdigit():
        return OurPlayer(int(spec[5:]), seed)
    raise SystemExit(f"error: unknown player {spec!r}")


class Judge:
    """Equity lost per decision, by gnubg at ``plies``."""

    def __init__(self, plies: int):
        import gnubg_nn

        self.g = gnubg_nn
        self.plies = plies
        self.cache: dict = {}

    def _value(self, result: Position) -> float:
        """gnubg's equity of a play's result for the side that played (cached)."""
        key = (result.mover, result.opponent)
        v = self.cache.get(key)
        if v is None:
            v = self.cache[key] = _result_value(self.g, result, self.plies)
        return v

    def loss(self, pos: Position, d1: int, d2: int, chosen) -> float:
        res = self.g.best_move(_board(pos), d1, d2, n=self.plies, list=1)
        best = max(c[3] for c in res[1])
        mine = self._value(chosen.result)
        # gnubg's filter may miss a play better than its list: count it as 0 loss.
        return max(0.0, max(best, mine) - mine)


def play_game(players, dice: random.Random, judge, stats) -> int:
    """Play one game, players[0] moving first (as white). Returns points for
    players[0] (+) or players[1] (-)."""
    pos = Position.start()
    first = True
    for _ in range(10_000):  # weak noisy players can take over 1,000 plies (one took 1,285)
        if first:
            d1, d2 = dice.randint(1, 6), dice.randint(1, 6)
            while d1 == d2:
                d1, d2 = dice.randint(1, 6), dice.randint(1, 6)
            first = False
        else:
            d1, d2 = dice.randint(1, 6), dice.randint(1, 6)
        side = 0 if pos.turn == "white" else 1
        plays = pos.legal_plays(d1, d2)
        if plays:
            pl = players[side]
            t0 = time.perf_counter()
            play = pl.choose(pos, d1, d2, plays)
            dt = time.perf_counter() - t0
            st = stats[id(pl)]
            st["times"].append(dt)
            if len(plays) > 1 and judge is not None:
                st["losses"].append(judge.loss(pos, d1, d2, play))
            r = play.result
            if not any(r.mover):
                loser = r.opponent
                pts = 1 if sum(loser) < 15 else (3 if any(loser[18:25]) else 2)
                return pts if side == 0 else -pts
            pos = play.next
        else:
            pos = pos.swap()
    raise RuntimeError("game did not end")


def run_match(a, b, pairs: int, seed: int, judge, out=sys.stdout, progress=True) -> dict:
    """``pairs`` mirrored pairs of games between players a and b."""
    stats = {id(a): {"times": [], "losses": []}, id(b): {"times": [], "losses": []}}
    pts = []  # from a's side, per game
    pair_means = []
    t_start = time.time()
    for k in range(pairs):
        s = seed * 1_000_003 + k
        g1 = play_game((a, b), random.Random(s), judge, stats)
        g2 = -play_game((b, a), random.Random(s), judge, stats)
        pts += [g1, g2]
        pair_means.append((g1 + g2) / 2)
        if progress:
            el = time.time() - t_start
            m = sum(pts) / len(pts)
            sys.stderr.write(f"\r{a.name} vs {b.name}: {2 * (k + 1)}/{2 * pairs} games, "
                             f"{m:+.3f} ppg, {el:.0f}s")
            sys.stderr.flush()
    if progress:
        sys.stderr.write("\n")
    n = len(pts)
    mean = sum(pts) / n
    se = statistics.stdev(pair_means) / math.sqrt(len(pair_means)) if len(pair_means) > 1 else float("nan")

    def rate(pred):
        return sum(1 for p in pts if pred(p)) / n

    report = {
        "a": a.name, "b": b.name, "games": n, "ppg": mean, "se": se,
        "win": rate(lambda p: p > 0), "gammon": rate(lambda p: p >= 2),
        "backgammon": rate(lambda p: p >= 3), "lose_gammon": rate(lambda p: p <= -2),
        "lose_backgammon": rate(lambda p: p <= -3),
    }
    for who, pl in (("a", a), ("b", b)):
        st = stats[id(pl)]
        ts = sorted(st["times"])
        report[f"{who}_think_median"] = ts[len(ts) // 2] if ts else 0.0
        report[f"{who}_think_p95"] = ts[int(len(ts) * 0.95)] if ts else 0.0
        report[f"{who}_think_mean"] = sum(ts) / len(ts) if ts else 0.0
        report[f"{who}_decisions"] = len(st["losses"])
        ls = st["losses"]
        report[f"{who}_error"] = (sum(ls) / len(ls)) if ls else float("nan")
        report[f"{who}_error_se"] = statistics.stdev(ls) / math.sqrt(len(ls)) if len(ls) > 1 else float("nan")
    elapsed = time.time() - t_start
    p = report
    print(f"{p['a']} vs {p['b']}: {n} games ({pairs} mirrored pairs), {elapsed:.0f}s", file=out)
    print(f"  points/game for {p['a']}: {p['ppg']:+.3f} +/- {p['se']:.3f} (s.e.)", file=out)
    print(f"  wins {p['win']:.1%}, gammons won {p['gammon']:.1%}, backgammons won "
          f"{p['backgammon']:.1%}, gammons lost {p['lose_gammon']:.1%}, backgammons lost "
          f"{p['lose_backgammon']:.1%}", file=out)
    for who in ("a", "b"):
        print(f"  {p[who]}: think median {1000 * p[who + '_think_median']:.1f} ms, p95 "
              f"{1000 * p[who + '_think_p95']:.1f} ms, mean {1000 * p[who + '_think_mean']:.1f} ms",
              end="", file=out)
        if judge is not None:
            print(f"; error {1000 * p[who + '_error']:.2f} +/- {1000 * p[who + '_error_se']:.2f} "
                  f"millipoints/decision over {p[who + '_decisions']} non-forced decisions "
                  f"(gnubg {judge.plies}-ply judge)", file=out)
        else:
            print(file=out)
    if judge is not None and p["b_error"] > 0:
        print(f"  error ratio {p['a']} / {p['b']}: {p['a_error'] / p['b_error']:.3f}", file=out)
    out.flush()
    return report


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ai.bench", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games (rounded up to an even number)")
    ap.add_argument("--level", type=int, default=5)
    ap.add_argument("--opponent", default="expert")
    ap.add_argument("--player", default=None,
                    help="first player instead of --level: levelK or a gnubg player (e.g. expert1ply)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--judge-plies", type=int, default=1, help="gnubg plies for the error rate")
    ap.add_argument("--no-judge", action="store_true")
    ap.add_argument("--ladder", action="store_true", help="level k vs level k-1, k = 2..5")
    ap.add_argument("--weights", default=None,
                    help="folder with contact.bin and race.bin to play instead of ai/weights/")
    a = ap.parse_args(argv)
    if a.weights:
        from ai import net, search

        net.WEIGHTS_DIR = a.weights
        net._NETS.clear()  # both loaded lazily: the next evaluation reads these
        search._EVALUATOR.clear()
    pairs = max(1, (a.games + 1) // 2)
    judge = None if a.no_judge else Judge(a.judge_plies)
    if a.ladder:
        for k in range(2, 6):
            run_match(OurPlayer(k, a.seed), OurPlayer(k - 1, a.seed + 1), pairs, a.seed, judge)
        return 0
    first = make_player(a.player, a.seed) if a.player else OurPlayer(a.level, a.seed)
    run_match(first, make_player(a.opponent, a.seed + 7), pairs, a.seed, judge)
    return 0


if __name__ == "__main__":
    sys.exit(main())
