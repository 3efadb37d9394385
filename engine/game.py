"""A game: turn order, dice, history of plays, the end and its score.

>>> g = Game(dice=Dice(seed=7))
>>> g.opening_roll()
(3, 4)
>>> g.turn, g.dice
('black', (4, 3))
"""
from .dice import Dice, is_state
from .errors import GameStateError, IllegalPlayError
from .movegen import check_dice
from .points import Points
from .position import BLACK, WHITE, Position, other
from .record import TupleRecord

KIND_POINTS = {"single": 1, "gammon": 2, "backgammon": 3}
SAVE_VERSION = 1


class HistoryEntry(TupleRecord):
    """One turn: who played, the dice, the play in gnubg notation ("" = no legal play).

    ``before_id`` is the Position ID before the play (``color`` on roll),
    ``after_id`` the one after it (the other side on roll).  A value like the
    tuple of the five fields: it unpacks, indexes and compares as one.
    """

    __slots__ = ("color", "dice", "notation", "before_id", "after_id")

    def __init__(self, color: str, dice: tuple[int, int], notation: str, before_id: str, after_id: str):
        self.color = color
        self.dice = dice
        self.notation = notation
        self.before_id = before_id
        self.after_id = after_id

    def _tuple(self) -> tuple:
        return (self.color, self.dice, self.notation, self.before_id, self.after_id)

    def __repr__(self) -> str:
        return (f"HistoryEntry(color={self.color!r}, dice={self.dice!r}, notation={self.notation!r}, "
                f"before_id={self.before_id!r}, after_id={self.after_id!r})")


def result_kind(position: Position, winner: str) -> str:
    """single / gammon / backgammon for a finished position won by ``winner``."""
    loser = position.side(other(winner))
    if sum(loser) < 15:
        return "single"
    # the winner's home board is the loser's own points 19-24 (indices 18-23); 24 is the bar
    if any(loser[18:25]):
        return "backgammon"
    return "gammon"


def points_for(kind: str, level: int | None = None) -> Points:
    """Points for a win of ``kind``; against the AI scaled by level/3 (exact).

    >>> str(points_for("gammon", 5)), str(points_for("single", 3)), str(points_for("backgammon"))
    ('10/3', '1', '3')
    """
    if level is None:
        return Points(KIND_POINTS[kind])
    if not 1 <= int(level) <= 5:
        raise ValueError(f"level {level!r} must be 1-5")
    return Points(KIND_POINTS[kind] * int(level), 3)


