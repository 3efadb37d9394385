"""Pure-Python neural evaluator (standard library only; runs in Pyodide).

A net maps the sparse inputs of :mod:`ai.encoder` through one sigmoid hidden
layer to five sigmoid outputs, the probabilities for the player on roll:
``(win, win_gammon, win_backgammon, lose_gammon, lose_backgammon)``
(gammon outputs include backgammons, as in GNU Backgammon).

Speed: the hidden pre-activation is the bias plus the weight rows of the
active inputs only, and :meth:`Net.delta` starts from a sibling position's
pre-activation and adds just the rows whose inputs changed. The
pre-activation of all hidden units is held "packed" in one Python int, a
fixed-point field of :data:`FIELD_BITS` bits per unit, so that adding a row
is one big-integer addition (in C) instead of a loop over the hidden units;
:meth:`Net.output` unpacks it once to floats.

Weights are float16 in ``ai/weights/{contact,race}.bin`` (format in
``ai/training/export.py``), trained by ``python -m ai.training.train``.
"""

from __future__ import annotations

import math
import os
import struct
import sys
from array import array
from operator import mul
from typing import Sequence

from ai import encoder

WEIGHTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights")

Probs = tuple  # (win, win_g, win_bg, lose_g, lose_bg)
_exp = math.exp
_tanh = math.tanh

# Packed pre-activations. Unit k's value x is the integer f = round(x * 2**45),
# and a packed vector is the Python int sum(f_k * 2**(64 k)): the sum of
# packed rows is the packed sum, exactly. Its two's-complement bytes read as
# int64s give each f_k, or f_k - 1 where the units below it sum to less
# than zero (a borrow): unpacking is off by at most 2**-45 (and float
# rounding, for |x| > 256). An input's value v is quantized to
# m = round(v * 2**20) (an error of at most 5e-7 in v), and its row enters as
# m times the row packed at 2**25, i.e. one small-integer product, exact in
# int arithmetic: a delta from a sibling adds exactly what a full
# evaluation would. Net.__init__ refuses weights whose pre-activations could
# leave +/- 2**16 for inputs up to MAX_INPUT (the committed nets: under 711).
FIELD_BITS = 64
_FRAC_BITS = 45  # fixed-point bits of a field
_INPUT_BITS = 20  # fixed-point bits of an input value
_QUANT = float(1 << _INPUT_BITS)
_BIAS = 1 << 62
_UNSCALE = (2.0 ** -_FRAC_BITS).__mul__
_ORDER = sys.byteorder
MAX_INPUT = 8.0  # no encoder input exceeds this (tests/test_ai_model.py)


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
        limit = 2.0 ** (62 - _FRAC_BITS - 1)
        bound = max(abs(self._b1[k]) + MAX_INPUT * sum(abs(r[k]) for r in self._rows)
                    for k in range(self.n_hidden))
        if bound >= limit:
            raise ValueError(f"weights too large for packed evaluation: a hidden unit "
                             f"could reach {bound:.0f} (limit {limit:.0f})")
        self._nbytes = self.n_hidden * FIELD_BITS // 8
        self._offset = int.from_bytes(array("q", [_BIAS] * self.n_hidden).tobytes(), _ORDER)
        fine = _FRAC_BITS - _INPUT_BITS
        self._fine = [self._pack(row, fine) for row in self._rows]  # row / 2**20
        self._unit = [r << _INPUT_BITS for r in self._fine]  # the row itself
        self._packed_b1 = self._pack(self._b1, _FRAC_BITS)

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
    def _pack(self, values: Sequence[float], bits: int) -> int:
        """One float per hidden unit, packed as round(value * 2**bits) a field
        (see :data:`FIELD_BITS`; made with non-negative fields, then the
        offset taken off)."""
        scale = 2.0 ** bits
        fields = array("q", [round(v * scale) + _BIAS for v in values])
        return int.from_bytes(fields.tobytes(), _ORDER) - self._offset

    def unpack(self, acc: int):
        """The hidden pre-activations (halved, see the class) packed in
        ``acc``, as an iterator of floats."""
        fields = memoryview(acc.to_bytes(self._nbytes, _ORDER, signed=True)).cast("q")
        return map(_UNSCALE, fields)

    def pre(self, feats: Sequence[tuple[int, float]]) -> int:
        """Hidden pre-activation, packed: bias + the active inputs' rows."""
        unit = self._unit
        fine = self._fine
        return sum([unit[i] if v == 1.0 else fine[i] * round(v * _QUANT) for i, v in feats],
                   self._packed_b1)

    def delta(self, acc: int, diff: dict) -> int:
        """Packed pre-activation of a position whose inputs differ from those
        behind ``acc`` by ``diff`` ({index: (old value, new value)}, see
        :func:`feature_diff`): one row times the change of the input's
        quantized value (exactly what :meth:`pre` would have added)."""
        fine = self._fine
        for i, (old, new) in diff.items():
            m = round(new * _QUANT) - round(old * _QUANT)
            if m:
                acc += fine[i] * m
        return acc

    def output(self, acc: int) -> Probs:
        """The five probabilities from a packed hidden pre-activation."""
        h = list(map(_tanh, self.unpack(acc)))
        b2 = self._b2
        w = self._w2
        return (
            _sig(b2[0] + sum(map(mul, w[0], h))),
            _sig(b2[1] + sum(map(mul, w[1], h))),
            _sig(b2[2] + sum(map(mul, w[2], h))),
            _sig(b2[3] + sum(map(mul, w[3], h))),
            _sig(b2[4] + sum(map(mul, w[4], h))),
        )

    def equity(self, acc: int) -> float:
        """A one-output net's linear output (the pruning net's equity) from
        a packed hidden pre-activation (five-output nets: :meth:`output`)."""
        return self._b2[0] + sum(map(mul, self._w2[0], map(_tanh, self.unpack(acc))))

    def evaluate(self, board) -> Probs:
        """Probabilities for the player on roll of ``board`` = (opponent, mover)."""
        return self.output(self.pre(encoder.encode(board)))


