"""Train the pruning net (dev-only): ``python -m ai.training.prune``.

Level 5's lookahead picks, for each of the opponent's 21 rolls, the
opponent's best reply by the contact net's 0-ply equity: about 20 full
evaluations a roll, most of them of replies nowhere near the best. gnubg
prunes its deeper plies with small nets; this does the same for ours. The
pruning net (``--hidden`` units, one linear output: equity) reads only the
board inputs of the encoder (the two sides' point blocks and ``CONTACT``,
``encoder.encode(board, False)``), not the hand-made contact features,
which take most of an encoding's time: a reply is encoded in full only if
it is among the few the contact net then evaluates. It is trained by
distillation: its target is the committed contact net's equity
(``ai/weights/contact.bin``, read back exactly), by mean squared error, on
the contact positions of ``train.py``'s chunks 0-2 of seed 0, so that it
ranks sibling positions the way the contact net does. ``ai.search`` then
evaluates only the pruning net's few best replies with the contact net
(:data:`ai.search.PRUNE_KEEP`).

Writes ``prune.bin`` to ``--out`` (default ``ai/weights``; its rows for the
contact features are zero); it prints, each epoch, the mean equity gap
from the contact net on 20,000 held-back positions. The committed
``prune.bin`` is this command's output with its defaults (128 hidden units,
30 epochs: about 160 s here, on the 1.22 million contact positions of
chunks 0-2). Retrain it after any change to the contact net:
``tests/test_ai_prune.py`` checks that the two still rank replies alike.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import torch

from ai import encoder
from ai.training import deep_labels, export, train
from ai.training.finetune import load_net


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--chunks", default="0,1,2",
                    help="train.py's chunks of seed 0 whose positions to use (made if missing)")
    ap.add_argument("--limit", type=int, default=0, help="use only the first N positions")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=train.WEIGHTS)
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    t0 = time.time()
    chunks = [int(c) for c in a.chunks.split(",")]
    boards = np.concatenate([deep_labels.chunk_boards(c) for c in chunks])
    if a.limit:
        boards = boards[:a.limit]
    boards = boards[train.contact_mask(boards)]
    print(f"{len(boards)} contact positions from chunks {a.chunks}", flush=True)
    x = train.encode_boards(boards, "contact")
    teacher = load_net(os.path.join(train.WEIGHTS, "contact.bin"))
    teacher.eval()
    xt = torch.from_numpy(x)
    with torch.no_grad():
        y = train.equity_t(torch.cat([teacher(xt[i:i + 65536]) for i in range(0, len(xt), 65536)]))
    xt[:, encoder.FEAT:] = 0.0  # the board inputs only
    torch.manual_seed(a.seed)
    net = train.Net(a.hidden, outputs=1)
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=a.epochs, eta_min=5e-5)
    rng = np.random.default_rng(a.seed)
    n_val = min(20000, len(x) // 10)
    perm = rng.permutation(len(x))
    val, tr = perm[:n_val], perm[n_val:]
    for ep in range(a.epochs):
        net.train()
        train.run_epoch(net, opt, xt, y, tr[rng.permutation(len(tr))], 256,
                        f"[prune] epoch {ep + 1}/{a.epochs}", torch.nn.functional.mse_loss)
        sched.step()
        net.eval()
        with torch.no_grad():
            eq_err = float((net(xt[val]) - y[val]).abs().mean())
        print(f"[prune] epoch {ep + 1}: equity MAE against the contact net {eq_err:.4f}", flush=True)
    sd = {k: v.detach().numpy() for k, v in net.state_dict().items()}
    sd["l1.weight"][:, encoder.FEAT:] = 0.0  # the inputs it never sees
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "prune.bin")
    export.export(path, sd["l1.weight"], sd["l1.bias"], sd["l2.weight"], sd["l2.bias"])
    print(f"wrote {path} in {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
