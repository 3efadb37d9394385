"""The one input encoder shared by training and in-browser inference.

A board is ``(opponent, mover)``: two sequences of 25 checker counts in
GNU Backgammon's layout (index i = that side's own point i+1, index 24 = the
bar), exactly ``(pos.opponent, pos.mover)`` of an engine ``Position``. The
player on roll is ``mover``; every feature is seen from that side.

The encoding is sparse: :func:`encode` returns ``[(index, value), ...]`` with
only the non-zero inputs, so a net sums just those weight rows.

Layout (named offsets; ``SIDE`` = one side's block, mover first):

========================  =======================================================
``MOVER + 4*i + k``       mover's point i (0..23) or bar (i = 24), unit k:
                          k=0 n==1 (blot), k=1 n>=2, k=2 n>=3, k=3 (n-3)/2 if n>3
``MOVER + OFF``           mover's checkers borne off / 15
``MOVER + PIP``           mover's pip count / 100
``MOVER + BACK``          mover's rearmost checker's point / 25
``MOVER + HOME``          mover's checkers in own home board / 15
``OPPONENT + ...``        the same for the opponent
``CONTACT``               1 if some checker can still hit or be hit
========================  =======================================================

>>> start = (0,)*5 + (5, 0, 3) + (0,)*4 + (5,) + (0,)*10 + (2, 0)
>>> len(encode((start, start))) <= 60
True
"""

from __future__ import annotations

from typing import Sequence

Board = Sequence[Sequence[int]]  # (opponent[25], mover[25])

UNITS = 4  # per point
BAR_POINT = 24
OFF = UNITS * 25  # 100
PIP = OFF + 1
BACK = OFF + 2
HOME = OFF + 3
SIDE = OFF + 4  # 104 inputs per side
MOVER = 0
OPPONENT = SIDE
CONTACT = 2 * SIDE
N_INPUTS = CONTACT + 1  # 209

# POINT_UNITS[n] = the (unit, value) pairs of a point holding n checkers.
POINT_UNITS: tuple[tuple[tuple[int, float], ...], ...] = tuple(
    tuple(
        (k, v)
        for k, v in enumerate(
            (1.0 if n == 1 else 0.0, 1.0 if n >= 2 else 0.0, 1.0 if n >= 3 else 0.0,
             (n - 3) / 2.0 if n > 3 else 0.0)
        )
        if v
    )
    for n in range(16)
)


def pip_count(side: Sequence[int]) -> int:
    """Pips one side needs to bear off (bar counts as 25)."""
    return sum((i + 1) * n for i, n in enumerate(side) if n)


def is_contact(board: Board) -> bool:
    """True while some checker of one side still has to pass one of the other's.

    The mover's point i is the opponent's point 23 - i. Contact exists when
    the mover's rearmost checker is behind the opponent's rearmost one.
    """
    opp, me = board
    my_back = max((i for i in range(25) if me[i]), default=-1)
    opp_back = max((i for i in range(25) if opp[i]), default=-1)
    if my_back < 0 or opp_back < 0:
        return False
    # The opponent's own index j is the mover's own point 24 - j: contact
    # when the mover's rearmost point (my_back + 1) lies beyond it.
    return my_back + opp_back >= 24


def _side(side: Sequence[int], base: int, out: list) -> int:
    """Append one side's inputs; return its rearmost occupied index (-1: none)."""
    append = out.append
    back = -1
    home = 0
    pip = 0
    total = 0
    for i in range(25):
        n = side[i]
        if n:
            total += n
            pip += (i + 1) * n
            back = i
            if i < 6:
                home += n
            j = base + UNITS * i
            for k, v in POINT_UNITS[n]:
                append((j + k, v))
    off = 15 - total
    if off:
        append((base + OFF, off / 15.0))
    if pip:
        append((base + PIP, pip / 100.0))
        append((base + BACK, (back + 1) / 25.0))
    if home:
        append((base + HOME, home / 15.0))
    return back


def encode(board: Board) -> list[tuple[int, float]]:
    """Sparse inputs ``[(index, value), ...]`` of ``board`` for the player on roll."""
    opp, me = board
    out: list[tuple[int, float]] = []
    my_back = _side(me, MOVER, out)
    opp_back = _side(opp, OPPONENT, out)
    if my_back >= 0 and opp_back >= 0 and my_back + opp_back >= 24:  # see is_contact
        out.append((CONTACT, 1.0))
    return out


def encode_dense(board: Board) -> list[float]:
    """The same inputs as a dense list of :data:`N_INPUTS` floats (training)."""
    x = [0.0] * N_INPUTS
    for i, v in encode(board):
        x[i] = v
    return x


def is_race(board: Board) -> bool:
    """No contact: the race net (or the bear-off database) applies."""
    return not is_contact(board)
