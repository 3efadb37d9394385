"""Exceptions raised by the rules engine.

Every error is a :class:`ValueError` with a message that says what is wrong
and, where it helps, what to do instead.
"""


class EngineError(ValueError):
    """Base class of every error the engine raises."""


class PositionIdError(EngineError):
    """A gnubg Position ID that cannot be decoded (wrong length, alphabet or checker count)."""


class DiceError(EngineError):
    """Dice outside 1-6, or the wrong number of dice."""


class NotationError(EngineError):
    """Move notation that cannot be parsed."""


class IllegalPlayError(EngineError):
    """A play or step that the rules do not allow in this position with these dice."""


class GameStateError(EngineError):
    """An action that does not fit the state of the game (e.g. playing before rolling)."""
