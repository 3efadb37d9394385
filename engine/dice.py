"""Dice: a seedable source of rolls and the opening roll."""
from __future__ import annotations

import random


class Dice:
    """Fair dice; with a ``seed`` the sequence of rolls is reproducible.

    >>> Dice(seed=1).roll() == Dice(seed=1).roll()
    True
    """

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self._rng = random.Random(seed)

    def die(self) -> int:
        return self._rng.randint(1, 6)

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
        """A JSON-serialisable snapshot (to resume a seeded game exactly)."""
        version, internal, gauss = self._rng.getstate()
        return [version, list(internal), gauss]

    def setstate(self, state: list) -> None:
        version, internal, gauss = state
        self._rng.setstate((version, tuple(internal), gauss))
