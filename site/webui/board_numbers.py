"""Moves written in the numbers printed on the board (pure, no DOM).

The engine, the command line and the exports write moves in gnubg notation,
in the mover's own numbering: Black's ``24/15`` is the checker on the board's
point 1 moving to 10. The board's labels are White's numbers (the absolute
points of ``data-point``), so everything a person reads on the page (the
status line, the history, the hint) is written here in those numbers:
White's moves unchanged, Black's with every point ``n`` shown as ``25 - n``.
Runs on CPython and MicroPython alike.

>>> board_notation("24/15 13/11*", "black")
'1/10 12/14*'
>>> board_notation("bar/20*/16(2)", "black")
'bar/5*/9(2)'
"""

WHITE = "white"
_DIGITS = "0123456789"


def board_point(color: str, own) -> str:
    """``color``'s own point number (25 = bar, 0 = off) as the board labels it."""
    own = int(own)
    if own == 25:
        return "bar"
    if own == 0:
        return "off"
    return str(own if color == WHITE else 25 - own)


def _segment(color: str, seg: str) -> str:
    star = seg.endswith("*")
    core = seg[:-1] if star else seg
    if core and all(c in _DIGITS for c in core):
        core = board_point(color, core)
    return core + ("*" if star else "")


def _token(color: str, tok: str) -> str:
    count = ""
    cut = tok.find("(")
    if cut >= 0:
        tok, count = tok[:cut], tok[cut:]
    return "/".join(_segment(color, s) for s in tok.split("/")) + count


def board_notation(notation: str, color: str) -> str:
    """gnubg notation of ``color``'s play, in the board's numbers ("" stays "")."""
    if not notation or color == WHITE:
        return notation or ""
    return " ".join(_token(color, t) for t in notation.split(" ") if t)


def steps_text(color: str, steps) -> str:
    """Steps (own numbering, ``src``/``dst``/``hit``) in the board's numbers: ``1/7 12/14*``."""
    return " ".join(
        f"{board_point(color, st.src)}/{board_point(color, st.dst)}{'*' if st.hit else ''}" for st in steps
    )
