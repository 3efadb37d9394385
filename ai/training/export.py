"""Write/read the compact weights file used by ai/net.py.

Format (little-endian): b"BGNN", u16 version=1, u16 n_in, u16 n_hidden,
u16 n_out, then float16 arrays: W1 as n_in rows of n_hidden (one row per
input, so a sparse input adds one row), b1[n_hidden], W2 as n_out rows of
n_hidden, b2[n_out].
"""

from __future__ import annotations

import struct

import numpy as np


def export(path: str, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray) -> None:
    """w1: (n_hidden, n_in) as torch stores it; w2: (n_out, n_hidden)."""
    n_hidden, n_in = w1.shape
    n_out = w2.shape[0]
    parts = [
        np.ascontiguousarray(w1.T, dtype="<f2").tobytes(),
        np.asarray(b1, dtype="<f2").tobytes(),
        np.ascontiguousarray(w2, dtype="<f2").tobytes(),
        np.asarray(b2, dtype="<f2").tobytes(),
    ]
    with open(path, "wb") as f:
        f.write(b"BGNN" + struct.pack("<4H", 1, n_in, n_hidden, n_out))
        for p in parts:
            f.write(p)


def read(path: str) -> dict:
    """A weights file back as float32 arrays in torch's layout: ``l1.weight``
    (n_hidden, n_in), ``l1.bias``, ``l2.weight`` (n_out, n_hidden), ``l2.bias``.
    ``export`` of these arrays writes the same bytes again."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:4] != b"BGNN":
        raise ValueError(f"{path}: not a BGNN weights file")
    _, n_in, n_hidden, n_out = struct.unpack("<4H", raw[4:12])
    a = np.frombuffer(raw, dtype="<f2", offset=12).astype(np.float32)
    sizes = [n_in * n_hidden, n_hidden, n_out * n_hidden, n_out]
    if len(a) != sum(sizes):
        raise ValueError(f"{path}: {len(a)} values, expected {sum(sizes)}")
    w1, b1, w2, b2 = np.split(a, np.cumsum(sizes)[:-1])
    return {"l1.weight": w1.reshape(n_in, n_hidden).T.copy(), "l1.bias": b1.copy(),
            "l2.weight": w2.reshape(n_out, n_hidden).copy(), "l2.bias": b2.copy()}


def quantised(a: np.ndarray) -> np.ndarray:
    """The float32 values the runtime sees after the float16 round trip."""
    return np.asarray(a, dtype=np.float16).astype(np.float32)
