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
``EXT + k`` (contact)     more contact features, mover's 13 then the
                          opponent's 13 (zero in races), after GNU Backgammon's
                          contact inputs (their names in brackets; "the
                          blocker" is the other side's rearmost checker):
                          ``BREAK`` [break contact] pips this side needs to
                          bring every checker past the blocker / 167,
                          ``FREEPIP`` pips of its checkers already past it
                          / 100, ``TIMING`` pips it can play without breaking
                          its home points or its points beyond the blocker
                          / 100, ``BANCHOR`` (rearmost made point + 1) / 25,
                          ``FANCHOR`` most forward point made in the other
                          side's home board (its 1- to 6-point: 1/6 .. 1; its
                          outer board: 7/6 .. 2; none: 2), ``ACONTAIN`` 1 - the
                          fewest escaping rolls of 36 from its rearmost
                          checker's point to its 15-point, ``MOBILITY`` escaping
                          rolls times distance from home, summed over its
                          checkers outside home / 3600, ``MOMENT2`` mean squared
                          distance beyond the mean point of the checkers
                          behind it / 400, ``ENTER`` with checkers on the bar,
                          the pips of the 36 rolls that cannot enter, / 36 /
                          (49/6), ``BACKG`` two or more points held in the other
                          side's home: (checkers there and on the bar - 3) / 4,
                          ``BACKG1`` exactly one: those checkers / 8,
                          ``PIPLOSS`` over the 36 rolls, the pips travelled by
                          the costliest blot each roll could hit / 12 / 36,
                          ``P2`` rolls of 36 that could hit two different blots
                          (as if the roll could do both) / 36
========================  =======================================================

>>> start = (0,)*5 + (5, 0, 3) + (0,)*4 + (5,) + (0,)*10 + (2, 0)
>>> len(encode((start, start))) <= 80
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
EXT = FEAT + 2 * N_FEAT  # 219
(BREAK, FREEPIP, TIMING, BANCHOR, FANCHOR, ACONTAIN, MOBILITY, MOMENT2, ENTER, BACKG, BACKG1,
 PIPLOSS, P2) = range(13)
N_EXT = 13  # per side
N_INPUTS = EXT + 2 * N_EXT  # 245

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
    if defender_made < 0:
        defender_made = _made_mask(defender)
    return hit_stats(attacker, defender, defender_made)[0]


def _made_mask(side: Sequence[int]) -> int:
    m = 0
    bit = 1
    for n in side[:24]:
        if n >= 2:
            m |= bit
        bit <<= 1
    return m


def hit_stats(attacker: Sequence[int], defender: Sequence[int],
              defender_made: int) -> tuple[int, int, int]:
    """(rolls of 36 that hit a blot, as :func:`shots`; pips summed over the 36
    rolls of the costliest blot each roll could hit, a blot on the
    defender's index b having travelled 24 - b; rolls of 36 that could hit
    two different blots), with the reach of :func:`shots`."""
    made = defender_made << 1
    sources = (24,) if attacker[24] >= 2 else [i for i in range(25) if attacker[i]]
    table = _SHOTS
    masks = []  # (pips the blot has travelled, rolls that hit it)
    for b in range(24):  # the costliest blot first
        if defender[b] != 1:
            continue
        mask = 0
        for s in sources:
            k = s - 23 + b  # the blot is at the attacker's index 23 - b
            if k <= 0:
                continue
            always, cond = table[k]
            mask |= always
            # bit o of ahead: the point o pips ahead of s is made
            ahead = made >> (24 - s)
            for bit, paths in cond:
                if not mask & bit:
                    for path in paths:
                        if not ahead & path:
                            mask |= bit
                            break
        if mask:
            masks.append((24 - b, mask))
    covered = twice = pips = 0
    for p, m in masks:
        new = m & ~covered
        if new:
            pips += p * (2 * _popcount(new & _NONDOUBLE_BITS) + _popcount(new & _DOUBLE_BITS))
        twice |= covered & m
        covered |= m
    return (2 * _popcount(covered & _NONDOUBLE_BITS) + _popcount(covered & _DOUBLE_BITS), pips,
            2 * _popcount(twice & _NONDOUBLE_BITS) + _popcount(twice & _DOUBLE_BITS))


def _enter_loss(closed: int, two: bool) -> int:
    """Pips, summed over the 36 rolls, that a side with one (``two``: two or
    more) checkers on the bar cannot play; ``closed``: the other side's home
    points made, bit d-1 for the point a d enters on."""
    loss = 0
    for a in range(1, 7):
        ca = closed >> (a - 1) & 1
        for b in range(a, 7):
            cb = closed >> (b - 1) & 1
            if a == b:
                if ca:
                    loss += 4 * a  # one roll of 36: all four dice lost
            elif ca and cb:
                loss += 2 * (a + b)  # two rolls of 36: both dice lost
            elif two and (ca or cb):
                loss += 2 * (a if ca else b)  # the open die enters one of the two
    return loss


_ENTER = tuple((_enter_loss(m, False) / 294.0, _enter_loss(m, True) / 294.0) for m in range(64))


