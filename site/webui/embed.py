"""A board in any page with one element (pure: attributes in, SVG out).

    <div class="bg-board" data-position-id="4HPwATDgc/ABMA" data-turn="white"
         data-dice="3,1" data-legal="5,7" data-picked="8" data-bottom="white"
         data-caption="Opening 3-1: make the five point"></div>

Only ``data-position-id`` is needed (``data-turn`` says who is on roll in that
ID, White by default). ``data-live="true"`` marks a page's playable board
(``data-testid="board"``, focusable points). The build fills such divs with their SVG
(``prerender.py``); in the browser ``app.py``/``rules_app.py`` fill any left
empty. Diagrams are not interactive and carry ``data-testid="diagram"``.
"""


from html import escape

from engine import BLACK, WHITE, Position

from .plain_text import strip_spaces
from .render import View, render_board


def _number(text: str):
    """The value of a decimal numeral (ASCII digits, spaces around allowed), else None."""
    text = strip_spaces(text)
    if not text or any(ch not in "0123456789" for ch in text):
        return None
    return int(text)


def _points(text: str) -> set:
    out = set()
    for part in (text or "").split(","):
        part = strip_spaces(part)
        n = _number(part)
        if part in ("bar", "off"):
            out.add(part)
        elif n is not None and 1 <= n <= 24:
            out.add(n)
    return out


def _die_values(text: str) -> tuple:
    values = (_number(x) for x in (text or "").split(","))
    return tuple(n for n in values if n is not None and 1 <= n <= 6)


def _dice(text: str) -> tuple:
    vals = _die_values(text)
    return vals if len(vals) == 2 else ()


def _left(text: str) -> tuple:
    return _die_values(text)[:4]


def board_from_attrs(attrs: dict, uid: str = "e") -> str:
    """SVG for a ``.bg-board`` element's attributes (``data-*`` keys)."""
    turn = attrs.get("data-turn", WHITE)
    if turn not in (WHITE, BLACK):
        turn = WHITE
    pid = attrs.get("data-position-id") or Position.start().id
    try:
        pos = Position.from_id(pid, turn=turn)
    except ValueError:
        return f'<p class="bg-board-error">Not a valid position ID: {escape(pid)}</p>'
    bottom = attrs.get("data-bottom", WHITE)
    if bottom not in (WHITE, BLACK):
        bottom = WHITE
    picked = attrs.get("data-picked")
    if picked and _number(picked) is not None:
        picked = _number(picked)
    opening = _dice(attrs.get("data-opening", ""))
    live = attrs.get("data-live") == "true"
    view = View(
        bottom=bottom,
        dice=_dice(attrs.get("data-dice", "")) or opening,
        dice_left=_left(attrs["data-dice-left"]) if "data-dice-left" in attrs else None,
        opening=opening or None,
        legal=_points(attrs.get("data-legal", "")),
        picked=picked or None,
        testid="board" if live else "diagram",
        uid=uid,
        interactive=live,
        label=escape(attrs.get("data-caption", "") or "Backgammon diagram"),
    )
    return render_board(pos, view)
