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
    ply: int  # 0, 1 or 2: the depth of this play's evaluation

    def as_dict(self) -> dict:
        return self._asdict()


def hint(pos: Position, d1: int, d2: int, level: int = 5) -> list[Hint]:
    """Ranked plays (best first) for ``pos`` and the roll; [] if no legal play.

    Plays evaluated by the 1-ply lookahead come first; the rest follow in
    0-ply order (their equities are 0-ply, hence not strictly comparable).
    When the level's 2-ply look ran, the two plays it evaluated come first,
    by their 2-ply equities; a 1-ply play's ``loss`` is then measured at
    1-ply, from the best play's 1-ply equity (the same depth), and its
    ``equity`` is shown as the best play's less that loss, so that equities
    still read best first (its probabilities stay its 1-ply ones).

    :raises engine.DiceError: bad dice; :raises ValueError: bad level.
    """
    cands = ranked(pos, d1, d2, level)
    if not cands:
        return []
    top = cands[0]
    out = []
    for c in cands:
        eq = c.equity
        if c.ply == 1 < top.ply:
            eq = top.equity - (top.ply1_equity - c.equity)
        out.append(Hint(c.play.notation, c.play.result.id, eq, max(0.0, top.equity - eq), *c.probs, c.ply))
    return out


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
