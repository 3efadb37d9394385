"""gnubg 2-ply labels for the training positions, in committed shards (dev-only).

A 2-ply label costs about 26 ms of one core (1-ply: 1.2 ms), so labelling the
4.95 million training positions would take about 36 core-hours: many
sessions. The generated data (``data/``) does not survive a new checkout,
but the labels must, so they are written in small shards under
``labels2ply/`` and committed as they are made.

Which positions: those of the training chunks (``gen.collect_boards`` with
the chunk's seed rebuilds them, in order, in about a minute), contact and
crashed ones only (races are where our 0-ply is already mended by level 5's
lookahead), in a fixed random order per chunk, ``SHARD`` positions a shard.
Shard ``s`` of chunk ``c`` is therefore the same set of positions on every
machine. A shard stores which positions it labels and a SHA-256 of their
boards, not the boards (that halves the size, about 11 bytes a position);
loading rebuilds the chunk and refuses a shard whose boards differ.

Shard format (``c{chunk}_s{shard:03d}.npz``): ``gaps`` (uint32, the sorted
position indices in the chunk as differences from the previous one, the first
from 0), ``labels`` (uint16, gnubg's probabilities (win, win gammon, win
backgammon, lose gammon, lose backgammon) for the player on roll, times
65535, rounded), ``sha256`` (of the boards' bytes: uint8, 50 a row, player on
roll first, in index order), ``plies``.

    python -m ai.training.deep_labels --chunk 0 --shards 0-19   # 20 shards, ~40 min of one core
    python -m ai.training.deep_labels --status                  # what is labelled so far

Resumable: finished shards are skipped; two processes with disjoint
``--shards`` ranges use both cores.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
LABELS = os.path.join(HERE, "labels2ply")
DATA = os.path.join(HERE, "data")
SHARD = 5000
SCALE = 65535.0
SEED, CHUNK_GAMES = 0, 5000  # the chunks of ``train.py --seed 0``


def chunk_seed(c: int) -> int:
    return SEED * 1000 + 100 + c  # as train.py seeds chunk c


def chunk_boards(c: int) -> np.ndarray:
    """Chunk c's positions (from data/: the cache, or train.py's labelled chunk;
    rebuilt when neither is there)."""
    path = os.path.join(DATA, f"boards_{SEED}_{c}_{CHUNK_GAMES}g.npy")
    if os.path.exists(path):
        return np.load(path)
    from ai.training import gen

    for labelled in sorted(glob.glob(os.path.join(DATA, gen.chunk_name(SEED, c, CHUNK_GAMES, "*")))):
        return np.load(labelled)["boards"]  # train.py's chunk: the same positions
    boards = gen.collect_boards(CHUNK_GAMES, chunk_seed(c))
    os.makedirs(DATA, exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp.npy"  # two labelling processes may rebuild it at once
    np.save(tmp, boards)
    os.replace(tmp, path)
    return boards


def order(c: int, boards: np.ndarray) -> np.ndarray:
    """Chunk c's contact and crashed positions in their fixed labelling order."""
    from ai import encoder

    rows = boards.tolist()
    contact = np.array([i for i, r in enumerate(rows) if encoder.is_contact((r[:25], r[25:]))],
                       dtype=np.uint32)
    return contact[np.random.default_rng(7000 + c).permutation(len(contact))]


def shard_path(c: int, s: int) -> str:
    return os.path.join(LABELS, f"c{c}_s{s:03d}.npz")


def encode_labels(p: np.ndarray) -> np.ndarray:
    return np.rint(np.clip(p, 0.0, 1.0) * SCALE).astype(np.uint16)


def decode_labels(q: np.ndarray) -> np.ndarray:
    return q.astype(np.float32) / np.float32(SCALE)


def label_shard(c: int, s: int, boards: np.ndarray, perm: np.ndarray, plies: int) -> None:
    import gnubg_nn as gnubg

    from ai.training.gen import progress

    idx = np.sort(perm[s * SHARD:(s + 1) * SHARD])
    if not len(idx):
        raise SystemExit(f"chunk {c} has only {len(perm)} contact positions: no shard {s}")
    rows = boards[idx]
    out = np.zeros((len(rows), 5), dtype=np.float64)
    t0 = time.time()
    for i, r in enumerate(rows.tolist()):
        out[i] = gnubg.probabilities((r[:25], r[25:]), plies)
        if i % 100 == 0 or i == len(rows) - 1:
            progress(i + 1, len(rows), t0, f"chunk {c} shard {s} {plies}-ply")
    os.makedirs(LABELS, exist_ok=True)
    path = shard_path(c, s)
    save_shard(path, idx, rows, encode_labels(out), plies)
    print(f"chunk {c} shard {s}: {len(rows)} positions in {time.time() - t0:.0f}s -> {path}",
          flush=True)


def digest(rows: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(rows, dtype=np.uint8).tobytes()).hexdigest()


def save_shard(path: str, idx: np.ndarray, rows: np.ndarray, q: np.ndarray, plies: int) -> None:
    gaps = np.diff(idx.astype(np.int64), prepend=0).astype(np.uint32)
    np.savez_compressed(path + ".tmp.npz", gaps=gaps, labels=q, sha256=np.array(digest(rows)),
                        plies=np.array(plies, dtype=np.uint8))
    os.replace(path + ".tmp.npz", path)


