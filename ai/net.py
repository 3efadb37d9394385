"""Pure-Python neural evaluator (standard library only; runs in Pyodide).

A net maps the sparse inputs of :mod:`ai.encoder` through one sigmoid hidden
layer to five sigmoid outputs, the probabilities for the player on roll:
``(win, win_gammon, win_backgammon, lose_gammon, lose_backgammon)``
(gammon outputs include backgammons, as in GNU Backgammon).

Speed: the hidden pre-activation is the bias plus the weight rows of the
active inputs only, and :meth:`Net.delta` starts from a sibling position's
pre-activation and adds just the rows whose inputs changed.

Weights are float16 in ``ai/weights/{contact,race}.bin`` (format in
``ai/training/export.py``), trained by ``python -m ai.training.train``.
"""

from __future__ import annotations

import math
import os
import struct
from operator import mul
from typing import Sequence

from ai import encoder

WEIGHTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights")

Probs = tuple  # (win, win_g, win_bg, lose_g, lose_bg)
_exp = math.exp
_tanh = math.tanh
SCALED_ROWS = 1500  # rows per generation of Net._row's cache


def _sig(x: float) -> float:
    if x < -40.0:
        return 0.0
    return 1.0 / (1.0 + _exp(-x))


def equity(p: Sequence[float]) -> float:
    """Cubeless equity with gammons (and backgammons) counting, for the player
    whose probabilities ``p`` are."""
    return 2.0 * p[0] - 1.0 + p[1] + p[2] - p[3] - p[4]


def sane(p: Sequence[float]) -> Probs:
    """Make raw net outputs consistent: gammons within wins (and losses),
    backgammons within gammons."""
    w, wg, wbg, lg, lbg = p
    if wg > w:
        wg = w
    if wbg > wg:
        wbg = wg
    lose = 1.0 - w
    if lg > lose:
        lg = lose
    if lbg > lg:
        lbg = lg
    return (w, wg, wbg, lg, lbg)


def invert(p: Sequence[float]) -> Probs:
    """The same outcome probabilities seen from the other side."""
    return (1.0 - p[0], p[3], p[4], p[1], p[2])


class Net:
    """One evaluator: ``Net.load(path)``, then ``evaluate(board)``.

    ``rows``, ``b1``, ``w2``, ``b2`` are the file's weights. The arithmetic
    uses ``sigmoid(x) = (1 + tanh(x / 2)) / 2``: a hidden unit is the tanh of
    half its pre-activation (so the inner loop is ``map(tanh, ...)``, in C),
    and the output layer absorbs the affine change. "Pre-activation" below
    means that halved value.
    """

    def __init__(self, rows: list, b1: list, w2: list, b2: list):
        self.rows = rows  # n_in lists of n_hidden floats
        self.b1 = b1
        self.w2 = w2  # 5 lists of n_hidden floats
        self.b2 = b2
        self.n_hidden = len(b1)
        self._rows = [[0.5 * r for r in row] for row in rows]
        self._b1 = [0.5 * b for b in b1]
        self._w2 = [[0.5 * w for w in ws] for ws in w2]
        self._b2 = [b + 0.5 * sum(ws) for b, ws in zip(b2, w2)]
        self._scaled: dict = {}  # (input, value) -> value * row, see _row
        self._old_scaled: dict = {}

    @classmethod
    def load(cls, path: str) -> "Net":
        with open(path, "rb") as f:
            data = f.read()
        if data[:4] != b"BGNN":
            raise ValueError(f"{path}: not a BGNN weights file")
        version, n_in, n_h, n_out = struct.unpack_from("<4H", data, 4)
        if version != 1 or n_in != encoder.N_INPUTS:
            raise ValueError(f"{path}: version {version}, {n_in} inputs; "
                             f"expected version 1, {encoder.N_INPUTS} inputs")
        count = n_in * n_h + n_h + n_out * n_h + n_out
        vals = struct.unpack_from(f"<{count}e", data, 12)
        k = 0
        rows = []
        for _ in range(n_in):
            rows.append(list(vals[k:k + n_h]))
            k += n_h
        b1 = list(vals[k:k + n_h])
        k += n_h
        w2 = []
        for _ in range(n_out):
            w2.append(list(vals[k:k + n_h]))
            k += n_h
        b2 = list(vals[k:k + n_out])
        return cls(rows, b1, w2, b2)

    # --- hidden layer -----------------------------------------------------
    def _row(self, i: int, v: float) -> list:
        """Input ``i``'s (halved) row times ``v``; cached, since most inputs
        take only a few dozen distinct values. A few contact features
        (mobility, pip loss, timing) take thousands over a search, so the
        cache has two generations of at most :data:`SCALED_ROWS` rows each
        (about 16 KB a row in CPython): when the new one is full it becomes
        the old one, and a row found in the old one moves to the new one."""
        if v == 1.0:
            return self._rows[i]
        key = (i, v)
        row = self._scaled.get(key)
        if row is None:
            row = self._old_scaled.get(key)
            if row is None:
                row = [v * r for r in self._rows[i]]
            if len(self._scaled) >= SCALED_ROWS:
                self._old_scaled = self._scaled
                self._scaled = {}
            self._scaled[key] = row
        return row

    def pre(self, feats: Sequence[tuple[int, float]]) -> list[float]:
        """Hidden pre-activation: bias + sum of the active inputs' rows."""
        row = self._row
        return list(map(sum, zip(self._b1, *[row(i, v) for i, v in feats])))

    def delta(self, acc: list[float], diff: dict) -> list[float]:
        """Pre-activation of a position whose inputs differ from those behind
        ``acc`` by ``diff`` ({index: (old value, new value)}, see
        :func:`feature_diff`).

        All the changed rows are summed in one pass (``zip`` + ``sum``), which
        in CPython and Pyodide is about twice as fast as adding them one by one.
        """
        row = self._row
        terms = [acc]
        append = terms.append
        for i, (old, new) in diff.items():
            if old and new:  # a changed value: one row for the change
                append(row(i, new - old))
            elif old:
                append(row(i, -old))
            else:
                append(row(i, new))
        return list(map(sum, zip(*terms)))

    def output(self, acc: Sequence[float]) -> Probs:
        """The five probabilities from a hidden pre-activation."""
        h = list(map(_tanh, acc))
        b2 = self._b2
        w = self._w2
        return (
            _sig(b2[0] + sum(map(mul, w[0], h))),
            _sig(b2[1] + sum(map(mul, w[1], h))),
            _sig(b2[2] + sum(map(mul, w[2], h))),
            _sig(b2[3] + sum(map(mul, w[3], h))),
            _sig(b2[4] + sum(map(mul, w[4], h))),
        )

    def evaluate(self, board) -> Probs:
        """Probabilities for the player on roll of ``board`` = (opponent, mover)."""
        return self.output(self.pre(encoder.encode(board)))


def feature_diff(old: Sequence[tuple[int, float]], new: Sequence[tuple[int, float]]) -> dict:
    """{index: (old value, new value)} over the inputs that differ."""
    before = dict(old)
    pop = before.pop
    d = {}
    for i, v in new:
        w = pop(i, 0.0)
        if w != v:
            d[i] = (w, v)
    for i, w in before.items():
        d[i] = (w, 0.0)
    return d


_NETS: dict = {}


def nets() -> tuple[Net, Net]:
    """(contact net, race net), loaded once."""
    if not _NETS:
        _NETS["contact"] = Net.load(os.path.join(WEIGHTS_DIR, "contact.bin"))
        _NETS["race"] = Net.load(os.path.join(WEIGHTS_DIR, "race.bin"))
    return _NETS["contact"], _NETS["race"]
