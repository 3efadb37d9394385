"""Dice: a seedable source of rolls and the opening roll.

The generator is splitmix64 written with explicit 64-bit masks, so a seed
gives the same rolls in CPython, Pyodide and MicroPython.  A seed (any value;
its ``str()`` is hashed with SHA-256) fixes the whole sequence; without one
the dice start from 128 bits drawn from the runtime's entropy source.
Die values are unbiased: draws from the top ``2**64 % 6`` values are thrown
away and drawn again.

>>> [Dice(seed=1).roll() for _ in range(2)] == [Dice(seed=1).roll()] * 2
True
>>> Dice(seed=1).getstate()[0]
'splitmix64'
"""
import hashlib
import random

GENERATOR = "splitmix64"
_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _hash64(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")


def entropy() -> int:
    """128 bits from the runtime's entropy source.

    ``random.seed()`` with no argument reseeds ``random``'s module generator
    from the system: ``os.urandom`` in CPython and Pyodide (the browser's
    ``crypto.getRandomValues`` there), and ``crypto.getRandomValues`` in the
    browser's MicroPython, which takes 32 bits per reseed; hence four of them.
    """
    bits = 0
    for _ in range(4):
        random.seed()
        bits = (bits << 32) | random.getrandbits(32)
    return bits


class Dice:
    """Fair dice; with a ``seed`` the sequence of rolls is reproducible in every runtime."""

    def __init__(self, seed=None):
        self.seed = seed
        self._state = _hash64(f"dice {seed}" if seed is not None else f"entropy {entropy()}")

    @classmethod
    def continued(cls, seed, rolls: int) -> "Dice":
        """Dice for a game saved (under ``seed``) by an older generator after ``rolls`` rolls.

        The rolls go on from a state fixed by the seed and the number of rolls,
        so a seeded game resumes the same way every time; without a seed the
        dice are fresh.
        """
        dice = cls(seed)
        if seed is not None:
            dice._state = _hash64(f"dice {seed} after {int(rolls)} rolls")
        return dice

    def _next64(self) -> int:
        z = self._state = (self._state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform whole number ``0 <= k < n`` (unbiased: rejection sampling)."""
        if n < 1:
            raise ValueError(f"below({n!r}): n must be at least 1")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            v = self._next64()
            if v < limit:
                return v % n

    def die(self) -> int:
        """One die, 1-6."""
        return self.below(6) + 1

    def roll(self) -> tuple[int, int]:
        """Two dice for a normal turn."""
        return self.die(), self.die()

    def opening(self) -> tuple[int, int]:
        """The opening roll: (White's die, Black's die), re-rolled until they differ."""
        while True:
            w, b = self.die(), self.die()
            if w != b:
                return w, b

    def getstate(self) -> list:
        """A JSON-serialisable snapshot (to resume a seeded game exactly): ``["splitmix64", HEX]``."""
        return [GENERATOR, "%016x" % self._state]

    def setstate(self, state: list) -> None:
        """Resume from a :meth:`getstate` snapshot.

        :raises ValueError: not a snapshot of this generator.
        """
        if not is_state(state):
            raise ValueError(f"not a dice state of this generator: {repr(state)[:60]}")
        self._state = int(state[1], 16)


def is_state(state) -> bool:
    """Whether ``state`` is a snapshot of :class:`Dice` (``["splitmix64", 16 hex digits]``)."""
    return (
        isinstance(state, list) and len(state) == 2 and state[0] == GENERATOR
        and isinstance(state[1], str) and len(state[1]) == 16
        and all(c in "0123456789abcdef" for c in state[1])
    )
