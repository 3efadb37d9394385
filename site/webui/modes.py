"""Who plays whom: the three game modes as objects (pure, no DOM).

The controller asks its mode the questions that differ between a game
against the computer, two players on one device and a game against a friend
on another device (who is human here, whose home board is at the bottom,
how people are named, what a win is worth), instead of branching on a mode
name. Runs on CPython and MicroPython alike.
"""

from engine import WHITE

KIND_TEXT = {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon"}


def cap(color: str) -> str:
    return color[:1].upper() + color[1:]


class Mode:
    """What every mode answers; subclasses fill it in."""

    name = ""
    #: the phase while the side that is not on this screen has the turn
    away_phase = "ai"

    def is_human(self, color: str) -> bool:
        """Whether this screen's player moves ``color``."""
        raise NotImplementedError

    def who(self, color: str) -> str:
        """How the status line names the player of ``color``: "You", "White"..."""
        raise NotImplementedError

    def me(self):
        """The colour this screen's player controls (``data-me``), None for two players."""
        return None

    def bottom(self, turn: str) -> str:
        """Whose home board is drawn bottom-right, with ``turn`` on roll."""
        return self.me() or WHITE

    def level(self):
        """The computer's level, scaling the points (None: not against the computer)."""
        return None

    def resigner(self, turn: str):
        """Who concedes when this screen's player presses Resign, with ``turn`` on roll."""
        return self.me() or turn

    def to_roll(self, color: str) -> str:
        return f"{self.who(color)} to roll."

    def winner_words(self, winner: str) -> str:
        return f"{cap(winner)} wins"


class ComputerMode(Mode):
    name = "ai"
    away_phase = "ai"

    def __init__(self, color: str, level: int):
        self.color = color
        self._level = level

    def is_human(self, color):
        return color == self.color

    def who(self, color):
        return "You" if color == self.color else "The computer"

    def me(self):
        return self.color

    def level(self):
        return self._level

    def to_roll(self, color):
        return "Your turn: roll the dice." if color == self.color else "The computer to roll."

    def winner_words(self, winner):
        return "You win" if winner == self.color else "The computer wins"


class LocalMode(Mode):
    """Two players taking turns on one device: each sees their own home bottom-right."""

    name = "local"
    away_phase = "move"

    def is_human(self, color):
        return True

    def who(self, color):
        return cap(color)

    def bottom(self, turn):
        return turn


class FriendMode(Mode):
    """A friend on another device: this screen moves ``me``; the friend's turns arrive as messages."""

    name = "friend"
    away_phase = "remote"

    def __init__(self, me: str, peer_name):
        self.color = me
        self._peer_name = peer_name  # a function: the name may arrive later

    def is_human(self, color):
        return color == self.color

    def who(self, color):
        return "You" if color == self.color else self._peer_name()

    def me(self):
        return self.color

    def to_roll(self, color):
        return "Your turn: roll the dice."

    def winner_words(self, winner):
        return "You win" if winner == self.color else f"{self._peer_name()} wins"


def mode_for(settings) -> Mode:
    """The mode of a computer or two-player game's settings."""
    if settings.mode == "local":
        return LocalMode()
    return ComputerMode(settings.color, settings.level)