def _side_features(me: Sequence[int], opp: Sequence[int], my_back: int, opp_back: int,
                   opp_made: int, my_made: int) -> tuple:
    """One side's ``FEAT`` and ``EXT`` features (contact positions only)."""
    esc = _ESCAPES
    # escaping rolls from this side's points 15..24 (index 0 = point 15)
    outer = [esc[(opp_made >> (24 - i)) & 0xFFF] for i in range(15, 25)]
    back = outer[my_back - 15] if my_back >= 15 else esc[(opp_made >> (24 - my_back)) & 0xFFF]
    fewest = min(outer)
    a_fewest = min(outer[:my_back - 14]) if my_back >= 15 else 36
    best = 0  # the longest run of made points
    m = my_made
    while m and best < 6:
        m &= m >> 1
        best += 1
    home = _popcount(my_made & 0x3F)
    n_shots, pips_hit, two = hit_stats(me, opp, opp_made)

    ob = 23 - opp_back  # the blocker as this side's index
    brk = free = tot = s = mob = 0
    occupied = []
    for i in range(25):
        n = me[i]
        if n:
            occupied.append(i)
            tot += n
            s += i * n
            if i >= ob:
                brk += (i + 1 - ob) * n
            else:
                free += (i + 1) * n
            if i >= 6:
                mob += (i - 5) * n * (outer[i - 15] if i >= 15
                                      else esc[(opp_made >> (24 - i)) & 0xFFF])
    mean = (s + tot - 1) // tot
    behind = k = 0
    for i in occupied:
        if i > mean:
            n = me[i]
            behind += n
            k += n * (i - mean) * (i - mean)
    if behind:
        k = (k + behind - 1) // behind
    # timing
    lim = ob if ob >= 11 else 11
    t = 24 * me[24]
    spare = me[24]
    for i in range(23, 5, -1):
        n = me[i]
        if n:
            if i > lim:  # beyond the blocker: a held point keeps two
                if n != 2:
                    c = n - 2 if n > 2 else 1
                    spare += c
                    t += i * c
            else:
                spare += n
                t += i * n
    for i in range(5, -1, -1):
        n = me[i]
        if n > 2:
            t += i * (n - 2)
            spare += n - 2
        elif n < 2 and spare >= 2 - n:  # fill an open home point
            t -= i * (2 - n)
            spare -= 2 - n
    # anchors
    start = 23 if my_back == 24 else my_back
    below = my_made & ((2 << start) - 1)
    anchor = below.bit_length() - 1
    fwd = 0
    deep = (below >> 18) & 0x3F  # made points in the other side's home, up to the anchor
    if deep:
        fwd = 6 - ((deep & -deep).bit_length() - 1)
    else:
        mid = (my_made >> 12) & 0x3F
        if mid:
            fwd = 12 - (mid.bit_length() - 1)
    held = _popcount((my_made >> 18) & 0x3F)
    bg = bg1 = 0.0
    if held:
        n = me[18] + me[19] + me[20] + me[21] + me[22] + me[23] + me[24]
        if held > 1:
            bg = (n - 3) / 4.0
        else:
            bg1 = n / 8.0
    return ((n_shots / 36.0, back / 36.0, 1.0 - fewest / 36.0, best / 6.0, (home / 6.0) ** 2),
            (brk / 167.0, free / 100.0, (t if t > 0 else 0) / 100.0, (anchor + 1) / 25.0,
             fwd / 6.0 if fwd else 2.0, 1.0 - a_fewest / 36.0, mob / 3600.0, k / 400.0,
             _ENTER[opp_made & 0x3F][me[24] > 1] if me[24] else 0.0, bg, bg1,
             pips_hit / 432.0, two / 36.0))


def _contact_features(me: Sequence[int], opp: Sequence[int], my_back: int, opp_back: int,
                      out: list) -> None:
    my_made = _made_mask(me)
    opp_made = _made_mask(opp)
    append = out.append
    mine = _side_features(me, opp, my_back, opp_back, opp_made, my_made)
    theirs = _side_features(opp, me, opp_back, my_back, my_made, opp_made)
    for base, vals in ((FEAT, mine[0]), (FEAT + N_FEAT, theirs[0]),
                       (EXT, mine[1]), (EXT + N_EXT, theirs[1])):
        for k, v in enumerate(vals):
            if v:
                append((base + k, v))


def encode(board: Board, features: bool = True) -> list[tuple[int, float]]:
    """Sparse inputs ``[(index, value), ...]`` of ``board`` for the player on roll.

    ``features=False``: only the board's inputs (the two sides' blocks and
    ``CONTACT``), without the hand-made contact features (``FEAT``, ``EXT``),
    which cost most of the time; the pruning net reads only these."""
    opp, me = board
    out: list[tuple[int, float]] = []
    my_back = _side(me, MOVER, out)
    opp_back = _side(opp, OPPONENT, out)
    if my_back >= 0 and opp_back >= 0 and my_back + opp_back >= 24:  # see is_contact
        if features:
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
