"""Hints: every legal play ranked, with equity and outcome probabilities.

Equity is cubeless with gammons and backgammons counting, for the player on
roll; ``loss`` is how much worse than the best play a play is (for a Hint
button and for a post-game review that marks mistakes).

>>> from engine import Position
>>> h = hint(Position.start(), 3, 1)
>>> h[0].notation
'8/5 6/5'
"""

from __future__ import annotations

from typing import NamedTuple

from engine import Position

from ai.levels import ranked


class Hint(NamedTuple):
    notation: str
    result_id: str  # Position ID after the play, mover still on roll
    equity: float
    loss: float  # best equity - this equity (>= 0)
    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    ply: int  # 0 or 1: the depth of this play's evaluation

    def as_dict(self) -> dict:
        return self._asdict()


def hint(pos: Position, d1: int, d2: int, level: int = 5) -> list[Hint]:
    """Ranked plays (best first) for ``pos`` and the roll; [] if no legal play.

    Plays evaluated by the 1-ply lookahead come first; the rest follow in
    0-ply order (their equities are 0-ply, hence not strictly comparable).

    :raises engine.DiceError: bad dice; :raises ValueError: bad level.
    """
    cands = ranked(pos, d1, d2, level)
    if not cands:
        return []
    best = cands[0].equity
    return [
        Hint(c.play.notation, c.play.result.id, c.equity, max(0.0, best - c.equity), *c.probs, c.ply)
        for c in cands
    ]


def play_loss(pos: Position, d1: int, d2: int, notation: str, level: int = 5) -> float:
    """Equity lost by the play ``notation`` compared with the best one.

    :raises engine.IllegalPlayError, engine.NotationError: not a legal play.
    """
    chosen = pos.parse_play(notation, d1, d2).result
    hints = hint(pos, d1, d2, level)
    for h in hints:
        if h.result_id == chosen.id:
            return h.loss
    raise ValueError(f"{notation!r} is not among the legal plays")
