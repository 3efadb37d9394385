"""Rebuild ai/weights/*.bin from scratch: ``python -m ai.training.train --seed 0``.

Steps (each resumable: finished parts are kept in ai/training/data/):
 1. noisy gnubg-nn self-play games, in chunks; positions labelled with
    gnubg-nn 1-ply probabilities (see gen.py; ``--label-plies 0`` for the
    cheap 0-ply labels of the weights before 2026-12-04);
 2. a held-out set of decisions for strength checkpoints;
 3. train a contact net and a race net (torch, CPU, one thread) on the shared
    encoder's inputs, saving a checkpoint every epoch and printing, every
    epoch, the agreement of the net's 0-ply best move with gnubg 1-ply's and
    the mean equity it loses (gnubg 0-ply judged the same way alongside);
 4. export float16 weights to ai/weights/contact.bin and ai/weights/race.bin.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import torch

from ai import encoder
from ai.training import deep_labels, export, gen

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
WEIGHTS = os.path.join(os.path.dirname(HERE), "weights")
TAG = [""]


def encode_boards(boards: np.ndarray, label: str) -> np.ndarray:
    x = np.zeros((len(boards), encoder.N_INPUTS), dtype=np.float32)
    t0 = time.time()
    for i, row in enumerate(boards.tolist()):
        for j, v in encoder.encode((row[:25], row[25:])):
            x[i, j] = v
        if i % 20000 == 0 or i == len(boards) - 1:
            gen.progress(i + 1, len(boards), t0, f"encode {label}")
    return x


def contact_mask(boards: np.ndarray) -> np.ndarray:
    return np.array([encoder.is_contact((r[:25], r[25:])) for r in boards.tolist()], dtype=bool)


class Net(torch.nn.Module):
    """One sigmoid hidden layer. Five sigmoid outputs (the probabilities), or
    with ``outputs=1`` one linear output: the pruning net's equity
    (``prune.py``)."""

    def __init__(self, n_hidden: int, outputs: int = 5):
        super().__init__()
        self.l1 = torch.nn.Linear(encoder.N_INPUTS, n_hidden)
        self.l2 = torch.nn.Linear(n_hidden, outputs)

    def forward(self, x):
        y = self.l2(torch.sigmoid(self.l1(x)))
        return y[:, 0] if self.l2.out_features == 1 else torch.sigmoid(y)


def equity_t(p: torch.Tensor) -> torch.Tensor:
    return 2 * p[:, 0] - 1 + p[:, 1] + p[:, 2] - p[:, 3] - p[:, 4]


class TestSet:
    def __init__(self, path: str):
        d = np.load(path)
        self.results = d["results"]
        self.offsets = d["offsets"]
        self.eqs = d["equities"]
        self.over = (self.results[:, :25].sum(1) == 0)  # mover already bore off
        self.contact = contact_mask(self.results)
        self.x = torch.from_numpy(encode_boards(self.results, "test"))

    def judge(self, choose) -> tuple[float, float]:
        """choose(start, end) -> chosen index; returns (agreement, mean loss)."""
        agree, loss = 0, 0.0
        n = len(self.offsets) - 1
        for k in range(n):
            a, b = self.offsets[k], self.offsets[k + 1]
            e = self.eqs[a:b]
            c = choose(a, b)
            best = int(np.argmax(e))
            agree += c == best
            loss += float(e[best] - e[c])
        return agree / n, loss / n

    def net_equities(self, nets: dict) -> np.ndarray:
        with torch.no_grad():
            out = np.zeros(len(self.results), dtype=np.float32)
            for name, m in (("contact", self.contact), ("race", ~self.contact)):
                idx = np.nonzero(m & ~self.over)[0]
                if len(idx):
                    out[idx] = -equity_t(nets[name](self.x[idx])).numpy()
            out[self.over] = self.eqs[self.over]
        return out


def run_epoch(net, opt, xt: torch.Tensor, yt: torch.Tensor, order: np.ndarray, bs: int,
              label: str, loss_fn=torch.nn.functional.binary_cross_entropy) -> None:
    """One pass over the rows ``order`` in batches of ``bs``: ``loss_fn``
    (binary cross-entropy) against ``yt``, one optimiser step a batch, a
    progress bar on stderr."""
    t0 = time.time()
    nb = len(order) // bs
    for b in range(nb):
        idx = torch.from_numpy(order[b * bs:(b + 1) * bs])
        loss = loss_fn(net(xt[idx]), yt[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if b % 500 == 0 or b == nb - 1:
            gen.progress(b + 1, nb, t0, label)


def train_net(name: str, x: np.ndarray, y: np.ndarray, n_hidden: int, epochs: int,
              seed: int, test: TestSet | None, nets: dict) -> Net:
    torch.manual_seed(seed)
    net = Net(n_hidden)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs, eta_min=2e-5)
    ckpt = os.path.join(DATA, f"ckpt_{name}_{seed}{TAG[0]}.pt")
    start = 0
    if os.path.exists(ckpt):
        st = torch.load(ckpt)
        net.load_state_dict(st["net"])
        opt.load_state_dict(st["opt"])
        sched.load_state_dict(st["sched"])
        start = st["epoch"]
        print(f"[{name}] resumed at epoch {start}")
    nets[name] = net
    rng = np.random.default_rng(seed)
    n_val = min(20000, len(x) // 10)
    perm = rng.permutation(len(x))
    val, tr = perm[:n_val], perm[n_val:]
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    bs = 128
    for ep in range(start, epochs):
        net.train()
        run_epoch(net, opt, xt, yt, tr[rng.permutation(len(tr))], bs,
                  f"[{name}] epoch {ep + 1}/{epochs}")
        sched.step()
        net.eval()
        with torch.no_grad():
            pv = net(xt[val])
            mae = float((pv - yt[val]).abs().mean())
            eq_err = float((equity_t(pv) - equity_t(yt[val])).abs().mean())
        msg = f"[{name}] epoch {ep + 1}: val MAE {mae:.4f}, equity MAE {eq_err:.4f}"
        if test is not None and "contact" in nets and "race" in nets:
            eqs = test.net_equities(nets)
            agree, lost = test.judge(lambda a, b: int(np.argmax(eqs[a:b])))
            msg += f" | vs gnubg 1-ply: best-move agreement {agree:.3f}, equity lost/move {lost:.4f}"
        print(msg, flush=True)
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(),
                    "sched": sched.state_dict(), "epoch": ep + 1}, ckpt)
    return net


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--chunks", type=int, default=10, help="chunks of --chunk-games games")
    ap.add_argument("--chunk-games", type=int, default=5000)
    ap.add_argument("--label-plies", type=int, default=1,
                    help="gnubg plies for the labels (0: ~300x faster, weaker nets)")
    ap.add_argument("--test", type=int, default=1000, help="held-out decisions")
    ap.add_argument("--epochs", type=int, default=16)
    ap.add_argument("--race-epochs", type=int, default=15)
    ap.add_argument("--hidden", type=int, default=768)
    ap.add_argument("--race-hidden", type=int, default=64)
    ap.add_argument("--deep-labels", action="store_true",
                    help="where a committed 2-ply shard (deep_labels.py) labels a position, "
                    "train on that label instead")
    ap.add_argument("--deep-mean", action="store_true",
                    help="with --deep-labels: train on the mean of the 1-ply and the 2-ply label")
    ap.add_argument("--gen-only", action="store_true", help="only generate the data")
    ap.add_argument("--net-seed", type=int, default=None,
                    help="seed for the nets' initial weights and batch order (default: --seed); "
                    "to measure how much a change depends on it")
    ap.add_argument("--tag", default="", help="suffix for checkpoint names (a fresh training run)")
    ap.add_argument("--out", default=WEIGHTS, help="folder for the exported weights")
    a = ap.parse_args(argv)
    if a.deep_mean and not a.deep_labels:
        raise SystemExit("--deep-mean goes with --deep-labels")
    torch.set_num_threads(1)
    TAG[0] = a.tag
    os.makedirs(DATA, exist_ok=True)
    t_start = time.time()

    files = []
    for c in range(a.chunks):
        path = os.path.join(DATA, gen.chunk_name(a.seed, c, a.chunk_games, a.label_plies))
        if not os.path.exists(path):
            print(f"chunk {c + 1}/{a.chunks}: {a.chunk_games} games", flush=True)
            gen.generate(a.chunk_games, a.seed * 1000 + 100 + c, path + ".tmp.npz",
                         plies=a.label_plies)
            os.replace(path + ".tmp.npz", path)
        files.append(path)
    test_path = os.path.join(DATA, f"test_{a.seed}_{a.test}.npz")
    if not os.path.exists(test_path):
        gen.generate_testset(a.test, a.seed * 1000 + 999, test_path + ".tmp.npz")
        os.replace(test_path + ".tmp.npz", test_path)

    if a.gen_only:
        return
    boards = np.concatenate([np.load(f)["boards"] for f in files])
    labels = np.concatenate([np.load(f)["labels"] for f in files])
    print(f"{len(boards)} labelled positions ({time.time() - t_start:.0f}s so far)", flush=True)
    if a.deep_labels:
        if a.seed != deep_labels.SEED or a.chunk_games != deep_labels.CHUNK_GAMES:
            raise SystemExit("--deep-labels: the shards label the chunks of --seed 0 --chunk-games 5000")
        n = deep_labels.apply(boards, labels, [len(np.load(f)["labels"]) for f in files],
                              deep_labels.load(), mean=a.deep_mean)
        print(f"{n} of them take gnubg 2-ply labels from the committed shards"
              + (" (the mean of their 1-ply and 2-ply labels)" if a.deep_mean else ""), flush=True)
    contact = contact_mask(boards)
    test = TestSet(test_path)
    # gnubg 0-ply baseline: its choice is the first play of each decision.
    agree0, lost0 = test.judge(lambda a, b: 0)
    print(f"gnubg 0-ply vs gnubg 1-ply on the test set: agreement {agree0:.3f}, "
          f"equity lost/move {lost0:.4f}", flush=True)

    nets: dict = {}
    xr = encode_boards(boards[~contact], "race")
    net_seed = a.seed if a.net_seed is None else a.net_seed
    race = train_net("race", xr, labels[~contact], a.race_hidden, a.race_epochs,
                     net_seed, None, nets)
    del xr
    xc = encode_boards(boards[contact], "contact")
    contact_net = train_net("contact", xc, labels[contact], a.hidden, a.epochs,
                            net_seed, test, nets)
    os.makedirs(a.out, exist_ok=True)
    for name, net in (("contact", contact_net), ("race", race)):
        sd = {k: v.detach().numpy() for k, v in net.state_dict().items()}
        export.export(os.path.join(a.out, f"{name}.bin"), sd["l1.weight"], sd["l1.bias"],
                      sd["l2.weight"], sd["l2.bias"])
    print(f"exported to {a.out} in {time.time() - t_start:.0f}s total", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