def read_shard(path: str) -> tuple[np.ndarray, np.ndarray, str]:
    """(position indices, uint16 labels, SHA-256 of the boards) of one shard."""
    d = np.load(path)
    return np.cumsum(d["gaps"].astype(np.int64)), d["labels"], str(d["sha256"])


def load(check: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every committed shard: (chunk index per row, position index, boards, labels as
    float32 probabilities). The boards come from the rebuilt chunks (cached in
    ``data/``), checked against each shard's SHA-256 unless ``check`` is false."""
    chunks, idxs, boards, labels = [], [], [], []
    cache: dict[int, np.ndarray] = {}
    for path in sorted(glob.glob(os.path.join(LABELS, "c*_s*.npz"))):
        c = int(os.path.basename(path)[1:].split("_")[0])
        idx, q, sha = read_shard(path)
        if c not in cache:
            cache[c] = chunk_boards(c)
        rows = cache[c][idx]
        if check and digest(rows) != sha:
            raise ValueError(f"{path}: its positions differ from chunk {c} as rebuilt here "
                             "(did gnubg-nn or gen.py change?)")
        chunks.append(np.full(len(idx), c, dtype=np.int16))
        idxs.append(idx.astype(np.uint32))
        boards.append(rows)
        labels.append(decode_labels(q))
    if not boards:
        return (np.zeros(0, np.int16), np.zeros(0, np.uint32), np.zeros((0, 50), np.uint8),
                np.zeros((0, 5), np.float32))
    return (np.concatenate(chunks), np.concatenate(idxs), np.concatenate(boards),
            np.concatenate(labels))


def one_ply_labels(chunks: np.ndarray, idxs: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """The 1-ply labels of shard rows (``load()``'s chunks, indices and boards),
    read from ``train.py``'s chunk files in ``data/``, which must hold the same
    positions."""
    from ai.training import gen

    out = np.zeros((len(idxs), 5), np.float32)
    for c in np.unique(chunks):
        path = os.path.join(DATA, gen.chunk_name(SEED, int(c), CHUNK_GAMES, 1))
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path} is missing: python -m ai.training.train "
                                    f"--chunks {int(c) + 1} --gen-only builds it")
        d = np.load(path)
        m = chunks == c
        if not np.array_equal(d["boards"][idxs[m]], boards[m]):
            raise ValueError(f"{path}: its positions differ from the 2-ply shards'")
        out[m] = d["labels"][idxs[m]]
    return out


def apply(boards: np.ndarray, labels: np.ndarray, sizes: list[int], shards,
          mean: bool = False) -> int:
    """Overwrite ``labels`` (the chunks' rows, concatenated; ``sizes``: rows per
    chunk) with the shards' labels (``load()``) of the same positions, or with
    the mean of the two (``mean``: the chunks' 1-ply labels and the shards' 2-ply
    ones, whose odd- and even-ply biases cancel); returns how many. Shards of
    chunks beyond these are left out."""
    ch, ix, bd, lb = shards
    starts = np.cumsum([0] + list(sizes))
    use = ch < len(sizes)
    rows = starts[ch[use]] + ix[use]
    if not np.array_equal(boards[rows], bd[use]):
        raise ValueError("the 2-ply shards' positions differ from the chunks here")
    labels[rows] = (labels[rows] + lb[use]) / 2 if mean else lb[use]
    return int(use.sum())


def status() -> None:
    files = sorted(glob.glob(os.path.join(LABELS, "c*_s*.npz")))
    by_chunk: dict[int, int] = {}
    n = 0
    for path in files:
        c = int(os.path.basename(path)[1:].split("_")[0])
        k = len(np.load(path)["gaps"])
        by_chunk[c] = by_chunk.get(c, 0) + k
        n += k
    size = sum(os.path.getsize(f) for f in files)
    print(f"{len(files)} shards, {n} positions labelled at 2-ply, {size / 1e6:.1f} MB")
    for c, k in sorted(by_chunk.items()):
        print(f"  chunk {c}: {k}")


def parse_range(text: str) -> range:
    a, _, b = text.partition("-")
    return range(int(a), int(b or a) + 1)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chunk", type=int, default=0)
    ap.add_argument("--shards", type=parse_range, help="e.g. 0-19")
    ap.add_argument("--plies", type=int, default=2)
    ap.add_argument("--status", action="store_true")
    a = ap.parse_args(argv)
    if a.status or a.shards is None:
        status()
        return
    todo = [s for s in a.shards if not os.path.exists(shard_path(a.chunk, s))]
    if not todo:
        print("nothing to do: those shards are labelled")
        return
    boards = chunk_boards(a.chunk)
    perm = order(a.chunk, boards)
    print(f"chunk {a.chunk}: {len(boards)} positions, {len(perm)} contact "
          f"({(len(perm) + SHARD - 1) // SHARD} shards); labelling shards {todo}", flush=True)
    for s in todo:
        if not os.path.exists(shard_path(a.chunk, s)):  # another process may have done it
            label_shard(a.chunk, s, boards, perm, a.plies)


if __name__ == "__main__":
    main(sys.argv[1:])
