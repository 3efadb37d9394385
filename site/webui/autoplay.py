"""Choosing a play for the computer side, shared by the AI worker and tests (pure).

``choose(position_id, turn, d1, d2, level, seed)`` asks ``ai`` for its play
at that level when the AI package offers one, and otherwise falls back to a
simple legal-move player (hits, safe points, progress).
"""

from __future__ import annotations

import random
import sys
import traceback
from typing import Optional

from engine import Position, other


def choose(position_id: str, turn: str, d1: int, d2: int, level: int = 3, seed: Optional[int] = None) -> str:
    """gnubg notation of the computer's play ("" when there is none)."""
    pos = Position.from_id(position_id, turn=turn)
    try:
        notation = _ai_choice(pos, d1, d2, level, seed)
    except Exception:  # the AI must never break the game: fall back, but say so loudly
        traceback.print_exc(file=sys.stderr)  # the browser console; e2e tests fail on it
        notation = None
    if notation is None:
        notation = fallback_choice(pos, d1, d2)
    return notation


def _ai_choice(pos, d1, d2, level, seed):
    try:
        from ai import choose as ai_choose
    except ImportError:
        return None
    play = ai_choose(pos, d1, d2, level=level, seed=seed)
    return "" if play is None else play.notation


def hint(position_id: str, turn: str, d1: int, d2: int, limit: int = 3) -> list:
    """Ranked plays [(notation, equity or None)], best first."""
    pos = Position.from_id(position_id, turn=turn)
    try:
        from ai.hint import hint as ai_hint

        return [(h.notation, round(h.equity, 3)) for h in ai_hint(pos, d1, d2)[:limit]]
    except ImportError:
        return [(fallback_choice(pos, d1, d2), None)]


def fallback_choice(pos: Position, d1: int, d2: int, rng: Optional[random.Random] = None) -> str:
    """A simple legal-move player (until the AI lands): prefer hits, safe points,
    progress. Returns gnubg notation, "" when there is no legal play."""
    plays = pos.legal_plays(d1, d2)
    if not plays:
        return ""
    me = pos.turn
    opp = other(me)

    def score(play) -> float:
        r = play.result
        s = 0.0
        s += 12 * r.bar(opp) + 6 * r.off(me) - 0.1 * r.pip(me) + 0.05 * r.pip(opp)
        for p in range(1, 25):
            c, n = r.owner(p)
            if c == me and n == 1:
                s -= 4
            elif c == me and n >= 2:
                s += 1.5
        return s

    return max(plays, key=score).notation
