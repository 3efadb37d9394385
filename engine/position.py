"""Positions: the checkers of both sides, who is on roll, and gnubg Position IDs.

A :class:`Position` is an immutable value.  Internally it keeps each side's
checkers in GNU Backgammon's layout, from that side's own point of view:
a tuple of 25 counts where index ``i`` is the side's own point ``i + 1``
(own point 1 is the last point before bearing off) and index 24 is the bar.
Borne-off checkers are the ones missing from 15.

Absolute numbering (used by the board and the rules page): White moves from
24 down to 1 (home board 1-6), Black from 1 up to 24 (home board 19-24).
White's own point ``n`` is absolute ``n``; Black's own point ``n`` is
absolute ``25 - n``.

>>> p = Position.start()
>>> p.id
'4HPwATDgc/ABMA'
>>> p.pip("white"), p.pip("black")
(167, 167)
>>> p.count("black", 19)
5
"""
import binascii

from .errors import PositionIdError

WHITE = "white"
BLACK = "black"
COLORS = (WHITE, BLACK)
CHECKERS = 15
BAR = 25  # own-numbering index of the bar in steps and notation
OFF = 0  # own-numbering index of "borne off"

_START_SIDE = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_DIGITS = "0123456789"


def other(color: str) -> str:
    """The other colour. ``other("white") == "black"``."""
    if color == WHITE:
        return BLACK
    if color == BLACK:
        return WHITE
    raise ValueError(f"unknown colour {color!r}: use 'white' or 'black'")


def to_absolute(color: str, own: int) -> int | str:
    """Convert ``color``'s own point number (25 = bar, 0 = off) to the absolute one.

    >>> to_absolute("black", 1), to_absolute("white", 1), to_absolute("black", 25)
    (24, 1, 'bar')
    """
    if own == BAR:
        return "bar"
    if own == OFF:
        return "off"
    return own if color == WHITE else 25 - own


def from_absolute(color: str, point: int | str) -> int:
    """Convert an absolute point (1-24, ``"bar"`` or ``"off"``) to ``color``'s own number."""
    if point == "bar":
        return BAR
    if point == "off":
        return OFF
    p = int(point)
    if not 1 <= p <= 24:
        raise ValueError(f"point {point!r} is not on the board: use 1-24, 'bar' or 'off'")
    return p if color == WHITE else 25 - p


# --- gnubg Position ID --------------------------------------------------------

def encode_position_id(not_on_roll, on_roll) -> str:
    """gnubg's Position ID of two 25-slot sides (the side NOT on roll first)."""
    key = 0
    bit = 0
    for side in (not_on_roll, on_roll):
        for n in side:
            if n:
                key |= ((1 << n) - 1) << bit
                bit += n + 1
            else:
                bit += 1
    return binascii.b2a_base64(key.to_bytes(10, "little"), newline=False).decode()[:14]


