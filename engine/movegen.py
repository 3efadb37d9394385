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
from .errors import DiceError
from .position import BAR, OFF, Position
from .record import TupleRecord


class Step(TupleRecord):
    """One checker movement in the mover's own numbering (src 25 = bar, dst 0 = off).

    A value like the tuple ``(src, dst, die, hit)``: it unpacks, indexes and
    compares as one (``Step(24, 21, 3) == (24, 21, 3, False)``).

    >>> s = Step(24, 21, 3)
    >>> s.src, s.dst, s.die, s.hit, tuple(s)
    (24, 21, 3, False, (24, 21, 3, False))
    """

    __slots__ = ("src", "dst", "die", "hit")

    def __init__(self, src: int, dst: int, die: int, hit: bool = False):
        self.src = src
        self.dst = dst
        self.die = die
        self.hit = hit

    def _tuple(self) -> tuple:
        return (self.src, self.dst, self.die, self.hit)

    def __repr__(self) -> str:
        return f"Step(src={self.src!r}, dst={self.dst!r}, die={self.die!r}, hit={self.hit!r})"


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


def _search_roll(pos: Position, d1: int, d2: int) -> list:
    """``(mover checkers, hit points, steps)`` for every legal play, in the order found.

    Depth-first over step sequences, mutating two lists in place and undoing
    each step on the way back (no copying); a leaf is recorded when all dice
    are used or no step is possible, keeping only the best (dice, pips) class
    and the first step sequence to each distinct result.  The order is the
    search's own (a list, not a dict's), so it is the same in every runtime.
    """
    m, o = _lists(pos)
    results: list = []  # (mover key, hits key, steps) in the order found
    seen: set = set()  # the (mover key, hits key) pairs in results
    best = [0, 0]  # dice used, pips used of the plays kept
    steps: list = []
    hits: list = []
    outside = [sum(m[7:26])]  # mover checkers not yet home (incl. bar)

    def record(depth, pips):
        if depth < best[0] or (depth == best[0] and pips < best[1]):
            return
        if depth > best[0] or pips > best[1]:
            results.clear()
            seen.clear()
            best[0] = depth
            best[1] = pips
        keep()

    def full_leaf():
        # all dice used: the best class there is, so no comparison is needed
        if best[0] != n_dice:
            results.clear()
            seen.clear()
            best[0] = n_dice
            best[1] = 0
        keep()

    def keep():
        mk = bytes(m)
        hk = bytes(sorted(hits)) if len(hits) > 1 else bytes(hits)
        key = (mk, hk)
        if key not in seen:
            seen.add(key)
            results.append((mk, hk, tuple(steps)))

    def search(dice, depth, top, pips, cands):
        die = dice[depth]
        nxt = depth + 1
        last = nxt == len(dice)
        moved = False
        skip = seen_first if depth == 1 and dice is second else ()
        if m[25]:
            dst = 25 - die
            od = o[dst]
            if od < 2:
                m[25] -= 1
                m[dst] += 1
                if dst <= 6:
                    outside[0] -= 1
                if od:
                    o[dst] = 0
                    hits.append(dst)
                steps.append((25, dst, die, od == 1))
                if last:
                    full_leaf()
                else:
                    search(dice, nxt, 24, pips + die, cands if m[dst] > 1 else cands + [dst])
                steps.pop()
                if od:
                    o[dst] = 1
                    hits.pop()
                if dst <= 6:
                    outside[0] += 1
                m[dst] -= 1
                m[25] += 1
                moved = True
        else:
            home = outside[0] == 0
            for src in cands:
                if src <= top and m[src]:
                    if src in skip:
                        # played in the other order already: same steps, same result
                        moved = True
                        continue
                    dst = src - die
                    if dst > 0:
                        od = o[dst]
                        if od < 2:
                            if depth == 0 and dice is first:
                                seen_first.add(src)
                            m[src] -= 1
                            m[dst] += 1
                            entered = src > 6 and dst <= 6
                            if entered:
                                outside[0] -= 1
                            if od:
                                o[dst] = 0
                                hits.append(dst)
                            steps.append((src, dst, die, od == 1))
                            if last:
                                full_leaf()
                            else:
                                search(dice, nxt, src if dice[0] == dice[1] else 24, pips + die,
                                       cands if m[dst] > 1 else cands + [dst])
                            steps.pop()
                            if od:
                                o[dst] = 1
                                hits.pop()
                            if entered:
                                outside[0] += 1
                            m[dst] -= 1
                            m[src] += 1
                            moved = True
                    elif home and (dst == 0 or not any(m[src + 1:7])):
                        if depth == 0 and dice is first:
                            seen_first.add(src)
                        m[src] -= 1
                        m[0] += 1
                        steps.append((src, 0, die, False))
                        if last:
                            full_leaf()
                        else:
                            search(dice, nxt, src if dice[0] == dice[1] else 24, pips + die, cands)
                        steps.pop()
                        m[0] -= 1
                        m[src] += 1
                        moved = True
        if not moved:
            record(depth, pips)

    n_dice = 4 if d1 == d2 else 2
    # Non-doubles: the second order (d2 then d1) skips a d1 step from a point whose
    # d1 step was already legal at the start (the first order played those two steps
    # the other way round, to the same result).  Not with checkers on the bar.
    seen_first: set = set()
    first = (d1, d2)
    second = (d2, d1) if not m[25] else None
    occupied = [p for p in range(24, 0, -1) if m[p]]  # sources to look at; grows as checkers land
    if d1 == d2:
        search((d1,) * 4, 0, 24, 0, occupied)
    else:
        search(first, 0, 24, 0, occupied)
        search(second or (d2, d1), 0, 24, 0, occupied)
    if best[0] == 0:
        return []
    return results


def _result_position(pos: Position, mkey: bytes, hits: bytes) -> Position:
    mover = tuple(mkey[1:26])
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
    new = object.__new__
    turn = pos.turn
    opponents = {b"": pos.opponent}  # the opponent's side after each set of hits
    out = []
    for mk, hits, _steps in _search_roll(pos, d1, d2):
        opp = opponents.get(hits)
        if opp is None:
            opp = opponents[hits] = _result_position(pos, mk, hits).opponent
        r = new(Position)  # Position._raw, inlined: this loop is the AI's hot path
        r.mover = tuple(mk[1:26])
        r.opponent = opp
        r.turn = turn
        r._hash = None
        out.append(r)
    return out


def legal_plays(pos: Position, d1: int, d2: int) -> list:
    """Every legal play (one per resulting position) for the roll ``d1``-``d2``.

    :raises DiceError: a die outside 1-6.
    """
    from .play import Play

    check_dice(d1, d2)
    return [
        Play(pos, (d1, d2), tuple(Step(*s) for s in steps), _result_position(pos, mk, hits))
        for mk, hits, steps in _search_roll(pos, d1, d2)
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
    highest = max([p for p in range(1, 7) if m[p]], default=0) if home else 0
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
