"""Step-by-step input for a UI: the legal next steps of a turn in progress.

The board asks which checkers may move and where, one die (or one checker's
several dice) at a time; it holds no rules itself.  A step is offered only if
some complete legal play still follows from it, so following the highlighted
steps can never lead into a partial play the rules forbid (for example playing
the smaller die first where that leaves the higher one unplayable).

>>> from engine.position import Position
>>> t = TurnBuilder(Position.start(), (6, 5))
>>> sorted(t.destinations(24))
[13, 18]
>>> _ = t.move(24, 13); t.is_complete, t.play.notation
(True, '24/13')
"""
from .errors import IllegalPlayError
from .movegen import Step, apply_step, check_dice, dice_sequence, single_steps
from .position import BAR, Position


class TurnBuilder:
    """A turn in progress: the position at the start, the dice, the steps so far."""

    def __init__(self, position: Position, dice: tuple[int, int]):
        d1, d2 = check_dice(*dice)
        self.start = position
        self.dice = (d1, d2)
        self.plays = position.legal_plays(d1, d2)
        self._finals = {p.result: p for p in self.plays}
        self._good: dict = {}
        self._kids: dict = {}
        self._stack: list[tuple[Position, tuple[int, ...], Step]] = []
        self.position = position
        self.dice_left: tuple[int, ...] = tuple(sorted(dice_sequence(d1, d2), reverse=True))
        self.steps: list[Step] = []

    # --- queries -------------------------------------------------------------
    @property
    def no_play(self) -> bool:
        """No legal play at all: the turn is forfeited."""
        return not self.plays

    @property
    def forced(self) -> bool:
        """Exactly one legal play (the UI may play it automatically)."""
        return len(self.plays) == 1

    @property
    def is_complete(self) -> bool:
        """The steps so far make a legal play (or none is possible): Done may end the turn."""
        return not self.plays or self.position in self._finals

    @property
    def play(self):
        """The legal Play the steps make, once complete (None if the turn is forfeited)."""
        if not self.plays:
            return None
        if self.position not in self._finals:
            raise IllegalPlayError("the play is not complete yet: more dice must be played")
        return self._finals[self.position]

    @property
    def can_move(self) -> bool:
        """Some further legal step exists."""
        return bool(self.next_steps())

    def next_steps(self) -> list[Step]:
        """Every legal single-die step from the current position."""
        return [s for s, _child, _left in self._children(self.position, self.dice_left)
                if self._reaches(_child, _left)]

    def sources(self) -> set[int]:
        """Own-numbered points (25 = bar) whose top checker has a legal step."""
        return {s.src for s in self.next_steps()}

    def destinations(self, src: int) -> dict[int, tuple[Step, ...]]:
        """Legal destinations of ``src``'s top checker, each with the steps that reach it.

        Combined moves of one checker with several dice are included; where two
        paths reach the same point the shorter one is kept, and between equal
        lengths the one that hits.
        """
        out: dict[int, tuple[Step, ...]] = {}
        if not self.plays:
            return out

        def walk(pos, left, at, path):
            for step, child, rest in self._children(pos, left):
                if step.src != at or not self._reaches(child, rest):
                    continue
                new = path + (step,)
                old = out.get(step.dst)
                if old is None or (len(new), -_hits(new)) < (len(old), -_hits(old)):
                    out[step.dst] = new
                if step.dst != 0 and not child.mover[24]:
                    walk(child, rest, step.dst, new)

        walk(self.position, self.dice_left, src, ())
        return out

    # --- actions -------------------------------------------------------------
    def move(self, src: int, dst: int) -> tuple[Step, ...]:
        """Move ``src``'s top checker to ``dst`` (one or several steps).

        :raises IllegalPlayError: ``dst`` is not a legal destination now.
        """
        path = self.destinations(src).get(dst)
        if path is None:
            raise IllegalPlayError(f"{_name(src)} to {_name(dst)} is not a legal move now")
        for step in path:
            self._apply(step)
        return path

    def step(self, step: Step) -> None:
        """Apply one single-die step (must be one of ``next_steps()``)."""
        if step not in self.next_steps():
            raise IllegalPlayError(f"{_name(step.src)}/{_name(step.dst)} with a {step.die} is not legal now")
        self._apply(step)

    def undo(self) -> Step | None:
        """Take back the last step; returns it (None if nothing to undo)."""
        if not self._stack:
            return None
        self.position, self.dice_left, step = self._stack.pop()
        self.steps.pop()
        return step

    # --- internals -----------------------------------------------------------
    def _apply(self, step: Step) -> None:
        self._stack.append((self.position, self.dice_left, step))
        left = list(self.dice_left)
        left.remove(step.die)
        self.position = apply_step(self.position, step)
        self.dice_left = tuple(left)
        self.steps.append(step)

    def _children(self, pos: Position, left: tuple[int, ...]) -> list:
        """(step, position after it, dice left) for every single step from here,
        remembered: sources, destinations and the reachability search all ask
        again for the same states (on the page's MicroPython that repetition
        was most of a click's cost)."""
        key = (pos, left)
        kids = self._kids.get(key)
        if kids is None:
            kids = []
            for die in sorted(set(left), reverse=True):
                rest = list(left)
                rest.remove(die)
                rest_t = tuple(rest)
                for step in single_steps(pos, die):
                    kids.append((step, apply_step(pos, step), rest_t))
            self._kids[key] = kids
        return kids

    def _reaches(self, pos: Position, left: tuple[int, ...]) -> bool:
        """Whether some legal play's result can be reached from here."""
        key = (pos, left)
        got = self._good.get(key)
        if got is None:
            got = pos in self._finals or any(
                self._reaches(child, rest) for _s, child, rest in self._children(pos, left)
            )
            self._good[key] = got
        return got


def _hits(path) -> int:
    return sum(1 for s in path if s.hit)


def _name(n: int) -> str:
    return "bar" if n == BAR else "off" if n == 0 else str(n)
