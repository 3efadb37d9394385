"""A legal play: the steps, their notation and the resulting position."""
from .movegen import Step
from .notation import format_steps
from .position import Position


class Play:
    """One legal play for a roll.

    ``result`` keeps the mover on roll (as the engine CLI prints it);
    ``next`` is the same position with the opponent on roll.
    """

    __slots__ = ("before", "dice", "steps", "result", "_notation")

    def __init__(self, before: Position, dice: tuple[int, int], steps: tuple[Step, ...], result: Position):
        self.before = before
        self.dice = dice
        self.steps = steps
        self.result = result
        self._notation: str | None = None

    @property
    def notation(self) -> str:
        """gnubg notation, e.g. ``24/21 13/9``."""
        if self._notation is None:
            self._notation = format_steps(self.before, self.steps)
        return self._notation

    @property
    def next(self) -> Position:
        """The position after the play with the opponent on roll."""
        return self.result.swap()

    @property
    def hits(self) -> tuple[int, ...]:
        """Own-numbered points where this play hit a blot."""
        return tuple(sorted(s.dst for s in self.steps if s.hit))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self.before == other.before and self.result == other.result

    def __hash__(self) -> int:
        return hash((self.before, self.result))

    def __repr__(self) -> str:
        return f"<Play {self.notation} -> {self.result.id}>"