def decode_position_id(position_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Decode a gnubg Position ID into (side not on roll, side on roll).

    :raises PositionIdError: if the ID is malformed or describes an impossible position.
    """
    if not isinstance(position_id, str) or len(position_id) != 14 or any(c not in _BASE64 for c in position_id):
        raise PositionIdError(
            f"bad Position ID {position_id!r}: expected 14 characters of A-Z, a-z, 0-9, + or /"
        )
    raw = binascii.a2b_base64((position_id + "==").encode())
    key = int.from_bytes(raw[:10], "little")
    sides: list[list[int]] = [[], []]
    bit = 0
    for s in range(2):
        side = sides[s]
        for _ in range(25):
            n = 0
            while (key >> bit) & 1:
                n += 1
                bit += 1
                if bit >= 80:
                    raise PositionIdError(f"bad Position ID {position_id!r}: too many checkers")
            bit += 1
            side.append(n)
        if sum(side) > CHECKERS:
            raise PositionIdError(
                f"bad Position ID {position_id!r}: a side has {sum(side)} checkers (at most 15)"
            )
    if key >> bit:
        raise PositionIdError(f"bad Position ID {position_id!r}: trailing bits after both sides")
    a, b = sides
    for i in range(24):
        if a[i] and b[23 - i]:
            raise PositionIdError(
                f"bad Position ID {position_id!r}: both sides have checkers on the same point"
            )
    return tuple(a), tuple(b)


# --- Position -----------------------------------------------------------------

class Position:
    """An immutable backgammon position with the side on roll.

    ``mover`` and ``opponent`` are 25-tuples in gnubg layout (see module doc),
    ``turn`` the colour on roll.  Positions are equal when all three are, and
    hashable (the hash is computed once and kept).  Never assign to them.
    """

    __slots__ = ("mover", "opponent", "turn", "_hash")

    def __init__(self, mover, opponent, turn: str = WHITE):
        m = tuple(int(n) for n in mover)
        o = tuple(int(n) for n in opponent)
        if len(m) != 25 or len(o) != 25:
            raise ValueError("each side needs 25 counts (24 points and the bar)")
        if min(m) < 0 or min(o) < 0:
            raise ValueError("checker counts cannot be negative")
        if sum(m) > CHECKERS or sum(o) > CHECKERS:
            raise ValueError("a side cannot have more than 15 checkers")
        for i in range(24):
            if m[i] and o[23 - i]:
                raise ValueError(f"both sides have checkers on the same point ({i + 1})")
        if turn not in COLORS:
            raise ValueError(f"unknown colour {turn!r}: use 'white' or 'black'")
        self.mover = m
        self.opponent = o
        self.turn = turn
        self._hash: int | None = None

    @classmethod
    def _raw(cls, mover: tuple, opponent: tuple, turn: str) -> "Position":
        """Trusted fast constructor (no validation) for the move generator."""
        p = _new(cls)
        p.mover = mover
        p.opponent = opponent
        p.turn = turn
        p._hash = None
        return p

    def __eq__(self, other) -> bool:
        if self is other:
            return True
        if not isinstance(other, Position):
            return NotImplemented
        return self.mover == other.mover and self.opponent == other.opponent and self.turn == other.turn

    def __ne__(self, other) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash((self.mover, self.opponent, self.turn))
        return h

    def __repr__(self) -> str:
        return f"Position.from_id({self.id!r}, turn={self.turn!r})"

    # constructors
    @classmethod
    def start(cls, turn: str = WHITE) -> "Position":
        """The starting position with ``turn`` on roll."""
        return cls._raw(_START_SIDE, _START_SIDE, turn)

    @classmethod
    def from_id(cls, position_id: str, turn: str = WHITE) -> "Position":
        """Decode a gnubg Position ID; ``turn`` is the colour of the player on roll.

        :raises PositionIdError: malformed ID.
        """
        opp, mover = decode_position_id(position_id)
        if turn not in COLORS:
            raise ValueError(f"unknown colour {turn!r}: use 'white' or 'black'")
        return cls._raw(mover, opp, turn)

    @property
    def id(self) -> str:
        """gnubg Position ID (the player on roll as gnubg defines it)."""
        return encode_position_id(self.opponent, self.mover)

    # views by colour
    def side(self, color: str) -> tuple[int, ...]:
        """The 25-slot tuple of ``color``'s checkers in its own numbering."""
        if color == self.turn:
            return self.mover
        if color == other(self.turn):
            return self.opponent
        raise ValueError(f"unknown colour {color!r}")

    def count(self, color: str, point: int) -> int:
        """Number of ``color`` checkers on absolute point 1-24."""
        return self.side(color)[from_absolute(color, point) - 1]

    def bar(self, color: str) -> int:
        """Number of ``color`` checkers on the bar."""
        return self.side(color)[24]

    def off(self, color: str) -> int:
        """Number of ``color`` checkers borne off."""
        return CHECKERS - sum(self.side(color))

    def pip(self, color: str) -> int:
        """Pip count: the total number of pips ``color`` needs to bear everything off."""
        return sum((i + 1) * n for i, n in enumerate(self.side(color)))

    def owner(self, point: int) -> tuple[str | None, int]:
        """(colour, count) of the checkers on absolute point 1-24; (None, 0) if empty."""
        w = self.count(WHITE, point)
        if w:
            return WHITE, w
        b = self.count(BLACK, point)
        if b:
            return BLACK, b
        return None, 0

    def points(self):
        """(absolute point, colour or None, count) for points 1-24."""
        for p in range(1, 25):
            c, n = self.owner(p)
            yield p, c, n

    def swap(self) -> "Position":
        """The same checkers with the other side on roll."""
        return Position._raw(self.opponent, self.mover, other(self.turn))

    def with_turn(self, turn: str) -> "Position":
        """The same checkers with ``turn`` on roll."""
        return self if turn == self.turn else self.swap()

    def winner(self) -> str | None:
        """The colour that has borne off all 15 checkers, or None."""
        if not any(self.mover):
            return self.turn
        if not any(self.opponent):
            return other(self.turn)
        return None

    def is_race(self) -> bool:
        """True when no contact is left: no checker can ever hit another."""
        m, o = self.mover, self.opponent
        if m[24] or o[24]:
            return False
        # mover's farthest checker (own numbering) vs the opponent's farthest,
        # expressed in the mover's numbering (own point j of opponent = 25 - j).
        back_m = max([i + 1 for i in range(24) if m[i]], default=0)
        back_o = max([i + 1 for i in range(24) if o[i]], default=0)
        return back_m + back_o <= 25  # no mover checker behind an opponent checker

    # rules helpers (implemented in movegen; imported lazily to keep modules small)
    def legal_plays(self, d1: int, d2: int):
        """Every legal play for the roll, one per distinct resulting position.

        An empty list means no legal play: the turn is forfeited.

        >>> len(Position.start().legal_plays(3, 1))
        16
        """
        from .movegen import legal_plays

        return legal_plays(self, d1, d2)

    def parse_play(self, text: str, d1: int, d2: int):
        """The legal play written ``text`` in gnubg notation, for this roll.

        :raises NotationError: the text is not move notation.
        :raises IllegalPlayError: it is notation, but not a legal play here.
        """
        from .notation import parse_play

        return parse_play(self, text, d1, d2)


_new = object.__new__


def _small_number(text: str) -> int | None:
    """``text`` as a number if it is one or two ASCII digits, else None."""
    if 1 <= len(text) <= 2 and all(c in _DIGITS for c in text):
        return int(text)
    return None


def build(spec: str, turn: str = WHITE) -> Position:
    """Compact position builder for tests and docs, absolute numbering.

    ``"w 24:2 13:5 8:3 6:5; b 1:2 12:5 17:3 19:5"``; ``bar:N`` puts checkers on
    the bar.  Checkers not listed are borne off.

    >>> build("w 24:2 13:5 8:3 6:5; b 1:2 12:5 17:3 19:5") == Position.start()
    True
    """
    sides = {WHITE: [0] * 25, BLACK: [0] * 25}
    for part in spec.split(";"):
        tokens = part.split()
        if not tokens:
            continue
        who = tokens[0].lower()
        color = {"w": WHITE, "white": WHITE, "b": BLACK, "black": BLACK}.get(who)
        if color is None:
            raise ValueError(f"bad position spec {part.strip()!r}: start with 'w' or 'b'")
        side = sides[color]
        for tok in tokens[1:]:
            where, colon, count = tok.partition(":")
            n = _small_number(count)
            point = where if where in ("bar", "off") else _small_number(where)
            if not colon or n is None or point is None:
                raise ValueError(f"bad position spec token {tok!r}: use POINT:COUNT, bar:N or off:N")
            if point == "off":
                continue
            side[from_absolute(color, point) - 1] += n
    return Position(sides[turn], sides[other(turn)], turn)
