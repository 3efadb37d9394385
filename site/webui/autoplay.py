"""Choosing a play for the computer side, in the AI's worker (Pyodide) and tests.

``choose(position_id, turn, d1, d2, level, seed)`` is the AI's play at that
level; should the AI fail (a bug), the simple player of ``fallback_player``
keeps the game going and the error goes to the console, where the e2e tests
see it.
"""

import sys
import traceback

from ai import choose as ai_choose
from engine import Position

from .fallback_player import fallback_choice


def choose(position_id: str, turn: str, d1: int, d2: int, level: int = 3, seed=None) -> str:
    """gnubg notation of the computer's play ("" when there is none)."""
    pos = Position.from_id(position_id, turn=turn)
    try:
        play = ai_choose(pos, d1, d2, level=level, seed=seed)
        return "" if play is None else play.notation
    except Exception:  # the AI must never break the game: fall back, but say so loudly
        traceback.print_exc(file=sys.stderr)  # the browser console; e2e tests fail on it
        return fallback_choice(pos, d1, d2)
