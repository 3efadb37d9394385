"""Legal plays: every distinct resulting position for a roll, enforcing all the rules.

The generator works from the mover's point of view on plain lists:
``m[1..24]`` the mover's checkers on its own points, ``m[25]`` its bar,
``m[0]`` its borne-off count; ``o[p]`` the opponent's checkers on the mover's
point ``p``.  It follows GNU Backgammon's method: try the dice in both orders
(for doubles, each further step starts no farther back than the last, which
loses no position), keep only plays that use the most dice and, with equal
dice, the most pips (so when only one die can be used, the higher one wins),
and keep one play per resulting position.
"""
from __future__ import annotations

from typing import NamedTuple

from .errors import DiceError
from .position import BAR, OFF, Position


class Step(NamedTuple):
    """One checker movement in the mover's own numbering (src 25 = bar, dst 0 = off)."""

    src: int
    dst: int
    die: int
    hit: bool = False


def check_dice(d1: object, d2: object) -> tuple[int, int]:
    """Validate a roll.

    :raises DiceError: a die that is not an integer 1-6.
    """
    for d in (d1, d2):
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
            raise DiceError(f"bad die {d!r}: dice are whole numbers from 1 to 6")
    return d1, d2  # type: ignore[return-value]


def dice_sequence(d1: int, d2: int) -> tuple[int, ...]:
    """The dice a roll lets the mover play: four of a double, else the two dice."""
    return (d1,) * 4 if d1 == d2 else (d1, d2)


def _lists(pos: Position) -> tuple[list[int], list[int]]:
    mv, op = pos.mover, pos.opponent
    m = [15 - sum(mv)]
    m.extend(mv)  # m[1..24] points, m[25] bar
    o = [0] * 26
    for j in range(24):
        if op[j]:
            o[24 - j] = op[j]  # opponent's own point j+1 is the mover's point 24-j
    return m, o


def _search(m, o, dice, depth, top, steps, hits, results, best):
    """Depth-first search over step sequences; records leaves in ``results``.

    ``top`` is the highest source point allowed (for doubles); ``best`` is a
    one-element list holding the best (dice used, pips used) seen so far.
    """
    if depth == len(dice):
        _record(m, steps, hits, depth, dice, results, best)
        return
    die = dice[depth]
    nxt = depth + 1
    double = dice[0] == dice[-1] and len(dice) == 4
    moved = False
    if m[25]:
        dst = 25 - die
        od = o[dst]
        if od < 2:
            m2 = m[:]
            m2[25] -= 1
            m2[dst] += 1
            if od == 1:
                o2 = o[:]
                o2[dst] = 0
                _search(m2, o2, dice, nxt, 25 if not double else 25, steps + (Step(BAR, dst, die, True),),
                        hits + (dst,), results, best)
            else:
                _search(m2, o, dice, nxt, 25, steps + (Step(BAR, dst, die, False),), hits, results, best)
            moved = True
    else:
        home = not any(m[7:26])
        highest = 0
        if home:
            for p in range(6, 0, -1):
                if m[p]:
                    highest = p
                    break
        start = top if double else 24
        for src in range(start, 0, -1):
            if not m[src]:
                continue
            dst = src - die
            if dst > 0:
                od = o[dst]
                if od > 1:
                    continue
                m2 = m[:]
                m2[src] -= 1
                m2[dst] += 1
                if od == 1:
                    o2 = o[:]
                    o2[dst] = 0
                    _search(m2, o2, dice, nxt, src, steps + (Step(src, dst, die, True),),
                            hits + (dst,), results, best)
                else:
                    _search(m2, o, dice, nxt, src, steps + (Step(src, dst, die, False),),
                            hits, results, best)
                moved = True
            elif home and (dst == 0 or src == highest):
                m2 = m[:]
                m2[src] -= 1
                m2[0] += 1
                _search(m2, o, dice, nxt, src, steps + (Step(src, OFF, die, False),),
                        hits, results, best)
                moved = True
    if not moved:
        _record(m, steps, hits, depth, dice, results, best)


def _record(m, steps, hits, depth, dice, results, best):
    score = (depth, sum(dice[:depth]))
    b = best[0]
    if score < b:
        return
    if score > b:
        results.clear()
        best[0] = score
    key = (tuple(m), tuple(sorted(hits)))
    if key not in results:
        results[key] = steps


def _search_roll(pos: Position, d1: int, d2: int) -> dict:
    """Map of (mover list, hit points) -> one step sequence, for every legal play."""
    m, o = _lists(pos)
    results: dict = {}
    best = [(-1, 0)]
    if d1 == d2:
        _search(m, o, (d1,) * 4, 0, 25, (), (), results, best)
    else:
        _search(m, o, (d1, d2), 0, 25, (), (), results, best)
        _search(m, o, (d2, d1), 0, 25, (), (), results, best)
    if best[0][0] == 0:
        return {}
    return results


def _result_position(pos: Position, mkey: tuple, hits: tuple) -> Position:
    mover = mkey[1:26]
    if hits:
        opp = list(pos.opponent)
        for p in hits:
            opp[24 - p] = 0
        opp[24] += len(hits)
        opponent = tuple(opp)
    else:
        opponent = pos.opponent
    return Position._raw(mover, opponent, pos.turn)


def result_positions(pos: Position, d1: int, d2: int) -> list[Position]:
    """The distinct positions (mover still on roll) after every legal play.

    This is the fast path (no notation); an empty list means the turn is forfeited.
    """
    check_dice(d1, d2)
    return [_result_position(pos, mk, hits) for (mk, hits) in _search_roll(pos, d1, d2)]


def legal_plays(pos: Position, d1: int, d2: int) -> list:
    """Every legal play (one per resulting position) for the roll ``d1``-``d2``.

    :raises DiceError: a die outside 1-6.
    """
    from .play import Play

    check_dice(d1, d2)
    return [
        Play(pos, (d1, d2), steps, _result_position(pos, mk, hits))
        for (mk, hits), steps in _search_roll(pos, d1, d2).items()
    ]


def apply_step(pos: Position, step: Step) -> Position:
    """The position after one step (mover still on roll); the step is not checked."""
    mover = list(pos.mover)
    opp = pos.opponent
    mover[BAR - 1 if step.src == BAR else step.src - 1] -= 1
    if step.dst != OFF:
        mover[step.dst - 1] += 1
        j = 24 - step.dst
        if opp[j]:
            o = list(opp)
            o[24] += o[j]
            o[j] = 0
            opp = tuple(o)
    return Position._raw(tuple(mover), opp, pos.turn)


def single_steps(pos: Position, die: int) -> list[Step]:
    """Every single step with ``die`` that the board allows (ignores the whole-roll rules)."""
    m, o = _lists(pos)
    out: list[Step] = []
    if m[25]:
        dst = 25 - die
        if o[dst] < 2:
            out.append(Step(BAR, dst, die, o[dst] == 1))
        return out
    home = not any(m[7:26])
    highest = max((p for p in range(1, 7) if m[p]), default=0) if home else 0
    for src in range(24, 0, -1):
        if not m[src]:
            continue
        dst = src - die
        if dst > 0:
            if o[dst] < 2:
                out.append(Step(src, dst, die, o[dst] == 1))
        elif home and (dst == 0 or src == highest):
            out.append(Step(src, OFF, die, False))
    return out
