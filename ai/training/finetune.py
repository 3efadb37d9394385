"""Fine-tune the committed contact net on gnubg 2-ply labels (dev-only).

``python -m ai.training.finetune --out /tmp/w_ft`` starts from
``ai/weights/contact.bin`` (float16, read back exactly) and trains it on the
positions of the committed 2-ply shards (``deep_labels.py``). So that the net
does not drift where there are no new labels, each epoch also sees as many
other contact positions of the same chunks, with the committed net's own
outputs as their targets (an anchor: distillation from the starting net).
Writes ``contact.bin`` (fine-tuned) and a copy of the committed ``race.bin``
to ``--out``; judge it with ``python -m ai.training.heldout --weights DIR``.
``--labels 1ply`` (a control: the same positions and steps with their 1-ply
labels) and ``--labels mean`` need ``train.py``'s 1-ply chunk files of the
shards' chunks (``--chunks`` picks which).

Full retraining on 2-ply labels where they exist and 1-ply elsewhere needs the
1-ply chunks rebuilt (about 50 minutes on two cores); this is the cheap step
that tells whether the new labels help at all.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time

import numpy as np
import torch

from ai.training import deep_labels, export, train

WEIGHTS = train.WEIGHTS


def load_net(path: str) -> train.Net:
    sd = {k: torch.from_numpy(v) for k, v in export.read(path).items()}
    net = train.Net(sd["l1.weight"].shape[0])
    net.load_state_dict(sd)
    return net


def anchor_boards(chunks: np.ndarray, idxs: np.ndarray, n: int, seed: int) -> np.ndarray:
    """``n`` contact positions of the labelled chunks that have no 2-ply label."""
    rng = np.random.default_rng(seed)
    pools = []
    for c in np.unique(chunks):
        boards = deep_labels.chunk_boards(int(c))
        taken = set(idxs[chunks == c].tolist())
        order = deep_labels.order(int(c), boards)
        free = np.array([i for i in order.tolist() if i not in taken], dtype=np.int64)
        pools.append(boards[free])
    pool = np.concatenate(pools)
    return pool[rng.choice(len(pool), size=min(n, len(pool)), replace=False)]


def zero_ply_losses(tests: list, nets: dict) -> np.ndarray:
    """Equity lost per decision (with a choice) by the nets' 0-ply choice, judged by each
    test set's own equities."""
    out = []
    for t in tests:
        eqs = t.net_equities(nets)
        for k in range(len(t.offsets) - 1):
            a, b = t.offsets[k], t.offsets[k + 1]
            if b - a > 1:
                e = t.eqs[a:b]
                out.append(float(e.max() - e[int(np.argmax(eqs[a:b]))]))
    return np.array(out)


def judge_and_write(start: train.Net, net: train.Net, judge: list, out: str) -> None:
    """Print the 0-ply loss per decision of ``start`` and the tuned ``net`` on
    the ``judge`` test sets (if any), paired; write ``net`` as ``contact.bin``
    and a copy of the committed ``race.bin`` to ``out``."""
    if judge:
        race = load_net(os.path.join(WEIGHTS, "race.bin"))
        tests = [train.TestSet(p) for p in judge]
        before = zero_ply_losses(tests, {"contact": start, "race": race})
        after = zero_ply_losses(tests, {"contact": net, "race": race})
        d = after - before
        print(f"0-ply equity lost per decision ({len(d)}, judged by {' '.join(judge)}): "
              f"{before.mean():.5f} before, {after.mean():.5f} after, paired "
              f"{d.mean():+.5f} +- {d.std(ddof=1) / np.sqrt(len(d)):.5f}", flush=True)
    os.makedirs(out, exist_ok=True)
    sd = {k: v.detach().numpy() for k, v in net.state_dict().items()}
    export.export(os.path.join(out, "contact.bin"), sd["l1.weight"], sd["l1.bias"],
                  sd["l2.weight"], sd["l2.bias"])
    shutil.copy(os.path.join(WEIGHTS, "race.bin"), os.path.join(out, "race.bin"))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--anchor", type=float, default=1.0,
                    help="anchor positions per labelled one (0: labels only)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=int, default=0, help="use only the first N labelled positions")
    ap.add_argument("--chunks", default="", help="use only these chunks' shards (e.g. 0,1)")
    ap.add_argument("--labels", choices=("2ply", "1ply", "mean"), default="2ply",
                    help="targets for the labelled positions: their 2-ply labels, the same "
                    "positions' 1-ply labels from train.py's chunk files (a control), or the mean "
                    "of the two (odd and even plies' biases cancel)")
    ap.add_argument("--judge", nargs="*", default=[],
                    help="held-out test sets (e.g. re-judged at 2-ply): print the 0-ply loss per "
                    "decision before and after, with the paired difference")
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(a.seed)
    t_start = time.time()

    chunks, idxs, boards, labels = deep_labels.load()
    if a.chunks:
        keep = np.isin(chunks, [int(c) for c in a.chunks.split(",")])
        chunks, idxs, boards, labels = chunks[keep], idxs[keep], boards[keep], labels[keep]
    if a.limit:
        chunks, idxs, boards, labels = chunks[:a.limit], idxs[:a.limit], boards[:a.limit], labels[:a.limit]
    if a.labels != "2ply":
        one = deep_labels.one_ply_labels(chunks, idxs, boards)
        labels = one if a.labels == "1ply" else (labels + one) / 2
    if not len(boards):
        raise SystemExit("no 2-ply shards: run python -m ai.training.deep_labels first")
    print(f"{len(boards)} positions with 2-ply labels; targets: {a.labels}", flush=True)
    start = load_net(os.path.join(WEIGHTS, "contact.bin"))
    net = load_net(os.path.join(WEIGHTS, "contact.bin"))
    x = train.encode_boards(boards, "labelled")
    y = labels
    n_anchor = int(a.anchor * len(boards))
    if n_anchor:
        xa = train.encode_boards(anchor_boards(chunks, idxs, n_anchor, a.seed), "anchor")
        with torch.no_grad():
            ya = start(torch.from_numpy(xa)).numpy()
        x, y = np.concatenate([x, xa]), np.concatenate([y, ya])
    with torch.no_grad():
        p0 = start(torch.from_numpy(x[:len(boards)]))
        eq0 = float((train.equity_t(p0) - train.equity_t(torch.from_numpy(labels))).abs().mean())
    print(f"starting net vs the targets: equity MAE {eq0:.4f}", flush=True)

    rng = np.random.default_rng(a.seed)
    n_lab = len(boards)
    perm = rng.permutation(n_lab)
    n_val = min(5000, n_lab // 10)
    val = perm[:n_val]
    keep = np.ones(len(x), bool)
    keep[val] = False
    tr = np.nonzero(keep)[0]
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    opt = torch.optim.Adam(net.parameters(), lr=a.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=a.epochs, eta_min=a.lr / 20)
    bs = 128

    def val_mae() -> float:
        with torch.no_grad():
            p = net(xt[val])
            return float((train.equity_t(p) - train.equity_t(yt[val])).abs().mean())

    print(f"held-back targets ({n_val}): equity MAE {val_mae():.4f} before", flush=True)
    for ep in range(a.epochs):
        net.train()
        train.run_epoch(net, opt, xt, yt, tr[rng.permutation(len(tr))], bs,
                        f"epoch {ep + 1}/{a.epochs}")
        sched.step()
        net.eval()
        print(f"epoch {ep + 1}: held-back targets, equity MAE {val_mae():.4f}", flush=True)
    judge_and_write(start, net, a.judge, a.out)
    print(f"wrote {a.out} in {time.time() - t_start:.0f}s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
