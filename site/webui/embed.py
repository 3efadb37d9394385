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

from .render import View, render_board


def _points(text: str) -> set:
    out = set()
    for part in (text or "").split(","):
        part = part.strip()
        if part in ("bar", "off"):
            out.add(part)
        elif part.isdigit() and 1 <= int(part) <= 24:
            out.add(int(part))
    return out


def _dice(text: str) -> tuple:
    vals = tuple(int(x) for x in (text or "").split(",") if x.strip().isdigit() and 1 <= int(x) <= 6)
    return vals if len(vals) == 2 else ()


def _left(text: str) -> tuple:
    return tuple(int(x) for x in (text or "").split(",") if x.strip().isdigit() and 1 <= int(x) <= 6)[:4]


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
    if picked and picked.isdigit():
        picked = int(picked)
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
