"""Backgammon rules engine: positions, dice, legal plays, games, gnubg formats.

Pure Python, standard library only, in the subset that CPython 3.11, Pyodide
(Python 3.14) and MicroPython 1.27 share: the same files run in all three and
give the same answers.  ``docs/engine-api.md`` describes the API.
"""
from .errors import (
    DiceError,
    EngineError,
    GameStateError,
    IllegalPlayError,
    NotationError,
    PositionIdError,
)
from .position import (
    BAR,
    BLACK,
    CHECKERS,
    COLORS,
    OFF,
    WHITE,
    Position,
    build,
    decode_position_id,
    encode_position_id,
    from_absolute,
    other,
    to_absolute,
)
from .movegen import Step, apply_step, check_dice, legal_plays, result_positions
from .play import Play
from .notation import format_steps, parse_moves, parse_play
from .points import Points
from .dice import Dice
from .game import KIND_POINTS, SAVE_VERSION, Game, HistoryEntry, points_for, result_kind
from .turn import TurnBuilder

__all__ = [
    "BAR", "BLACK", "CHECKERS", "COLORS", "OFF", "WHITE",
    "DiceError", "EngineError", "GameStateError", "IllegalPlayError", "NotationError",
    "PositionIdError", "Play", "Position", "Step", "apply_step", "build", "check_dice",
    "decode_position_id", "encode_position_id", "format_steps", "from_absolute",
    "legal_plays", "other", "parse_moves", "parse_play", "result_positions", "to_absolute",
    "Points", "Dice", "Game", "HistoryEntry", "KIND_POINTS", "SAVE_VERSION", "points_for",
    "result_kind", "TurnBuilder",
]
