"""The game page's exports and imports as text (pure; MicroPython and CPython).

- ``moves_text``: the game's moves to copy, one turn a line, in board numbers.
- ``mat_file``: the game as a gnubg ``.mat`` download (``engine.matfile``).
- ``practice_position``: a pasted Position ID, read for a practice game.
"""

from engine import BLACK, WHITE, Position
from engine.matfile import match_text

from .board_numbers import board_notation


def dice_words(dice) -> str:
    return "-".join(str(d) for d in dice)


def moves_text(history, title: str = "") -> str:
    """The game's turns, numbered, in the board's numbers; ``title`` as a first line.

    >>> from engine import HistoryEntry as H
    >>> print(moves_text([H("white", (3, 1), "8/5 6/5", "", ""), H("black", (6, 4), "24/14", "", ""),
    ...                   H("white", (6, 6), "", "", "")]))
    1. White 3-1: 8/5 6/5
    2. Black 6-4: 1/11
    3. White 6-6: no legal move
    """
    lines = [title] if title else []
    for i, e in enumerate(history):
        play = board_notation(e.notation, e.color) if e.notation else "no legal move"
        lines.append(f"{i + 1}. {'White' if e.color == WHITE else 'Black'} {dice_words(e.dice)}: {play}")
    return "\n".join(lines)


def player_names(settings, name: str):
    """(White's name, Black's name) for the export: the player and the computer, or the colours."""
    if getattr(settings, "mode", "") == "ai":
        me = name or "Player"
        computer = f"Computer level {settings.level}"
        return (me, computer) if settings.color == WHITE else (computer, me)
    return ("White", "Black")


def mat_file(game, settings, name: str, date: str):
    """(file name, text) of the game as a gnubg .mat file; ``date`` is ``2026-12-02``.

    :raises ValueError: a game from a set-up position (the format cannot hold one).
    """
    white, black = player_names(settings, name)
    text = match_text(game, white=white, black=black, date=date.replace("-", "."))
    return f"backgammon-{date}.mat", text


def practice_position(text: str, turn: str) -> Position:
    """The position of a pasted Position ID (``turn`` on roll), for a practice game.

    Accepts the bare ID or gnubg's lines around it (``Position ID: 4HPwATDgc/ABMA``,
    ``4HPwATDgc/ABMA:cAkAAAAAAAAA``). Raises ValueError with a message for people.
    """
    if turn not in (WHITE, BLACK):
        raise ValueError("Choose who is on roll: White or Black.")
    words = str(text).replace(":", " ").split()
    ids = [w for w in words if len(w) == 14]
    if not ids:
        raise ValueError("That is not a Position ID: paste the 14 characters gnubg shows, "
                         "e.g. 4HPwATDgc/ABMA.")
    try:
        pos = Position.from_id(ids[0], turn=turn)
    except ValueError:
        raise ValueError(f"{ids[0]} is not a valid Position ID: check it was copied whole "
                         "(14 letters, digits, + and /).")
    if pos.winner() is not None:
        raise ValueError(f"In {ids[0]} one side has borne off all 15 checkers: the game is over. "
                         "Paste a position still in play.")
    return pos
