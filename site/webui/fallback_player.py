"""A simple legal-move player: the computer's last resort when its AI cannot answer.

Engine only, so it runs on the page's main thread (MicroPython) as well as
in the worker: prefers hits, borne-off checkers, made points and progress,
avoids blots. Far weaker than any AI level, it only keeps a game going when
the AI's worker failed to start.
"""

from engine import other


def _score(play, me, opp) -> float:
    r = play.result
    s = 12 * r.bar(opp) + 6 * r.off(me) - 0.1 * r.pip(me) + 0.05 * r.pip(opp)
    for p in range(1, 25):
        c, n = r.owner(p)
        if c == me and n == 1:
            s -= 4
        elif c == me and n >= 2:
            s += 1.5
    return s


def fallback_choice(pos, d1: int, d2: int) -> str:
    """gnubg notation of the simple player's play ("" when there is no legal play)."""
    plays = pos.legal_plays(d1, d2)
    if not plays:
        return ""
    me = pos.turn
    opp = other(me)
    best = plays[0]
    best_score = _score(best, me, opp)
    for play in plays[1:]:
        s = _score(play, me, opp)
        if s > best_score:
            best, best_score = play, s
    return best.notation
