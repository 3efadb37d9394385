"""GNU Backgammon move notation: formatting and parsing that round-trip.

Points are in the mover's own numbering, ``bar`` and ``off`` by name.
Formatting follows gnubg's own rules: moves sorted by source (then
destination) from the farthest back; moves of one checker joined into one
path, an intermediate point kept only where it hit (``24/20*/16``); identical
moves counted (``8/5(2)``); ``*`` after the landing that hits a blot (only the
first one, as the blot is gone after it).

>>> from engine.position import Position
>>> [p.notation for p in Position.start().legal_plays(3, 1)][:1]
['24/23 24/21']
>>> Position.start().parse_play("8/5 6/5", 3, 1).notation
'8/5 6/5'
"""
from .errors import IllegalPlayError, NotationError
from .position import BAR, OFF, Position


def _fmt_point(n: int) -> str:
    if n == BAR:
        return "bar"
    if n == OFF:
        return "off"
    return str(n)


def format_steps(pos: Position, steps) -> str:
    """gnubg notation of the steps (``Step`` or ``(src, dst)`` pairs) played from ``pos``."""
    opp = pos.opponent

    def had_blot(point: int) -> bool:
        # the opponent held a checker on the mover's ``point`` before the play
        return 1 <= point <= 24 and opp[24 - point] > 0

    moves = sorted(((s[0], s[1]) for s in steps), key=lambda mv: (-mv[0], -mv[1]))
    paths: list[list[int] | None] = [[a, b] for a, b in moves]
    # join moves of one checker: a move that starts where another one ended
    for i in range(len(paths)):
        pi = paths[i]
        if pi is None:
            continue
        for j in range(i, len(paths)):
            pj = paths[j]
            if pj is None or j == i:
                continue
            if pi[-1] == pj[0]:
                if had_blot(pi[-1]):
                    pi.append(pj[1])
                else:
                    pi[-1] = pj[1]
                paths[j] = None
    joined = [p for p in paths if p is not None]
    counted: list[tuple[list[int], int]] = []
    for p in joined:
        for k, (q, n) in enumerate(counted):
            if q == p:
                counted[k] = (q, n + 1)
                break
        else:
            counted.append((p, 1))
    parts = []
    hit: set[int] = set()  # a blot is hit once: only its first landing gets the '*'
    for path, n in counted:
        text = _fmt_point(path[0])
        for point in path[1:]:
            text += "/" + _fmt_point(point)
            if had_blot(point) and point not in hit:
                hit.add(point)
                text += "*"
        if n > 1:
            text += f"({n})"
        parts.append(text)
    return " ".join(parts)


def _is_point(text: str) -> bool:
    """``bar``, ``off`` (any case) or one or two digits."""
    t = text.lower()
    return t in ("bar", "off") or (1 <= len(t) <= 2 and all(c in "0123456789" for c in t))


def _parse_point(text: str, what: str) -> int:
    t = text.lower()
    if t == "bar":
        return BAR
    if t == "off":
        return OFF
    n = int(t)
    if not 0 <= n <= 25:
        raise NotationError(f"point {text!r} in {what!r} is not on the board (1-24, bar, off)")
    return n


def _unreadable(tok: str) -> str:
    return f"cannot read {tok!r}: write moves like 24/21, 13/9*, bar/22, 6/off or 8/5(2)"


def _split_token(tok: str) -> tuple[str, list[str], int]:
    """``"8/5*(2)"`` -> (``"8"``, [``"5*"``], 2): the source, the later points, the count.

    :raises NotationError: not of the form ``POINT/POINT[*]...[(N)]``.
    """
    count = 1
    body = tok
    if tok.endswith(")"):
        # a count is one digit in parentheses: "(2)"
        if len(tok) < 3 or tok[-3] != "(" or tok[-2] not in "0123456789":
            raise NotationError(_unreadable(tok))
        count = int(tok[-2])
        body = tok[:-3]
    parts = body.split("/")
    if len(parts) < 2 or not _is_point(parts[0]):
        raise NotationError(_unreadable(tok))
    for seg in parts[1:]:
        if not _is_point(seg[:-1] if seg.endswith("*") else seg):
            raise NotationError(_unreadable(tok))
    return parts[0], parts[1:], count


def parse_moves(text: str) -> list[tuple[list[int], set[int], int]]:
    """Split notation into (path of points, points marked as hits, count) parts.

    :raises NotationError: text that is not move notation.
    """
    if not isinstance(text, str):
        raise NotationError(f"move notation must be text, not {type(text).__name__}")
    tokens = text.replace(",", " ").split()
    out = []
    for tok in tokens:
        first, later, count = _split_token(tok)
        path = [_parse_point(first, tok)] + [_parse_point(seg.rstrip("*"), tok) for seg in later]
        hits: set[int] = set()
        for seg, p in zip(later, path[1:]):
            if seg.endswith("*"):
                if p in (BAR, OFF):
                    raise NotationError(f"{tok!r}: a hit can only be on a point 1-24")
                hits.add(p)
        if not 1 <= count <= 4:
            raise NotationError(f"{tok!r}: a move can be repeated 1 to 4 times")
        for a, b in zip(path, path[1:]):
            if a == OFF or b == BAR or (b != OFF and b >= a):
                raise NotationError(
                    f"{tok!r}: checkers move from higher to lower points (bar first, off last)"
                )
        out.append((path, hits, count))
    return out


def parse_play(pos: Position, text: str, d1: int, d2: int, plays: list | None = None):
    """The legal play in ``pos`` for roll ``d1``-``d2`` that ``text`` describes.

    ``plays`` may pass ``pos.legal_plays(d1, d2)`` when the caller has it already.

    :raises NotationError: the text is not move notation.
    :raises IllegalPlayError: the notation does not describe a legal play.
    """
    parts = parse_moves(text)
    if plays is None:
        plays = pos.legal_plays(d1, d2)
    if not parts:
        if not plays:
            raise IllegalPlayError(f"no legal play with {d1}-{d2}: the turn passes")
        raise IllegalPlayError(f"a play is needed: {d1}-{d2} can be played")
    mover = list(pos.mover)
    hits: set[int] = set()
    for path, marked, count in parts:
        src, dst = path[0], path[-1]
        mover[24 if src == BAR else src - 1] -= count
        if dst != OFF:
            mover[dst - 1] += count
        hits |= marked
    if min(mover) < 0:
        raise IllegalPlayError(f"{text!r} moves checkers that are not there")
    target = tuple(mover)
    for play in plays:
        if play.result.mover == target and set(play.hits) == hits:
            return play
    # be lenient about '*' marks when the checker movement alone is unambiguous
    same = [p for p in plays if p.result.mover == target]
    if len(same) == 1 and not hits:
        return same[0]
    raise IllegalPlayError(
        f"{text.strip()!r} is not a legal play with {d1}-{d2}"
        + (f"; legal plays include {plays[0].notation}" if plays else "; no move is possible")
    )