class BoardTable:
    """A net that reads only the board inputs (the pruning net, the race
    net), evaluated straight from checker counts, without an encoding.

    Those inputs are linear in the counts of each point (the point units,
    and pip count, borne-off and home-board checkers), except the rearmost
    checker's point and ``CONTACT``. For boards with contact (``contact``
    True) or without, a board's packed pre-activation is ``bias + sum over
    points of points[side][point][count] + back[side][rearmost index + 1]``,
    and a sibling's is its base's plus the changed points' differences: the
    same sums as :meth:`Net.pre` of ``encoder.encode(board, False)``, up to
    the inputs' quantization.
    """

    def __init__(self, net: Net, contact: bool):
        E = encoder
        rows, pack = net._rows, net._pack
        n_h = net.n_hidden
        frac = _FRAC_BITS

        def combo(terms):  # sum of value * row over (input, value), packed
            acc = [0.0] * n_h
            for i, v in terms:
                r = rows[i]
                for k in range(n_h):
                    acc[k] += v * r[k]
            return pack(acc, frac)

        # every side has 15 checkers: OFF's constant part, 15/15
        fixed = [(E.MOVER + E.OFF, 1.0), (E.OPPONENT + E.OFF, 1.0)] + ([(E.CONTACT, 1.0)] if contact else [])
        self.bias = net._packed_b1 + combo(fixed)
        self.points = []  # [side][point] -> tuple over counts 0..15
        self.back = []  # [side][rearmost index + 1]
        for base in (E.MOVER, E.OPPONENT):
            side = []
            for i in range(25):
                cells = []
                for n in range(16):
                    terms = [(base + E.UNITS * i + k, v) for k, v in E.POINT_UNITS[n]]
                    if n:
                        terms += [(base + E.PIP, (i + 1) * n / 100.0), (base + E.OFF, -n / 15.0)]
                        if i < 6:
                            terms.append((base + E.HOME, n / 15.0))
                    cells.append(combo(terms))
                side.append(tuple(cells))
            self.points.append(side)
            self.back.append([0] + [combo([(base + E.BACK, (b + 1) / 25.0)]) for b in range(25)])

    def pre(self, board, backs) -> int:
        """Packed pre-activation of ``board`` = (opponent, mover), whose
        rearmost indices are ``backs`` = (mover's, opponent's)."""
        opp, me = board
        pm, po = self.points
        acc = self.bias + self.back[0][backs[0] + 1] + self.back[1][backs[1] + 1]
        for i in range(25):
            acc += pm[i][me[i]] + po[i][opp[i]]
        return acc

    def sibling(self, acc: int, base, base_backs, board, backs) -> int:
        """Packed pre-activation of ``board`` from ``acc``, that of ``base``
        (both (opponent, mover), with their rearmost indices)."""
        opp, me = board
        b_opp, b_me = base
        pm, po = self.points
        for i in range(25):
            n = me[i]
            if n != b_me[i]:
                acc += pm[i][n] - pm[i][b_me[i]]
            n = opp[i]
            if n != b_opp[i]:
                acc += po[i][n] - po[i][b_opp[i]]
        if backs[0] != base_backs[0]:
            acc += self.back[0][backs[0] + 1] - self.back[0][base_backs[0] + 1]
        if backs[1] != base_backs[1]:
            acc += self.back[1][backs[1] + 1] - self.back[1][base_backs[1] + 1]
        return acc


def backs(board) -> tuple:
    """(mover's, opponent's) rearmost occupied index of ``board`` =
    (opponent, mover) (-1: none left); contact while they sum to 24 or more."""
    return _back(board[1]), _back(board[0])


def _back(side) -> int:
    """The index of a side's rearmost checker (-1: none left)."""
    for i in range(24, -1, -1):
        if side[i]:
            return i
    return -1


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
    if "contact" not in _NETS:
        _NETS["contact"] = Net.load(os.path.join(WEIGHTS_DIR, "contact.bin"))
        _NETS["race"] = Net.load(os.path.join(WEIGHTS_DIR, "race.bin"))
    return _NETS["contact"], _NETS["race"]


def prune_net() -> Net | None:
    """The small pruning net that ranks the opponent's replies in the
    lookahead before the contact net evaluates the best few (``ai.search``;
    trained by ``python -m ai.training.prune`` from the contact net), loaded
    once; None for a weights folder without ``prune.bin`` (then the lookahead
    evaluates every reply with the contact net)."""
    if "prune" not in _NETS:
        path = os.path.join(WEIGHTS_DIR, "prune.bin")
        _NETS["prune"] = Net.load(path) if os.path.exists(path) else None
    return _NETS["prune"]
