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
``FEAT + k`` (contact)    hand-made contact features, mover's 5 then the
                          opponent's 5 (zero in races; see :func:`_contact_features`):
                          ``SHOTS`` rolls of 36 with which this side could hit a
                          blot, ``ESCAPE`` rolls of 36 on which its rearmost
                          checker can jump the other side's points,
                          ``CONTAINED`` 1 - the fewest escaping rolls from the
                          other side's home and outer boards, ``PRIME`` longest
                          run of made points / 6, ``CLOSED`` (home points made
                          / 6) squared (the other side's chance to stay out)
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
FEAT = CONTACT + 1
SHOTS, ESCAPE, CONTAINED, PRIME, CLOSED = range(5)
N_FEAT = 5  # per side
N_INPUTS = FEAT + 2 * N_FEAT  # 219

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



# --- hand-made contact features ----------------------------------------------
# The 21 distinct rolls as bits; doubles weigh 1/36, the others 2/36.
_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
_BIT = {r: 1 << k for k, r in enumerate(_ROLLS)}
_NONDOUBLE_BITS = sum(_BIT[r] for r in _ROLLS if r[0] != r[1])
_DOUBLE_BITS = sum(_BIT[r] for r in _ROLLS if r[0] == r[1])
# int.bit_count is Python 3.10+; the fallback lets PyPy 3.9 run benchmarks.
_popcount = getattr(int, "bit_count", None) or (lambda x: bin(x).count("1"))


def _shot_table():
    """For each distance k (1..24): (rolls that always hit from k, [(roll bit,
    paths)]) where a path is a bit mask of the distances of intermediate
    landing points that must all be open; one open path is enough."""
    table = [(0, ())]
    for k in range(1, 25):
        always = 0
        cond: dict = {}
        for a, b in _ROLLS:
            bit = _BIT[(a, b)]
            if a == k or b == k:
                always |= bit
            elif a != b and a + b == k:
                cond[bit] = (1 << a, 1 << b)
            elif a == b and k % a == 0 and k // a <= 4:
                cond[bit] = (sum(1 << (a * m) for m in range(1, k // a)),)
        table.append((always, tuple(cond.items())))
    return tuple(table)


_SHOTS = _shot_table()


def _escape_table() -> tuple:
    """Rolls of 36 on which a checker jumps a pattern of 12 points in front of
    it (bit j-1 set: the point j pips ahead is made), like gnubg's Escapes."""
    out = []
    for pat in range(4096):
        c = 0
        for a in range(1, 7):
            for b in range(1, 7):
                if not pat & (1 << (a + b - 1)) and not (pat & (1 << (a - 1)) and pat & (1 << (b - 1))):
                    c += 1
        out.append(c)
    return tuple(out)


_ESCAPES = _escape_table()


def shots(attacker: Sequence[int], defender: Sequence[int], defender_made: int = -1) -> int:
    """Rolls (of 36) with which ``attacker``, on roll, could hit one of
    ``defender``'s blots (intermediate points must be open; with two or more
    checkers on the bar only hits from the bar count). ``defender_made`` is
    :func:`_made_mask` of ``defender`` when already known."""
    blots = [b for b in range(24) if defender[b] == 1]
    if not blots:
        return 0
    if defender_made < 0:
        defender_made = _made_mask(defender)
    # bit o of (made << 1) >> (24 - s): the point o pips ahead of the attacker's
    # index s is made (the defender's index 23 - (s - o)).
    made = defender_made << 1
    sources = (24,) if attacker[24] >= 2 else [i for i in range(25) if attacker[i]]
    mask = 0
    table = _SHOTS
    for s in sources:
        ahead = made >> (24 - s)
        for b in blots:
            k = s - 23 + b  # the blot is at the attacker's index 23 - b
            if k <= 0:
                continue
            always, cond = table[k]
            mask |= always
            for bit, paths in cond:
                if not mask & bit:
                    for path in paths:
                        if not ahead & path:
                            mask |= bit
                            break
    return 2 * _popcount(mask & _NONDOUBLE_BITS) + _popcount(mask & _DOUBLE_BITS)


def _made_mask(side: Sequence[int]) -> int:
    m = 0
    bit = 1
    for n in side[:24]:
        if n >= 2:
            m |= bit
        bit <<= 1
    return m


def _side_features(me: Sequence[int], opp: Sequence[int], my_back: int, opp_made: int,
                   my_made: int) -> tuple:
    esc = _ESCAPES
    back = esc[(opp_made >> (24 - my_back)) & 0xFFF] if my_back >= 0 else 36
    fewest = min(esc[(opp_made >> (24 - n)) & 0xFFF] for n in range(15, 25))
    best = 0  # the longest run of made points
    m = my_made
    while m and best < 6:
        m &= m >> 1
        best += 1
    home = _popcount(my_made & 0x3F)
    return (shots(me, opp, opp_made) / 36.0, back / 36.0, 1.0 - fewest / 36.0,
            best / 6.0, (home / 6.0) ** 2)


def _contact_features(me: Sequence[int], opp: Sequence[int], my_back: int, opp_back: int,
                      out: list) -> None:
    my_made = _made_mask(me)
    opp_made = _made_mask(opp)
    append = out.append
    for base, vals in ((FEAT, _side_features(me, opp, my_back, opp_made, my_made)),
                       (FEAT + N_FEAT, _side_features(opp, me, opp_back, my_made, opp_made))):
        for k, v in enumerate(vals):
            if v:
                append((base + k, v))


def encode(board: Board) -> list[tuple[int, float]]:
    """Sparse inputs ``[(index, value), ...]`` of ``board`` for the player on roll."""
    opp, me = board
    out: list[tuple[int, float]] = []
    my_back = _side(me, MOVER, out)
    opp_back = _side(opp, OPPONENT, out)
    if my_back >= 0 and opp_back >= 0 and my_back + opp_back >= 24:  # see is_contact
        _contact_features(me, opp, my_back, opp_back, out)
        out.append((CONTACT, 1.0))  # last: search.py tests feats[-1]
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
