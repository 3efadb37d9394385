"""Speed benchmark: legal-play generation and random self-play games.

``python -m engine bench [--positions N] [--games N] [--profile]``

The corpus is fixed: positions met in seeded random self-play (the choices
drawn from seeded :class:`Dice`, so every runtime meets the same positions),
each with all 21 rolls.  Times are the process's CPU time
(``time.process_time``), so other jobs on a shared machine disturb them less
than wall-clock time; compare runs on one machine.  Measuring needs CPython;
``random_game`` and ``corpus`` run anywhere.
"""
import time

from .dice import Dice
from .game import Game
from .movegen import result_positions
from .position import Position

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def corpus(n: int, seed: int = 1) -> list[Position]:
    """``n`` distinct positions from seeded random self-play, in the order met."""
    rng = Dice(seed)
    seen: set = set()
    out: list[Position] = []
    while len(out) < n:
        pos = Position.start()
        while pos.winner() is None and len(out) < n:
            if pos not in seen:
                seen.add(pos)
                out.append(pos)
            results = result_positions(pos, *rng.roll())
            pos = results[rng.below(len(results))].swap() if results else pos.swap()
    return out


def random_game(rng: Dice) -> Game:
    """A game with random legal plays: its dice and its choices drawn from ``rng``."""
    game = Game(dice=Dice(rng.below(1 << 30)))
    game.opening_roll()
    while True:
        plays = game.legal_plays()
        if plays:
            game.play(plays[rng.below(len(plays))])
        else:
            game.pass_turn()
        if game.is_over:
            return game
        game.roll()


def bench_generation(positions: list[Position], with_notation: bool = False) -> tuple[int, float]:
    t0 = time.process_time()
    count = 0
    for pos in positions:
        for d1, d2 in ROLLS:
            if with_notation:
                for p in pos.legal_plays(d1, d2):
                    p.notation
            else:
                result_positions(pos, d1, d2)
            count += 1
    return count, time.process_time() - t0


def bench_games(n: int, seed: int = 2) -> tuple[int, float, int]:
    rng = Dice(seed)
    t0 = time.process_time()
    turns = 0
    for _ in range(n):
        turns += len(random_game(rng).history)
    return n, time.process_time() - t0, turns


def main(n_positions: int = 1000, n_games: int = 50, profile: bool = False) -> None:
    positions = corpus(n_positions)
    print(f"corpus: {len(positions)} positions x 21 rolls (seeded random self-play)")
    n, dt = bench_generation(positions)
    print(f"legal-play generation (resulting positions): {n / dt:,.0f} position-rolls/s "
          f"({dt * 1e6 / n:.1f} us each, {n} in {dt:.2f} s)")
    n2, dt2 = bench_generation(positions[: max(1, n_positions // 4)], with_notation=True)
    print(f"legal plays with gnubg notation:            {n2 / dt2:,.0f} position-rolls/s")
    g, dtg, turns = bench_games(n_games)
    print(f"random self-play games: {g / dtg:,.1f} games/s ({g} games, {turns} turns, {dtg:.2f} s)")
    if profile:
        import cProfile
        import io
        import pstats

        pr = cProfile.Profile()
        pr.enable()
        bench_generation(positions[: max(1, n_positions // 4)])
        pr.disable()
        out = io.StringIO()
        pstats.Stats(pr, stream=out).sort_stats("tottime").print_stats(8)
        print("profile of legal-play generation (top functions by own time):")
        print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[:3000])
