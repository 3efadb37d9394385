"""The AI's advice, in its worker (Pyodide): hints with alternatives, and the
post-game review of one decision. Tested on CPython (tests/test_analysis.py).

Equities are cubeless for the player on roll, gammons and backgammons
counting (a money game without the cube); probabilities are the play's
result as the player on roll sees it: win, win a gammon, win a backgammon,
lose a gammon, lose a backgammon.
"""

from ai.hint import hint as ai_hint
from ai.net import equity
from ai.search import evaluator
from engine import Position

LEVELS = (4, 5)   # a quick 0-ply answer first, then the 1-ply lookahead of level 5


def _row(h) -> dict:
    return {"notation": h.notation, "equity": round(h.equity, 4), "loss": round(h.loss, 4),
            "win": round(h.win, 4), "win_gammon": round(h.win_gammon, 4),
            "win_backgammon": round(h.win_backgammon, 4), "lose_gammon": round(h.lose_gammon, 4),
            "lose_backgammon": round(h.lose_backgammon, 4), "ply": h.ply}


def hint_list(position_id: str, turn: str, d1: int, d2: int, limit: int = 5, level: int = 5) -> list:
    """The best ``limit`` plays, best first, as dicts (notation, equity, loss, chances, ply).

    ``level`` 4 ranks at 0-ply (a few tens of milliseconds), 5 with the
    one-roll lookahead on the leading plays (under a second or so).
    """
    pos = Position.from_id(position_id, turn=turn)
    return [_row(h) for h in ai_hint(pos, d1, d2, level)[:limit]]


def review_decision(position_id: str, turn: str, d1: int, d2: int, notation: str) -> dict:
    """How the play ``notation`` compares with the best one (level 5's search).

    Returns ``best`` (the best play's notation), ``best_equity``, ``played_equity``,
    ``loss`` (>= 0, equity given away) and ``choices`` (how many different legal
    plays there were: 1 = forced, nothing to decide). A played play outside the
    lookahead's candidates is evaluated with the lookahead too, so both
    equities are compared at the same depth (1-ply, where the best was also
    looked at 2-ply and the played play was not).
    """
    pos = Position.from_id(position_id, turn=turn)
    hints = ai_hint(pos, d1, d2, 5)
    if not hints:
        return {"best": "", "best_equity": 0.0, "played_equity": 0.0, "loss": 0.0, "choices": 0}
    played = pos.parse_play(notation, d1, d2).result.id if notation else ""
    best = hints[0]
    mine = next((h for h in hints if h.result_id == played), None)
    if mine is None:
        raise ValueError(f"{notation!r} is not a legal play for {d1}-{d2} in {position_id}")
    played_eq, best_eq = mine.equity, best.equity
    if mine.ply < best.ply:
        if best.ply == 2:
            best_eq = equity(evaluator().ply1(Position.from_id(best.result_id, turn=turn)))
            played_eq = best_eq - mine.loss  # a 1-ply play's loss is measured at 1-ply (ai.hint)
        if mine.ply == 0:
            played_eq = equity(evaluator().ply1(Position.from_id(mine.result_id, turn=turn)))
    return {"best": best.notation, "best_equity": round(best_eq, 4), "played_equity": round(played_eq, 4),
            "loss": round(max(0.0, best_eq - played_eq), 4), "choices": len(hints)}
