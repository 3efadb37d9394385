"""Exact points: whole numbers of thirds, as the AI levels scale a win by level/3.

``str()`` writes them as a reduced fraction, ``"5/3"``, ``"2"``, ``"1/3"``, the
form the result and the leaderboard show and store; :meth:`Points.parse`
reads that form back.

>>> p = Points(10, 6)
>>> str(p), p.numerator, p.denominator, float(p)
('5/3', 5, 3, 1.6666666666666667)
>>> str(sum([Points(1, 3), Points(2, 3), Points(2)]))
'3'
>>> Points.parse("4/3") > 1
True
"""


class Points:
    """A number of points, an exact multiple of 1/3.

    ``Points(numerator, denominator=1)``; compares, adds and subtracts with
    other ``Points`` and with whole numbers, multiplies by whole numbers.
    """

    __slots__ = ("thirds",)

    def __init__(self, numerator: int = 0, denominator: int = 1):
        if not _is_int(numerator) or not _is_int(denominator):
            raise TypeError("points are whole numbers of thirds: give integers")
        if denominator == 0:
            raise ValueError("points: the denominator cannot be 0")
        thirds, rest = divmod(numerator * 3, denominator)
        if rest:
            raise ValueError(f"{numerator}/{denominator} is not a whole number of thirds")
        self.thirds = thirds

    @classmethod
    def parse(cls, text: str) -> "Points":
        """Read ``"5/3"``, ``"2"``, ``"-1/3"`` (what ``str()`` writes; spaces around are ignored).

        :raises ValueError: anything else, a zero denominator, or a value that is not in thirds.
        """
        if not isinstance(text, str):
            raise ValueError(f"points must be text like '5/3', not {type(text).__name__}")
        num, slash, den = text.strip().partition("/")
        if not _is_numeral(num, signed=True) or (slash and not _is_numeral(den, signed=False)):
            raise ValueError(f"cannot read points {text!r}: write them like 5/3 or 2")
        return cls(int(num), int(den) if slash else 1)

    @property
    def numerator(self) -> int:
        """The numerator of the reduced fraction."""
        return self.thirds // 3 if self.thirds % 3 == 0 else self.thirds

    @property
    def denominator(self) -> int:
        """The denominator of the reduced fraction: 1 or 3."""
        return 1 if self.thirds % 3 == 0 else 3

    def __str__(self) -> str:
        d = self.denominator
        return str(self.numerator) if d == 1 else f"{self.numerator}/{d}"

    def __repr__(self) -> str:
        return f"Points({self.numerator}, {self.denominator})"

    def __float__(self) -> float:
        return self.thirds / 3

    def __bool__(self) -> bool:
        return self.thirds != 0

    def __hash__(self) -> int:
        return hash(self.thirds // 3) if self.thirds % 3 == 0 else hash(("points", self.thirds))

    def __eq__(self, other) -> bool:
        t = _thirds(other)
        return NotImplemented if t is None else self.thirds == t

    def __ne__(self, other) -> bool:
        t = _thirds(other)
        return NotImplemented if t is None else self.thirds != t

    def __lt__(self, other) -> bool:
        return self.thirds < _operand(other)

    def __le__(self, other) -> bool:
        return self.thirds <= _operand(other)

    def __gt__(self, other) -> bool:
        return self.thirds > _operand(other)

    def __ge__(self, other) -> bool:
        return self.thirds >= _operand(other)

    def __add__(self, other) -> "Points":
        return _from_thirds(self.thirds + _operand(other))

    __radd__ = __add__

    def __sub__(self, other) -> "Points":
        return _from_thirds(self.thirds - _operand(other))

    def __rsub__(self, other) -> "Points":
        return _from_thirds(_operand(other) - self.thirds)

    def __mul__(self, other) -> "Points":
        if not _is_int(other):
            raise TypeError("points multiply by whole numbers only")
        return _from_thirds(self.thirds * other)

    __rmul__ = __mul__

    def __neg__(self) -> "Points":
        return _from_thirds(-self.thirds)


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_numeral(text: str, signed: bool) -> bool:
    digits = text[1:] if signed and text[:1] in ("-", "+") else text
    return bool(digits) and all(c in "0123456789" for c in digits)


def _thirds(x) -> int | None:
    if isinstance(x, Points):
        return x.thirds
    if _is_int(x):
        return x * 3
    return None


def _operand(x) -> int:
    t = _thirds(x)
    if t is None:
        raise TypeError(f"points combine with points and whole numbers, not {type(x).__name__}")
    return t


def _from_thirds(thirds: int) -> Points:
    p = Points()
    p.thirds = thirds
    return p