class Game:
    """A single game of backgammon without the doubling cube."""

    def __init__(self, dice: Dice | None = None, position: Position | None = None):
        self.dice_source = dice if dice is not None else Dice()
        self.position = position or Position.start()
        self.dice: tuple[int, int] | None = None
        self.opening: tuple[int, int] | None = None  # (White's die, Black's die)
        self.history: list[HistoryEntry] = []
        self.started = position is not None

    # --- state ---------------------------------------------------------------
    @property
    def turn(self) -> str:
        return self.position.turn

    @property
    def winner(self) -> str | None:
        return self.position.winner()

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def result_kind(self) -> str | None:
        w = self.winner
        return None if w is None else result_kind(self.position, w)

    def points(self, level: int | None = None) -> Points | None:
        kind = self.result_kind
        return None if kind is None else points_for(kind, level)

    def legal_plays(self):
        """The legal plays of the player on roll with the dice rolled."""
        d1, d2 = self._rolled()
        return self.position.legal_plays(d1, d2)

    def _rolled(self) -> tuple[int, int]:
        if self.dice is None:
            raise GameStateError("roll the dice first")
        return self.dice

    # --- actions -------------------------------------------------------------
    def opening_roll(self) -> tuple[int, int]:
        """Each side rolls one die; the higher starts and plays both dice."""
        if self.started:
            raise GameStateError("the game has already started")
        w, b = self.dice_source.opening()
        return self.set_opening(w, b)

    def set_opening(self, white_die: int, black_die: int) -> tuple[int, int]:
        """Start with a given opening roll (e.g. from a fair-dice exchange)."""
        check_dice(white_die, black_die)
        if white_die == black_die:
            raise IllegalPlayError("the opening roll cannot be a tie: roll again")
        first = WHITE if white_die > black_die else BLACK
        self.position = self.position.with_turn(first)
        self.opening = (white_die, black_die)
        self.dice = (white_die, black_die) if first == WHITE else (black_die, white_die)
        self.started = True
        return self.opening

    def roll(self) -> tuple[int, int]:
        """Roll for the player on roll."""
        return self.set_dice(*self.dice_source.roll())

    def set_dice(self, d1: int, d2: int) -> tuple[int, int]:
        if not self.started:
            raise GameStateError("make the opening roll first")
        if self.is_over:
            raise GameStateError("the game is over")
        if self.dice is not None:
            raise GameStateError("the dice are already rolled: play them first")
        self.dice = check_dice(d1, d2)
        return self.dice

    def play(self, play) -> HistoryEntry:
        """Play a legal play (a ``Play`` or gnubg notation) with the current dice.

        :raises IllegalPlayError: not a legal play for this position and roll.
        """
        if self.is_over:
            raise GameStateError("the game is over")
        plays = self.legal_plays()
        if isinstance(play, str):
            from .notation import parse_play

            d1, d2 = self._rolled()
            chosen = parse_play(self.position, play, d1, d2, plays)
        else:
            chosen = next((p for p in plays if p.result == getattr(play, "result", None)), None)
            if chosen is None:
                raise IllegalPlayError("that play is not legal in this position with these dice")
        return self._record(chosen.notation, chosen.next)

    def pass_turn(self) -> HistoryEntry:
        """End a turn that has no legal play (the dice are forfeited)."""
        d1, d2 = self._rolled()
        if self.legal_plays():
            raise IllegalPlayError(f"{d1}-{d2} can be played: the turn cannot pass")
        return self._record("", self.position.swap())

    def _record(self, notation: str, after: Position) -> HistoryEntry:
        entry = HistoryEntry(self.turn, self._rolled(), notation, self.position.id, after.id)
        self.history.append(entry)
        if after.winner() is not None:
            after = after.swap()  # keep the winner "on roll" so the final position is unambiguous
        self.position = after
        self.dice = None
        return entry

    # --- persistence ---------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "version": SAVE_VERSION,
            "position_id": self.position.id,
            "turn": self.turn,
            "dice": list(self.dice) if self.dice else None,
            "opening": list(self.opening) if self.opening else None,
            "started": self.started,
            "history": [[e.color, list(e.dice), e.notation, e.before_id, e.after_id] for e in self.history],
            # a game from a set-up position (no opening roll) keeps where it started
            "start": None if self.opening or not self.history else [self.history[0].before_id, self.history[0].color],
            "dice_seed": self.dice_source.seed,
            "dice_state": self.dice_source.getstate(),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Game":
        """Rebuild a saved game, replaying its history to check it.

        :raises ValueError: data that is not a saved game of this version, or inconsistent.
        """
        if not isinstance(data, dict) or data.get("version") != SAVE_VERSION:
            raise ValueError("saved game is from another version or not a saved game")
        try:
            start = data.get("start")
            if start and not data.get("opening"):
                game = cls(dice=_saved_dice(data), position=Position.from_id(str(start[0]), turn=str(start[1])))
            elif data.get("started") and not data.get("opening") and not data.get("history"):
                # set up, nothing played yet: the position is the start
                game = cls(dice=_saved_dice(data), position=Position.from_id(data["position_id"], turn=data["turn"]))
            else:
                game = cls(dice=_saved_dice(data))
            if data.get("opening"):
                w, b = data["opening"]
                game.set_opening(int(w), int(b))
                first = True
            else:
                first = False
            for color, d, notation, before_id, after_id in data.get("history", []):
                if not first:
                    game.set_dice(int(d[0]), int(d[1]))
                first = False
                if color != game.turn or game.position.id != before_id:
                    raise ValueError("saved history does not match its positions")
                if notation:
                    game.play(notation)
                else:
                    game.pass_turn()
                if game.history[-1].after_id != after_id:
                    raise ValueError("saved history does not match its positions")
            if game.turn != data["turn"] and not game.is_over:
                raise ValueError("saved turn does not match the history")
            if game.position.id != data["position_id"]:
                raise ValueError("saved position does not match the history")
            if data.get("dice") and game.dice is None:
                game.set_dice(*data["dice"])
            game.started = bool(data.get("started", game.started))
            return game
        except (TypeError, KeyError, IndexError) as exc:
            raise ValueError(f"saved game is damaged: {exc}") from exc


def _saved_dice(data: dict) -> Dice:
    """The dice of a saved game, going on where they stopped.

    Games saved before the dice became splitmix64 hold a Mersenne-Twister
    state, which is not carried over: their dice continue from the seed and
    the number of rolls so far (:meth:`Dice.continued`).
    """
    seed = data.get("dice_seed")
    state = data.get("dice_state")
    if not state:
        return Dice(seed)
    if is_state(state):
        dice = Dice(seed)
        dice.setstate(state)
        return dice
    if isinstance(state, list) and len(state) == 3 and isinstance(state[1], list):
        rolls = len(data.get("history") or []) + (1 if data.get("dice") else 0)
        return Dice.continued(seed, rolls)
    raise ValueError("saved game is damaged: unknown dice state")
