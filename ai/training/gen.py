"""Generate training positions by noisy GNU Backgammon self-play and label them.

Positions come from games between gnubg-nn 0-ply players whose choices get
Gaussian equity noise (a different noise level per game, so strong and weak
play are both seen) and occasional uniformly random plays. Every position
after a chosen play, plus one random alternative play per decision, is
labelled with gnubg-nn's 1-ply evaluation for the player on roll:
(win, win gammon, win backgammon, lose gammon, lose backgammon).

Also writes a held-out set of decisions (board, dice, all resulting boards,
gnubg 1-ply equity of each) for the strength checkpoints.

Dev-only: gnubg-nn is GPL and is never shipped; only its evaluations are used
as training targets.
"""

from __future__ import annotations

import random
import sys
import time

import gnubg_nn as gnubg
import numpy as np

START = gnubg.board_from_position_id("4HPwATDgc/ABMA")


def equity(p) -> float:
    """Cubeless equity with gammons from (w, wg, wbg, lg, lbg)."""
    return 2.0 * p[0] - 1.0 + p[1] + p[2] - p[3] - p[4]


def swap(board):
    return (board[1], board[0])


def flat(board) -> list[int]:
    return list(board[0]) + list(board[1])


def progress(i: int, n: int, t0: float, label: str) -> None:
    frac = i / n
    bar = "#" * int(30 * frac)
    el = time.time() - t0
    eta = el / frac - el if frac > 0 else 0.0
    sys.stderr.write(f"\r{label} [{bar:<30}] {i}/{n} {el:5.0f}s eta {eta:5.0f}s")
    sys.stderr.flush()
    if i == n:
        sys.stderr.write("\n")


def play_game(rng: random.Random, noise: float, eps: float, on_decision) -> None:
    """One noisy self-play game; on_decision(board, d1, d2, plays, chosen_key)."""
    board = START
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    while d1 == d2:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    for _ in range(400):
        res = gnubg.best_move(board, d1, d2, n=0, list=1)
        plays = res[1] if res and res[0] else ()
        if not plays:
            board = swap(board)
        else:
            if len(plays) > 1 and rng.random() < eps:
                chosen = rng.choice(plays)
            elif noise > 0 and len(plays) > 1:
                chosen = max(plays, key=lambda p: p[3] + rng.gauss(0.0, noise))
            else:
                chosen = plays[0]
            on_decision(board, d1, d2, plays, chosen)
            board = gnubg.board_from_position_key(chosen[0])  # opponent on roll
            if sum(board[0]) == 0:  # the mover bore off everything
                return
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)


def chunk_name(seed: int, chunk: int, games: int, plies: object) -> str:
    """File name of ``train.py``'s labelled chunk (``plies``: the label depth, or
    ``"*"`` for a glob pattern)."""
    return f"chunk_{seed}_{chunk}_{games}g_{plies}ply.npz"


def collect_boards(n_games: int, seed: int, alts: int = 1) -> np.ndarray:
    """The unlabelled positions of ``generate(n_games, seed, ...)``, in the
    same order (labelling draws nothing from the generator, so a chunk's
    positions can be rebuilt in about a minute without its labels)."""
    rng = random.Random(seed)
    boards: list[list[int]] = []

    def on_decision(board, d1, d2, plays, chosen):
        nxt = gnubg.board_from_position_key(chosen[0])
        if sum(nxt[0]) and sum(nxt[1]):
            boards.append(flat(nxt))
        if len(plays) > 1:
            for alt in rng.sample(plays, min(alts, len(plays))):
                if alt is not chosen:
                    b = gnubg.board_from_position_key(alt[0])
                    if sum(b[0]) and sum(b[1]):
                        boards.append(flat(b))

    t0 = time.time()
    for g in range(n_games):
        noise = rng.choice((0.0, 0.0, 0.02, 0.05, 0.1, 0.2))
        play_game(rng, noise, 0.05, on_decision)
        if g % 50 == 0 or g == n_games - 1:
            progress(g + 1, n_games, t0, f"games ({len(boards)} positions)")
    return np.array(boards, dtype=np.uint8)


def generate(n_games: int, seed: int, out: str, alts: int = 1, plies: int = 1) -> None:
    arr = collect_boards(n_games, seed, alts)
    labels = np.zeros((len(arr), 5), dtype=np.float32)
    t0 = time.time()
    for i, row in enumerate(arr):
        b = (tuple(int(x) for x in row[:25]), tuple(int(x) for x in row[25:]))
        labels[i] = gnubg.probabilities(b, plies)
        if i % 5000 == 0 or i == len(arr) - 1:
            progress(i + 1, len(arr), t0, f"labels {plies}-ply")
    np.savez_compressed(out, boards=arr, labels=labels)


def result_equity(board, plies: int) -> float:
    """gnubg's equity, for the side that just played, of a play's result
    ``board`` (the opponent on roll) at ``plies``; exact when the game is over."""
    if sum(board[0]) == 0:
        loser = board[1]  # the mover won: gammon/backgammon if the loser has none off
        return 1.0 if sum(loser) < 15 else (3.0 if sum(loser[18:25]) else 2.0)
    return -equity(gnubg.probabilities(board, plies))


def generate_testset(n: int, seed: int, out: str, plies: int = 1) -> None:
    """Held-out decisions: for each, the resulting boards (opponent on roll)
    and gnubg's equity (for the mover) of each after a `plies`-ply evaluation."""
    rng = random.Random(seed)
    decisions = []

    def on_decision(board, d1, d2, plays, chosen):
        if len(plays) > 1 and rng.random() < 0.25 and len(decisions) < n:
            decisions.append((board, d1, d2, plays))

    t0 = time.time()
    while len(decisions) < n:
        play_game(rng, rng.choice((0.0, 0.05)), 0.02, on_decision)
        progress(len(decisions), n, t0, "test decisions")
    results, offsets, eqs = [], [0], []
    for board, d1, d2, plays in decisions:  # plays[0] is gnubg 0-ply's choice
        for p in plays:
            b = gnubg.board_from_position_key(p[0])
            results.append(flat(b))
            eqs.append(result_equity(b, plies))
        offsets.append(len(results))
    np.savez_compressed(out, results=np.array(results, dtype=np.uint8),
                        offsets=np.array(offsets, dtype=np.int64),
                        equities=np.array(eqs, dtype=np.float32))


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="/tmp/gen.npz")
    ap.add_argument("--test", type=int, default=0)
    a = ap.parse_args()
    if a.test:
        generate_testset(a.test, a.seed, a.out)
    else:
        generate(a.games, a.seed, a.out)
