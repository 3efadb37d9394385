"""Positions where the committed net errs (issue 18, "Better positions"; dev-only).

The training chunks (``gen.py``) keep every position after a chosen play and
one random alternative per decision, so the net sees few of the close
siblings a 0-ply search must rank. This finds the decisions where the
committed net's 0-ply choice differs from gnubg 0-ply's and labels their
candidates with gnubg 1-ply, as the chunks are labelled:

    python -m ai.training.hard label --shards 0-15     # one file a shard, resumable
    python -m ai.training.hard tune --out DIR [--set control] [--judge T.npz ...]

``label``: a shard is ``--games`` noisy gnubg 0-ply self-play games (the
chunks' noise mix; seeds 7000 + shard, apart from the chunks' and the
held-out sets'). Every decision with a choice and a contact result is scored
by the committed contact and race nets (torch, the exported float16 weights).
A decision is *hard* when the net's best play is not gnubg 0-ply's; its
candidates are the union of both players' best three, and each contact
result among them gets gnubg 1-ply's probabilities for the side on roll. The
same number of other decisions, drawn at random from the easy ones, get the
same treatment (the *control*: the same kind and amount of labels, without
the selection). The rest of the easy decisions give anchor positions (gnubg's
chosen result), unlabelled.

``tune``: fine-tunes the committed contact net on one set's labels, with as
many anchor positions whose targets are the committed net's own outputs (as
``finetune.py`` does), and writes ``contact.bin`` and the committed
``race.bin`` to ``--out``; judge it with ``heldout.py --weights DIR``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import gnubg_nn as gnubg
import numpy as np

from ai import encoder
from ai.training import gen

# torch (requirements-train.txt) is imported where the nets are used, so
# that the selection can be tested with the test command's packages alone

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "hard")
TOP = 3
NOISES = (0.0, 0.0, 0.02, 0.05, 0.1, 0.2)  # the chunks' mix (gen.collect_boards)


def shard_path(s: int, games: int) -> str:
    return os.path.join(OUT, f"hard_{s}_{games}g.npz")


def decisions(n_games: int, seed: int) -> list:
    """(result boards as uint8 rows, gnubg 0-ply order) of every decision with
    a choice, from noisy self-play; gnubg's best play is row 0."""
    rng = random.Random(seed)
    out = []

    def on_decision(board, d1, d2, plays, chosen):
        if len(plays) > 1:
            rows = [gen.flat(gnubg.board_from_position_key(p[0])) for p in plays]
            out.append(np.array(rows, dtype=np.uint8))

    for _ in range(n_games):
        gen.play_game(rng, rng.choice(NOISES), 0.05, on_decision)
    return out


def net_equities(rows: np.ndarray, nets: dict) -> np.ndarray:
    """The mover's equity after each result by the committed nets at 0-ply
    (exact when the mover has borne off)."""
    import torch

    from ai.training import train
    over = rows[:, :25].sum(1) == 0
    contact = train.contact_mask(rows)
    x = torch.from_numpy(train.encode_boards(rows, "score"))
    out = np.zeros(len(rows), dtype=np.float32)
    with torch.no_grad():
        for name, m in (("contact", contact), ("race", ~contact)):
            idx = np.nonzero(m & ~over)[0]
            if len(idx):
                out[idx] = -train.equity_t(nets[name](x[idx])).numpy()
    for i in np.nonzero(over)[0]:
        out[i] = gen.result_equity((rows[i, :25].tolist(), rows[i, 25:].tolist()), 0)
    return out


def contact_rows(rows: np.ndarray) -> np.ndarray:
    return np.array([encoder.is_contact((r[:25], r[25:])) for r in rows.tolist()], dtype=bool)


def select(eq: np.ndarray, offs: np.ndarray, seed: int) -> tuple[list, list, list]:
    """Split the decisions (rows ``offs[k]:offs[k + 1]`` of ``eq``, the net's
    equities, gnubg 0-ply's choice first) into hard ones (the net's best is
    not gnubg's), as many easy ones drawn at random (the control), and the
    other easy ones (anchors)."""
    hard, easy = [], []
    for k in range(len(offs) - 1):
        (hard if int(np.argmax(eq[offs[k]:offs[k + 1]])) != 0 else easy).append(k)
    rng = np.random.default_rng(seed)
    control = sorted(rng.choice(easy, size=min(len(hard), len(easy)), replace=False).tolist())
    return hard, control, sorted(set(easy) - set(control))


def candidates(eq: np.ndarray, offs: np.ndarray, ks: list, usable: np.ndarray) -> np.ndarray:
    """The rows to label for decisions ``ks``: the union of the net's best
    ``TOP`` and gnubg 0-ply's best ``TOP`` (its first rows), where ``usable``."""
    idx = []
    for k in ks:
        e = eq[offs[k]:offs[k + 1]]
        mine = np.argsort(-e, kind="stable")[:TOP].tolist()
        idx += [offs[k] + i for i in sorted(set(mine) | set(range(min(TOP, len(e)))))
                if usable[offs[k] + i]]
    return np.array(idx, dtype=np.int64)


