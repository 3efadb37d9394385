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


def quantised(a: np.ndarray) -> np.ndarray:
    """The float32 values the runtime sees after the float16 round trip."""
    return np.asarray(a, dtype=np.float16).astype(np.float32)
