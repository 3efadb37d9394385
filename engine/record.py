"""``TupleRecord``: a small value class that behaves like the tuple of its fields.

The engine's records (``Step``, ``HistoryEntry``) were ``NamedTuple``s, which
MicroPython lacks; a subclass names its fields in ``__slots__`` and gives
``_tuple()``, and this base makes it unpack, index, compare and hash as that
tuple does (``Step(24, 21, 3) == (24, 21, 3, False)``).
"""


class TupleRecord:
    __slots__ = ()

    def _tuple(self) -> tuple:
        raise NotImplementedError

    def __iter__(self):
        return iter(self._tuple())

    def __getitem__(self, index):
        return self._tuple()[index]

    def __len__(self) -> int:
        return len(self._tuple())

    def __eq__(self, other) -> bool:
        if isinstance(other, type(self)):
            return self._tuple() == other._tuple()
        if isinstance(other, tuple):
            return self._tuple() == other
        return NotImplemented

    def __ne__(self, other) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self._tuple())