def label_shard(s: int, games: int, nets: dict) -> None:
    t0 = time.time()
    ds = [d for d in decisions(games, 7000 + s) if contact_rows(d).any()]
    rows = np.concatenate(ds)
    offs = np.cumsum([0] + [len(d) for d in ds])
    eq = net_equities(rows, nets)
    usable = contact_rows(rows) & (rows[:, :25].sum(1) > 0)  # contact, game not over
    hard, control, anchors = select(eq, offs, s)
    out = {}
    for name, ks in (("hard", hard), ("control", control)):
        idx = candidates(eq, offs, ks, usable)
        lab = np.zeros((len(idx), 5), dtype=np.float32)
        t1 = time.time()
        for n, j in enumerate(idx):
            lab[n] = gnubg.probabilities((rows[j, :25].tolist(), rows[j, 25:].tolist()), 1)
            if n % 2000 == 0 or n == len(idx) - 1:
                gen.progress(n + 1, len(idx), t1, f"shard {s} {name} 1-ply labels")
        out[f"{name}_boards"], out[f"{name}_labels"] = rows[idx], lab
    a_rows = np.array([offs[k] for k in anchors], dtype=np.int64)
    out["anchor_boards"] = rows[a_rows[usable[a_rows]]]
    out["counts"] = np.array([len(ds), len(hard), len(control), len(out["anchor_boards"])])
    os.makedirs(OUT, exist_ok=True)
    tmp = shard_path(s, games) + ".tmp.npz"
    np.savez_compressed(tmp, **out)
    os.replace(tmp, shard_path(s, games))
    print(f"shard {s}: {games} games, {len(ds)} decisions, {len(hard)} hard "
          f"({len(hard) / len(ds):.1%}), {len(out['hard_boards'])} hard and "
          f"{len(out['control_boards'])} control labels, {len(out['anchor_boards'])} anchors, "
          f"{time.time() - t0:.0f}s", flush=True)


def shard_range(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def load(set_name: str, games: int, shards: range) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(labelled boards, labels, anchor boards) of the shards."""
    paths = [shard_path(s, games) for s in shards]
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        raise SystemExit(f"missing shards {missing}: run python -m ai.training.hard label first")
    parts = [np.load(p) for p in paths]
    return (np.concatenate([d[f"{set_name}_boards"] for d in parts]),
            np.concatenate([d[f"{set_name}_labels"] for d in parts]),
            np.concatenate([d["anchor_boards"] for d in parts]))


def tune(a) -> None:
    import torch

    from ai.training import train
    from ai.training.finetune import judge_and_write, load_net
    torch.set_num_threads(1)
    torch.manual_seed(a.seed)
    t0 = time.time()
    boards, labels, anchor = load(a.set, a.games, shard_range(a.shards))
    print(f"{len(boards)} {a.set} positions with 1-ply labels, {len(anchor)} anchors", flush=True)
    start = load_net(os.path.join(train.WEIGHTS, "contact.bin"))
    net = load_net(os.path.join(train.WEIGHTS, "contact.bin"))
    rng = np.random.default_rng(a.seed)
    n_anchor = min(len(anchor), int(a.anchor * len(boards)))
    xa = train.encode_boards(anchor[rng.choice(len(anchor), n_anchor, replace=False)], "anchor")
    x = np.concatenate([train.encode_boards(boards, a.set), xa])
    with torch.no_grad():
        ya = start(torch.from_numpy(xa)).numpy()
    y = np.concatenate([labels, ya])
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    n_val = min(5000, len(boards) // 10)
    perm = rng.permutation(len(boards))
    val = perm[:n_val]
    keep = np.ones(len(x), bool)
    keep[val] = False
    tr = np.nonzero(keep)[0]

    def val_mae(m) -> float:
        with torch.no_grad():
            return float((train.equity_t(m(xt[val])) - train.equity_t(yt[val])).abs().mean())

    print(f"held-back labels ({n_val}): equity MAE {val_mae(start):.4f} before", flush=True)
    opt = torch.optim.Adam(net.parameters(), lr=a.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=a.epochs, eta_min=a.lr / 20)
    for ep in range(a.epochs):
        net.train()
        train.run_epoch(net, opt, xt, yt, tr[rng.permutation(len(tr))], 128, f"epoch {ep + 1}/{a.epochs}")
        sched.step()
        net.eval()
        print(f"epoch {ep + 1}: held-back labels, equity MAE {val_mae(net):.4f}", flush=True)
    judge_and_write(start, net, a.judge, a.out)
    print(f"wrote {a.out} in {time.time() - t0:.0f}s", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    lb = sub.add_parser("label")
    lb.add_argument("--shards", default="0-15", help="a range, e.g. 0-7")
    lb.add_argument("--games", type=int, default=1000)
    tn = sub.add_parser("tune")
    tn.add_argument("--out", required=True)
    tn.add_argument("--set", choices=("hard", "control"), default="hard")
    tn.add_argument("--shards", default="0-15", help="a range, e.g. 0-7")
    tn.add_argument("--games", type=int, default=1000, help="the shards' size")
    tn.add_argument("--epochs", type=int, default=4)
    tn.add_argument("--lr", type=float, default=1e-4)
    tn.add_argument("--anchor", type=float, default=1.0, help="anchor positions per labelled one")
    tn.add_argument("--seed", type=int, default=0)
    tn.add_argument("--judge", nargs="*", default=[])
    a = ap.parse_args(argv)
    if a.cmd == "tune":
        tune(a)
        return
    import torch

    from ai.training import train
    from ai.training.finetune import load_net
    torch.set_num_threads(1)
    nets = {n: load_net(os.path.join(train.WEIGHTS, f"{n}.bin")) for n in ("contact", "race")}
    for s in shard_range(a.shards):
        if os.path.exists(shard_path(s, a.games)):
            print(f"shard {s}: done", flush=True)
            continue
        label_shard(s, a.games, nets)


if __name__ == "__main__":
    main(sys.argv[1:])
