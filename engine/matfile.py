"""A game as a gnubg / Jellyfish ``.mat`` match file (``import mat`` in GNU Backgammon).

The format, as GNU Backgammon 1.07 writes and reads it (``export match mat``)::

    ; [Site "..."]

     0 point match

     Game 1
     White : 0                      Black : 0
      1)                             31: 8/5 6/5
      2) 42: 8/4 6/4                 66:
      ...
                                      Wins 1 point

White is the left column, Black the right one. Each entry is the roll
(``31``) and the checker moves one die at a time, in the mover's own
numbering (25 = the bar, 0 = off), ``*`` after a move that hits; a roll
with no legal play is the roll alone. A game with no doubling cube is a
"0 point match" (a money game). Only games from the starting position can be
written: the format has no way to give another one.

>>> from engine import Game, Dice
>>> g = Game(dice=Dice(seed=7)); _ = g.opening_roll(); _ = g.play("24/20 13/10")
>>> print(match_text(g, date="2026.12.02"))  # doctest: +NORMALIZE_WHITESPACE
; [Site "backgammon in the browser"]
; [EventDate "2026.12.02"]
<BLANKLINE>
 0 point match
<BLANKLINE>
 Game 1
 White : 0                      Black : 0
  1)                             43: 24/20 13/10
<BLANKLINE>
"""
from .game import KIND_POINTS, Game
from .position import WHITE, Position

COLUMN = 28     # width of the left player's entry
INDENT = 5      # "  1) "
SITE = "backgammon in the browser"


def _step_text(step) -> str:
    return f"{step.src}/{step.dst}{'*' if step.hit else ''}"


def entry_text(entry) -> str:
    """One turn as the file writes it: ``"43: 24/20 13/10"``, ``"66:"`` (no legal play)."""
    d1, d2 = entry.dice
    roll = f"{max(d1, d2)}{min(d1, d2)}:"
    if not entry.notation:
        return roll
    before = Position.from_id(entry.before_id, turn=entry.color)
    play = before.parse_play(entry.notation, d1, d2)
    return roll + " " + " ".join(_step_text(st) for st in play.steps)


def player_name(name: str, fallback: str) -> str:
    """A name the format can carry: one word of letters, digits, ``_`` and ``-``."""
    out = ""
    for ch in str(name).strip():
        if ch.isalpha() or ch.isdigit() or ch in "_-":
            out += ch
        elif ch == " " and out and out[-1] != "_":
            out += "_"
    out = out.strip("_")[:24]
    return out or fallback


def match_text(game: Game, white: str = "White", black: str = "Black", date: str = "") -> str:
    """The game as a ``.mat`` file's text (``date`` as ``YYYY.MM.DD``, or "").

    :raises ValueError: the game did not start from the starting position.
    """
    history = game.history
    if history and history[0].before_id != Position.start().id:
        raise ValueError("this game started from a set-up position, which a .mat file cannot hold: "
                         "copy its Position ID instead")
    lines = [f'; [Site "{SITE}"]']
    if date:
        lines.append(f'; [EventDate "{date}"]')
    left, right = player_name(white, "White"), player_name(black, "Black")
    lines += ["", " 0 point match", "", " Game 1", _pad(f" {left} : 0", INDENT + COLUMN - 1) + f"{right} : 0"]
    pair = ["", ""]
    number = 1
    last = None
    for entry in history:
        side = 0 if entry.color == WHITE else 1
        if side == 0 and (pair[0] or pair[1]):
            lines.append(_move_line(number, pair))
            number += 1
            pair = ["", ""]
        pair[side] = entry_text(entry)
        if side == 1:
            lines.append(_move_line(number, pair))
            number += 1
            pair = ["", ""]
        last = side
    if pair[0] or pair[1]:
        lines.append(_move_line(number, pair))
    if game.is_over and last is not None:
        kind = game.result_kind
        points = KIND_POINTS[kind] if kind else 1
        winner_side = 0 if game.winner == WHITE else 1
        pad = " " * (INDENT + (COLUMN if winner_side else 0))
        lines.append(f"{pad} Wins {points} point{'s' if points > 1 else ''}")
    return "\n".join(lines) + "\n"


def _move_line(number: int, pair) -> str:
    left, right = pair
    head = f"{number:3d}) "
    if not right:
        return (head + left).rstrip()
    return head + _pad(left, COLUMN - 1) + " " + right


def _pad(text: str, width: int) -> str:
    """``text.ljust(width)`` (MicroPython's str has no ljust)."""
    return text + " " * (width - len(text))
