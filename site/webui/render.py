"""Draw a backgammon position as SVG: a pure function, no DOM, no rules.

``render_board(position, view)`` returns one ``<svg>`` string. The same code
draws the live board in the browser, the boards pre-rendered at build time and
the diagrams of the rules page. The board knows nothing of legality: the host
passes the legal destinations in ``view.legal`` and the board only shows them.

Geometry: the viewBox is fixed (``WIDTH`` x ``HEIGHT``) and the SVG scales to
its container. ``view.bottom`` is the colour whose home board is drawn
bottom-right (each human sees their own home there); the bear-off tray is on
the right.

The position is duck-typed; it needs ``owner(point)``, ``bar(colour)``,
``off(colour)``, ``pip(colour)``, ``turn`` and ``id`` (``engine.Position``).
"""

import math

from .palette import PALETTE as C

WHITE, BLACK = "white", "black"
# A "point" below is 1..24, "bar" or "off".

# ---------------------------------------------------------------- geometry
FX = 16            # frame thickness left/right
FY = 28            # frame thickness top/bottom (holds the point numbers)
PW = 60            # point width
BARW = 56          # bar width
TRAYW = 72         # bear-off tray width
D = 52             # checker diameter
R = D / 2
HALF = 5 * D       # height of one row of points (five checkers)
MID = 64           # band between the rows (dice live here)
TRI = 228          # triangle height

LEFT_X = FX                     # left field
BAR_X = LEFT_X + 6 * PW         # bar
RIGHT_X = BAR_X + BARW          # right field
FIELD_END = RIGHT_X + 6 * PW
TRAY_X = FIELD_END + FX         # tray column
WIDTH = TRAY_X + TRAYW + FX
TOP_Y = FY
MID_Y = FY + HALF + MID / 2     # centre line
BOTTOM_Y = FY + 2 * HALF + MID  # lower edge of the field
HEIGHT = BOTTOM_Y + FY


GLIDE_S = 0.32     # a moving checker's glide at normal speed
#: a rotated board (portrait phones) is also drawn this much longer along its points, so that on a
#: 390 px phone each point is 44 px across; checkers, dice and words keep their shapes (``_round``)
STRETCH = 1.22


def other(color: str) -> str:
    return BLACK if color == WHITE else WHITE


class View:
    """How to draw a position: everything that is not the checkers.

    Built with keywords, e.g. ``View(dice=(3, 1), legal={5, 7}, picked=8)``;
    every attribute below has that keyword and default.
    """

    def __init__(self, bottom: str = WHITE, dice: tuple = (), dice_left=None, opening=None, me=None,
                 legal=(), picked=None, focus=None, tab_stop=None, moved=None, hint: tuple = (),
                 turn=None, position_id=None, testid="board", uid: str = "b", interactive: bool = True,
                 numbers: bool = True, animate: bool = True, label: str = "", extra=None,
                 dice_turn=None, dice_note: str = "", movable=(), refused=None, glide_s: float = GLIDE_S,
                 rotated: bool = False, played: tuple = ()):
        self.bottom = bottom                # colour whose home is bottom-right: "white"
        self.dice = dice                    # dice rolled this turn: (3, 1); () before the roll
        self.dice_left = dice_left          # dice still to play: (1,); None = all of them
        self.opening = opening              # opening roll (white_die, black_die): (5, 3)
        self.me = me                        # colour this screen controls (data-me): "white"
        self.legal = legal                  # highlighted destinations: {4, "off"}
        self.picked = picked                # picked-up source: 8 or "bar"
        self.focus = focus                  # keyboard focus: 13
        self.tab_stop = tab_stop            # reached by Tab when nothing has focus: 24
        self.moved = moved                  # animate one checker: (src, dst, colour)
        self.hint = hint                    # arrows for a suggested play: ((13, 9), (24, 21))
        self.turn = turn                    # overrides position.turn for data-turn: "black"
        self.position_id = position_id      # overrides position.id for data-position-id
        self.testid = testid                # data-testid of the svg, None for diagrams
        self.uid = uid                      # prefix for gradient ids (unique per page)
        self.interactive = interactive      # points focusable/clickable
        self.numbers = numbers              # point numbers on the frame
        self.animate = animate              # False when the user prefers reduced motion
        self.label = label                  # caption for assistive tech
        self.extra = {} if extra is None else extra  # more data-* attributes: {"mode": "ai"}, written sorted
        self.dice_turn = dice_turn          # whose dice these are, if not the turn's: "white"
        self.dice_note = dice_note          # words next to the dice: "no legal move"
        self.movable = movable              # points whose top checker can move now: {13, 24}
        self.refused = refused              # a point whose checker was clicked but cannot move: 6
        self.glide_s = glide_s              # how long a moving checker glides (the animation speed option)
        self.rotated = rotated              # drawn a quarter turn clockwise (portrait phones), words upright
        self.played = played                # arrows of the play made, next to the hint's (a review)

    def __repr__(self) -> str:
        return "View(" + ", ".join(f"{k}={v!r}" for k, v in sorted(self.__dict__.items())) + ")"


# ------------------------------------------------------------- placement
def own_number(bottom: str, point: int) -> int:
    """Point number as the bottom player counts it (1 = bottom-right corner)."""
    return point if bottom == WHITE else 25 - point


def point_column(bottom: str, point: int) -> tuple:
    """(left x of the point's column, is it in the top row) for point 1..24."""
    n = own_number(bottom, point)
    if n <= 6:
        return RIGHT_X + (6 - n) * PW, False
    if n <= 12:
        return LEFT_X + (12 - n) * PW, False
    if n <= 18:
        return LEFT_X + (n - 13) * PW, True
    return RIGHT_X + (n - 19) * PW, True


def checker_center(bottom: str, point, index: int, color: str = WHITE) -> tuple:
    """Centre of the ``index``-th checker (0 = at the edge) on a point, the bar or off.

    Stacks taller than five are drawn as five, so index is capped at 4. On the
    bar, the bottom player's checkers sit in the upper half (next to where they
    enter) and the top player's in the lower half.
    """
    k = min(index, 4)
    if point == "bar":
        x = BAR_X + BARW / 2
        if color == bottom:
            return x, MID_Y - MID / 2 - R - 6 - k * D * 0.9
        return x, MID_Y + MID / 2 + R + 6 + k * D * 0.9
    if point == "off":
        x = TRAY_X + TRAYW / 2
        if color == bottom:
            return x, BOTTOM_Y - 8 - 7 - index * 15
        return x, TOP_Y + 8 + 7 + index * 15
    x, top = point_column(bottom, int(point))
    x += PW / 2
    if top:
        return x, TOP_Y + R + k * D
    return x, BOTTOM_Y - R - k * D


# --------------------------------------------------------------- pieces
_F_CACHE = {}
_PIECE_CACHE = {}
CACHE_LIMIT = 4096   # distinct coordinates and pieces a board uses are far fewer


def _f(v) -> str:
    """``_format_coordinate(v)``, remembered: a board writes the same few
    hundred coordinates every time it is drawn, and on the page's
    MicroPython formatting them is most of the cost of a redraw."""
    text = _F_CACHE.get(v)
    if text is None:
        if len(_F_CACHE) >= CACHE_LIMIT:
            _F_CACHE.clear()
        text = _F_CACHE[v] = _format_coordinate(v)
    return text


def _format_coordinate(v) -> str:
    """A coordinate with at most one decimal: ``f"{v:.1f}"`` without a trailing
    ".0" ("12", "12.5", "-3.2"), the same text in every runtime.

    MicroPython's float formatting rounds some halves the other way
    (``f"{2.25:.1f}"`` is "2.3" there, "2.2" in CPython), so the tenths are
    rounded here, half to even on the float's exact value, as CPython does.
    """
    v = float(v)
    tenths = abs(_tenths(v))
    negative = v < 0 or (v == 0 and math.copysign(1.0, v) < 0)
    text = str(tenths // 10) if tenths % 10 == 0 else f"{tenths // 10}.{tenths % 10}"
    return "-" + text if negative else text


def _tenths(v: float) -> int:
    """``v * 10`` rounded to an integer, half to even, exactly."""
    x = v * 10
    n = math.floor(x)
    frac = x - n
    if abs(frac - 0.5) > 1e-6:
        # far from a tie: the rounded product x rounds like the exact one
        return n + 1 if frac > 0.5 else n
    mantissa, exp = math.frexp(v)      # v = mantissa * 2**exp, exactly
    num = int(mantissa * 2**53) * 10   # v * 10 = num * 2**(exp - 53)
    if exp >= 53:
        return num << (exp - 53)
    den = 1 << (53 - exp)
    q, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and q % 2):
        q += 1
    return q


def _unstretch(cx: float) -> str:
    """Undo the rotated board's stretch (``STRETCH`` along x) about x = ``cx``."""
    return f"matrix({1 / STRETCH:.4f} 0 0 1 {_f(cx * (1 - 1 / STRETCH))} 0)"


def _upright(rotated: bool, cx: float, cy: float) -> str:
    """On a rotated board, the transform that turns words about (cx, cy) back upright and
    unstretched ("" otherwise)."""
    return f' transform="{_unstretch(cx)} rotate(-90 {_f(cx)} {_f(cy)})"' if rotated else ""


def _round(rotated: bool, cx: float, piece: str) -> str:
    """A round piece centred at x = ``cx`` (checker, ring, die) kept round on a rotated, stretched board."""
    return f'<g transform="{_unstretch(cx)}">{piece}</g>' if rotated else piece


def _checker(u: str, color: str, cx: float, cy: float, label: str = "", cls: str = "", rotated: bool = False) -> str:
    """One checker seen from above (remembered, like ``_f``: pure in its arguments)."""
    key = ("c", u, color, cx, cy, label, cls, rotated)
    piece = _PIECE_CACHE.get(key)
    if piece is None:
        if len(_PIECE_CACHE) >= CACHE_LIMIT:
            _PIECE_CACHE.clear()
        piece = _PIECE_CACHE[key] = _draw_checker(u, color, cx, cy, label, cls, rotated)
    return piece


def _draw_checker(u: str, color: str, cx: float, cy: float, label: str, cls: str, rotated: bool = False) -> str:
    fill, rim, ink = (
        (f"url(#{u}-cw)", C["white_shade"], C["white_text"])
        if color == WHITE
        else (f"url(#{u}-cb)", C["black_shade"], C["black_text"])
    )
    x, y = _f(cx), _f(cy)
    turned = f' transform="rotate(-90 {x} {y})"' if rotated else ""  # its count upright on a rotated board
    out = [
        f'<g class="checker {color}{cls}">',
        f'<circle cx="{x}" cy="{_f(cy + 2.5)}" r="{_f(R - 1)}" fill="#000" opacity=".35"/>',
        f'<circle cx="{x}" cy="{y}" r="{_f(R - 1.5)}" fill="{fill}" stroke="{rim}" stroke-width="1.5"/>',
        f'<circle cx="{x}" cy="{y}" r="{_f(R * 0.62)}" fill="none" stroke="{rim}" stroke-opacity=".55" stroke-width="2"/>',
        f'<circle cx="{x}" cy="{y}" r="{_f(R * 0.62 - 2)}" fill="none" stroke="#fff" stroke-opacity=".18" stroke-width="1"/>',
    ]
    if label:
        out.append(
            f'<text x="{x}" y="{_f(cy + 6)}" text-anchor="middle" font-size="18"{turned} '
            f'font-weight="700" fill="{ink}" font-family="system-ui,sans-serif">{label}</text>'
        )
    out.append("</g>")
    return _round(rotated, cx, "".join(out))


def _slab(u: str, color: str, cx: float, cy: float) -> str:
    """A borne-off checker, seen edge-on in the tray."""
    fill, rim = ((C["white"], C["white_shade"]) if color == WHITE else (C["black"], "#000"))
    return (
        f'<rect class="slab {color}" x="{_f(cx - 26)}" y="{_f(cy - 6.5)}" width="52" height="13" rx="3" '
        f'fill="{fill}" stroke="{rim}" stroke-width="1"/>'
    )


_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _die(u: str, value: int, color: str, cx: float, cy: float, used: bool = False, size: float = 44) -> str:
    face, pip, edge = (
        ("#fbf7ee", "#231a12", "#b8a37c") if color == WHITE else ("#2d2d33", "#f6efe0", "#000")
    )
    h = size / 2
    op = ' opacity=".35"' if used else ""
    out = [
        f'<g class="die {color}{" used" if used else ""}" data-die="{value}"{op}>',
        f'<rect x="{_f(cx - h + 2)}" y="{_f(cy - h + 3)}" width="{_f(size)}" height="{_f(size)}" rx="8" fill="#000" opacity=".35"/>',
        f'<rect x="{_f(cx - h)}" y="{_f(cy - h)}" width="{_f(size)}" height="{_f(size)}" rx="8" fill="{face}" stroke="{edge}" stroke-width="1.5"/>',
    ]
    s = size * 0.26
    for dx, dy in _PIPS.get(value, []):
        out.append(f'<circle cx="{_f(cx + dx * s)}" cy="{_f(cy + dy * s)}" r="{_f(size * 0.09)}" fill="{pip}"/>')
    out.append("</g>")
    return "".join(out)


def _defs(u: str) -> str:
    return (
        "<defs>"
        f'<linearGradient id="{u}-wood" x1="0" y1="0" x2="1" y2=".12">'
        f'<stop offset="0" stop-color="{C["wood_dark"]}"/><stop offset=".18" stop-color="{C["wood"]}"/>'
        f'<stop offset=".35" stop-color="{C["wood_light"]}"/><stop offset=".52" stop-color="{C["wood"]}"/>'
        f'<stop offset=".7" stop-color="{C["wood_light"]}"/><stop offset=".86" stop-color="{C["wood"]}"/>'
        f'<stop offset="1" stop-color="{C["wood_dark"]}"/></linearGradient>'
        f'<radialGradient id="{u}-felt" cx=".5" cy=".5" r=".75">'
        f'<stop offset="0" stop-color="{C["felt"]}"/><stop offset="1" stop-color="{C["felt_edge"]}"/></radialGradient>'
        f'<radialGradient id="{u}-cw" cx=".38" cy=".32" r=".75">'
        f'<stop offset="0" stop-color="#ffffff"/><stop offset=".55" stop-color="{C["white"]}"/>'
        f'<stop offset="1" stop-color="{C["white_shade"]}"/></radialGradient>'
        f'<radialGradient id="{u}-cb" cx=".38" cy=".32" r=".75">'
        f'<stop offset="0" stop-color="#5a5a63"/><stop offset=".55" stop-color="{C["black"]}"/>'
        f'<stop offset="1" stop-color="{C["black_shade"]}"/></radialGradient>'
        f'<linearGradient id="{u}-bar" x1="0" y1="0" x2="1" y2="0">'
        f'<stop offset="0" stop-color="{C["wood_dark"]}"/><stop offset=".5" stop-color="{C["bar"]}"/>'
        f'<stop offset="1" stop-color="{C["wood_dark"]}"/></linearGradient>'
        "</defs>"
    )


def _grain(x: float, y: float, w: float, h: float, seed: int) -> str:
    """A few faint wavy lines so the frame reads as wood (remembered, like ``_checker``)."""
    key = ("g", x, y, w, h, seed)
    lines = _PIECE_CACHE.get(key)
    if lines is None:
        lines = _PIECE_CACHE[key] = _draw_grain(x, y, w, h, seed)
    return lines


def _draw_grain(x: float, y: float, w: float, h: float, seed: int) -> str:
    """One path of n lines (never crossing, so it looks like n paths): the bar's
    49 lines are one element to parse, style and paint instead of 49."""
    lines = []
    n = max(2, int(h // 12))
    for i in range(n):
        yy = y + (i + 0.5) * h / n
        a = 1.5 + ((seed * 7 + i * 3) % 5) * 0.6
        lines.append(f"M{_f(x)} {_f(yy)} q{_f(w / 4)} {_f(-a)} {_f(w / 2)} 0 t{_f(w / 2)} 0")
    d = " ".join(lines)
    return f'<path d="{d}" fill="none" stroke="#000" stroke-opacity=".10" stroke-width="1"/>'


# ------------------------------------------------------------------ board
def _plural(n: int, color: str) -> str:
    return f"{n} {color} checker{'s' if n != 1 else ''}"


def _point_label(position, p: int) -> str:
    color, n = position.owner(p)
    if not color or not n:
        return f"point {p}, empty"
    return f"point {p}, {_plural(n, color)}"


def _landing_index(position, p: int, mover: str) -> int:
    color, n = position.owner(p)
    if color == mover:
        return n
    return 0


def render_board(position, view=None) -> str:
    """The position as one ``<svg>`` element (a string).

    Every point is a ``<g data-point="N">`` (absolute numbering 1..24) with an
    ``aria-label``; so are ``data-point="bar"`` and ``data-point="off"``.
    Destinations in ``view.legal`` carry ``data-legal="true"``; the picked-up
    source carries ``data-picked="true"``.
    """
    v = view or View()
    u = v.uid
    bottom = v.bottom
    top = other(bottom)
    turn = v.turn or position.turn
    pid = v.position_id if v.position_id is not None else position.id
    legal = set(v.legal)
    movable = set(v.movable)
    dice_s = ",".join(str(d) for d in v.dice)

    rot = v.rotated
    attrs = [
        'xmlns="http://www.w3.org/2000/svg"',
        f'viewBox="0 0 {HEIGHT} {_f(WIDTH * STRETCH)}"' if rot else f'viewBox="0 0 {WIDTH} {HEIGHT}"',
        'class="bg-svg"',
        'role="group"',
        f'aria-label="{v.label or "Backgammon board"}"',
        f'data-position-id="{pid}"',
        f'data-turn="{turn}"',
        f'data-dice="{dice_s}"',
        f'data-bottom="{bottom}"',
    ]
    if v.testid:
        attrs.append(f'data-testid="{v.testid}"')
    if v.me:
        attrs.append(f'data-me="{v.me}"')
    if rot:
        attrs.append('data-rotated="true"')
    for k in sorted(v.extra):
        attrs.append(f'data-{k}="{v.extra[k]}"')
    out = [f"<svg {' '.join(attrs)}>", _defs(u)]
    if rot:  # a quarter turn clockwise: the tray at the bottom, the home board bottom-left
        out.append(f'<g transform="translate({HEIGHT} 0) rotate(90) scale({STRETCH} 1)">')

    # frame and field
    out.append(f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" rx="14" fill="url(#{u}-wood)"/>')
    out.append(_grain(0, 0, WIDTH, FY, 1) + _grain(0, HEIGHT - FY, WIDTH, FY, 2))
    out.append(
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" rx="14" fill="none" '
        f'stroke="{C["wood_dark"]}" stroke-width="3"/>'
    )
    field_h = BOTTOM_Y - TOP_Y
    for x0 in (LEFT_X, RIGHT_X):
        out.append(
            f'<rect x="{x0}" y="{TOP_Y}" width="{6 * PW}" height="{field_h}" fill="url(#{u}-felt)" '
            f'stroke="{C["wood_dark"]}" stroke-width="2"/>'
        )
    out.append(f'<rect x="{BAR_X}" y="{TOP_Y - 4}" width="{BARW}" height="{field_h + 8}" fill="url(#{u}-bar)"/>')
    out.append(_grain(BAR_X + 4, TOP_Y, BARW - 8, field_h, 3))
    out.append(
        f'<rect x="{TRAY_X}" y="{TOP_Y}" width="{TRAYW}" height="{field_h}" rx="6" fill="{C["tray"]}" '
        f'stroke="{C["wood_dark"]}" stroke-width="2"/>'
    )
    out.append(
        f'<line x1="{TRAY_X + 6}" y1="{_f(MID_Y)}" x2="{TRAY_X + TRAYW - 6}" y2="{_f(MID_Y)}" '
        f'stroke="{C["wood_light"]}" stroke-opacity=".5" stroke-width="2"/>'
    )

    # one point is in the Tab order: the focused one, else the tab stop
    tab = v.focus if v.focus is not None else (v.tab_stop if v.tab_stop is not None else (1 if bottom == WHITE else 24))

    # points
    anim = v.moved if (v.moved and v.animate) else None
    for p in range(1, 25):
        x0, is_top = point_column(bottom, p)
        n_own = own_number(bottom, p)
        tri_fill = C["point_dark"] if n_own % 2 == 0 else C["point_light"]
        if is_top:
            y0, y1 = TOP_Y, MID_Y
            tri = f"{x0 + 2},{TOP_Y} {x0 + PW - 2},{TOP_Y} {_f(x0 + PW / 2)},{TOP_Y + TRI}"
        else:
            y0, y1 = MID_Y, BOTTOM_Y
            tri = f"{x0 + 2},{BOTTOM_Y} {x0 + PW - 2},{BOTTOM_Y} {_f(x0 + PW / 2)},{BOTTOM_Y - TRI}"
        label = _point_label(position, p)
        if p in legal:
            label += ", legal destination"
        if v.picked == p:
            label += ", checker picked up"
        elif p in v.movable:
            label += ", can move"
        g = [f'<g class="point" data-point="{p}" aria-label="{label}"']
        # a labelled element needs a role: a button to play on, a picture in a diagram
        g.append(f' role="button" tabindex="{0 if p == tab else -1}"' if v.interactive else ' role="img"')
        if p in legal:
            g.append(' data-legal="true"')
        if v.picked == p:
            g.append(' data-picked="true"')
        if p in movable:
            g.append(' data-movable="true"')
        if v.refused == p:
            g.append(' data-refused="true"')
        g.append(">")
        g.append(f'<rect class="hit" x="{x0}" y="{_f(y0)}" width="{PW}" height="{_f(y1 - y0)}" fill="#000" fill-opacity="0"/>')
        g.append(f'<polygon points="{tri}" fill="{tri_fill}" stroke="#000" stroke-opacity=".18" stroke-width="1"/>')
        if p in legal:
            g.append(f'<polygon class="legal-glow" points="{tri}" fill="{C["legal"]}" fill-opacity=".45"/>')
        color, n = position.owner(p)
        if color and n:
            for i in range(min(n, 5)):
                cx, cy = checker_center(bottom, p, i, color)
                lab = str(n) if (i == 4 and n > 5) else ""
                cls = ""
                is_top_checker = i == min(n, 5) - 1
                if v.picked == p and is_top_checker:
                    cls = " picked"
                piece = _checker(u, color, cx, cy, lab, cls, rot)
                if anim and anim[1] == p and is_top_checker:
                    piece = _animated(piece, anim, bottom, cx, cy, color, v.glide_s)
                g.append(piece)
                if v.picked == p and is_top_checker:
                    g.append(_round(rot, cx,
                        f'<circle class="picked-ring" cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(R + 1)}" fill="none" '
                        f'stroke="{C["picked"]}" stroke-width="4"/>'
                    ))
                elif is_top_checker and (p in movable or v.refused == p):
                    g.append(_round(rot, cx, _mark(cx, cy, v.refused == p)))
        if p in legal:
            mover = turn
            cx, cy = checker_center(bottom, p, _landing_index(position, p, mover), mover)
            g.append(_round(rot, cx,
                f'<circle class="legal-spot" cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(R - 3)}" fill="{C["legal"]}" '
                f'fill-opacity=".45" stroke="{C["legal"]}" stroke-width="3" stroke-dasharray="6 4"/>'
            ))
        if v.focus == p:
            g.append(
                f'<rect class="focus-ring" x="{x0 + 2}" y="{_f(y0 + 2)}" width="{PW - 4}" height="{_f(y1 - y0 - 4)}" '
                f'rx="6" fill="none" stroke="{C["focus"]}" stroke-width="3" stroke-dasharray="8 4"/>'
            )
        g.append("</g>")
        out.append("".join(g))

    # bar
    wb, bb = position.bar(WHITE), position.bar(BLACK)
    can = ", can move" if "bar" in v.movable and v.picked != "bar" else ""
    g = [f'<g class="bar" data-point="bar" aria-label="bar, {_plural(wb, WHITE)}, {_plural(bb, BLACK)}{can}"']
    g.append(f' role="button" tabindex="{0 if tab == "bar" else -1}"' if v.interactive else ' role="img"')
    if "bar" in legal:
        g.append(' data-legal="true"')
    if v.picked == "bar":
        g.append(' data-picked="true"')
    if "bar" in movable:
        g.append(' data-movable="true"')
    if v.refused == "bar":
        g.append(' data-refused="true"')
    g.append(">")
    g.append(f'<rect class="hit" x="{BAR_X}" y="{TOP_Y}" width="{BARW}" height="{field_h}" fill="#000" fill-opacity="0"/>')
    for color, n in ((WHITE, wb), (BLACK, bb)):
        for i in range(min(n, 4)):
            cx, cy = checker_center(bottom, "bar", i, color)
            lab = str(n) if (i == min(n, 4) - 1 and n > 4) else ""
            top_one = i == min(n, 4) - 1
            cls = " picked" if (v.picked == "bar" and color == turn and top_one) else ""
            piece = _checker(u, color, cx, cy, lab, cls, rot)
            if anim and anim[1] == "bar" and anim[2] == color and top_one:
                piece = _animated(piece, anim, bottom, cx, cy, color, v.glide_s)
            g.append(piece)
            if cls:
                g.append(_round(rot, cx,
                    f'<circle class="picked-ring" cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(R + 1)}" fill="none" '
                    f'stroke="{C["picked"]}" stroke-width="4"/>'
                ))
            elif top_one and color == turn and ("bar" in movable or v.refused == "bar"):
                g.append(_round(rot, cx, _mark(cx, cy, v.refused == "bar")))
    if v.focus == "bar":
        g.append(
            f'<rect class="focus-ring" x="{BAR_X + 2}" y="{TOP_Y + 2}" width="{BARW - 4}" height="{field_h - 4}" '
            f'rx="6" fill="none" stroke="{C["focus"]}" stroke-width="3" stroke-dasharray="8 4"/>'
        )
    g.append("</g>")
    out.append("".join(g))

    # bear-off tray
    wo, bo = position.off(WHITE), position.off(BLACK)
    g = [
        f'<g class="tray" data-point="off" aria-label="off, {_plural(wo, WHITE)} and '
        f'{_plural(bo, BLACK)} borne off"'
    ]
    g.append(f' role="button" tabindex="{0 if tab == "off" else -1}"' if v.interactive else ' role="img"')
    if "off" in legal:
        g.append(' data-legal="true"')
    g.append(">")
    g.append(f'<rect class="hit" x="{TRAY_X}" y="{TOP_Y}" width="{TRAYW}" height="{field_h}" fill="#000" fill-opacity="0"/>')
    for color, n in ((WHITE, wo), (BLACK, bo)):
        for i in range(n):
            cx, cy = checker_center(bottom, "off", i, color)
            piece = _slab(u, color, cx, cy)
            if anim and anim[1] == "off" and anim[2] == color and i == n - 1:
                piece = _animated(piece, anim, bottom, cx, cy, color, v.glide_s)
            g.append(piece)
    if "off" in legal:
        mover = turn
        y0 = MID_Y if mover == bottom else TOP_Y
        g.append(
            f'<rect class="legal-glow" x="{TRAY_X + 3}" y="{_f(y0 + 3)}" width="{TRAYW - 6}" height="{_f(HALF + MID / 2 - 6)}" '
            f'rx="6" fill="{C["legal"]}" fill-opacity=".3" stroke="{C["legal"]}" stroke-width="3" stroke-dasharray="6 4"/>'
        )
    if v.focus == "off":
        g.append(
            f'<rect class="focus-ring" x="{TRAY_X + 2}" y="{TOP_Y + 2}" width="{TRAYW - 4}" height="{field_h - 4}" '
            f'rx="6" fill="none" stroke="{C["focus"]}" stroke-width="3" stroke-dasharray="8 4"/>'
        )
    g.append("</g>")
    out.append("".join(g))

    # pip counts and whose turn, in the tray's middle
    for color, y in ((top, MID_Y - (60 if rot else 12)), (bottom, MID_Y + (60 if rot else 24))):
        active = color == turn and not v.opening and not _finished(position) and v.extra.get("phase") != "over"
        ink = C["legal"] if active else C["wood_text"]
        out.append(
            f'<g class="pips {color}{" on-roll" if active else ""}" role="img" aria-label="{color} pip count {position.pip(color)}"'
            f'{_upright(rot, TRAY_X + TRAYW / 2, y - 6)}>'
            f'<circle cx="{TRAY_X + 12}" cy="{_f(y - 6)}" r="7" fill="url(#{u}-{"cw" if color == WHITE else "cb"})" '
            f'stroke="{ink if active else "#000"}" stroke-width="{2.5 if active else 1}"/>'
            f'<text x="{TRAY_X + TRAYW - 8}" y="{_f(y)}" text-anchor="end" font-size="21" font-weight="{700 if active else 400}" '
            f'fill="{ink}" font-family="system-ui,sans-serif">{position.pip(color)}</text></g>'
        )

    # point numbers on the frame
    if v.numbers:
        for p in range(1, 25):
            x0, is_top = point_column(bottom, p)
            y = TOP_Y - 8 if is_top else BOTTOM_Y + 21
            out.append(
                f'<text class="num" x="{_f(x0 + PW / 2)}" y="{y}"{_upright(rot, x0 + PW / 2, y - 7)} text-anchor="middle" '
                f'font-size="20" font-weight="600" '
                f'fill="{C["wood_text"]}" font-family="system-ui,sans-serif" aria-hidden="true">{p}</text>'
            )

    # dice in the middle band: the roller's own half is on their right
    out.append(_dice_svg(v, v.dice_turn or turn))
    if v.played:
        out.append(_hint_svg(position, v, turn, v.played, "played"))
    if v.hint:
        out.append(_hint_svg(position, v, turn))
    if rot:
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def _mark(cx: float, cy: float, refused: bool) -> str:
    """A movable checker's ring, or a refused one's cross (it cannot move now)."""
    if refused:
        d = R * 0.45
        return (
            f'<g class="refused-mark" pointer-events="none"><circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(R + 1)}" fill="none" '
            f'stroke="{C["refused"]}" stroke-width="4"/><path d="M{_f(cx - d)} {_f(cy - d)}L{_f(cx + d)} {_f(cy + d)}'
            f'M{_f(cx + d)} {_f(cy - d)}L{_f(cx - d)} {_f(cy + d)}" stroke="{C["refused"]}" stroke-width="5" '
            f'stroke-linecap="round"/></g>'
        )
    return (
        f'<circle class="movable-ring" cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(R + 1)}" fill="none" '
        f'stroke="{C["movable"]}" stroke-width="3" stroke-opacity=".8" pointer-events="none"/>'
    )


def _stack_height(position, point, color: str) -> int:
    if point == "bar":
        return position.bar(color)
    if point == "off":
        return position.off(color)
    c, n = position.owner(int(point))
    return n if c == color else 0


def _hint_svg(position, v: View, turn: str, arrows=None, kind: str = "hint") -> str:
    """Arrows from each step's source checker to where it lands: the hint's
    (``kind`` "hint"), or the play made (``kind`` "played", another colour)."""
    col = C[kind]
    marker = f"{v.uid}-arrow" if kind == "hint" else f"{v.uid}-{kind}-arrow"
    out = [
        f'<g class="{kind}" aria-hidden="true" pointer-events="none">'
        f'<defs><marker id="{marker}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" markerHeight="4" '
        f'orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="{col}"/></marker></defs>'
    ]
    for src, dst in (v.hint if arrows is None else arrows):
        h = _stack_height(position, src, turn)
        sx, sy = checker_center(v.bottom, src, max(h - 1, 0), turn)
        dx, dy = checker_center(v.bottom, dst, _stack_height(position, dst, turn), turn)
        out.append(
            f'<line x1="{_f(sx)}" y1="{_f(sy)}" x2="{_f(dx)}" y2="{_f(dy)}" stroke="{col}" stroke-width="6" '
            f'stroke-linecap="round" stroke-opacity=".9" marker-end="url(#{marker})"/>'
            + _round(v.rotated, sx, f'<circle cx="{_f(sx)}" cy="{_f(sy)}" r="{_f(R - 2)}" fill="none" stroke="{col}" '
                     f'stroke-width="4"/>')
        )
    out.append("</g>")
    return "".join(out)


def _finished(position) -> bool:
    winner = getattr(position, "winner", None)
    try:
        return bool(winner()) if callable(winner) else bool(winner)
    except Exception:
        return False


def _dice_svg(v: View, turn: str) -> str:
    bottom = v.bottom
    out = ['<g class="dice" aria-hidden="true">']
    if v.opening:
        w, b = v.opening
        left = list(v.dice_left) if v.dice_left is not None else [w, b]
        for color, value in ((WHITE, w), (BLACK, b)):
            x0 = RIGHT_X if color == bottom else LEFT_X
            used = value not in left
            if not used:
                left.remove(value)
            out.append(_round(v.rotated, x0 + 3 * PW, _die(v.uid, value, color, x0 + 3 * PW, MID_Y, used)))
    elif v.dice:
        d1, d2 = v.dice[0], v.dice[1]
        faces = [d1, d1, d1, d1] if d1 == d2 else [d1, d2]
        left = list(v.dice_left) if v.dice_left is not None else list(faces)
        used = []
        for f in faces:  # mark used dice from the right so the order reads naturally
            if f in left:
                left.remove(f)
                used.append(False)
            else:
                used.append(True)
        x0 = RIGHT_X if turn == bottom else LEFT_X
        gap = 54
        start = x0 + 3 * PW - gap * (len(faces) - 1) / 2
        for i, f in enumerate(faces):
            out.append(_round(v.rotated, start + i * gap, _die(v.uid, f, turn, start + i * gap, MID_Y, used[i])))
        if v.dice_note:
            nx = (LEFT_X if turn == bottom else RIGHT_X) + 3 * PW
            out.append(
                f'<text class="dice-note" x="{_f(nx)}" y="{_f(MID_Y + 7)}"{_upright(v.rotated, nx, MID_Y)} '
                f'text-anchor="middle" font-size="20" '
                f'font-weight="600" fill="{C["wood_text"]}" font-family="system-ui,sans-serif">{v.dice_note}</text>'
            )
    out.append("</g>")
    return "".join(out)


def _animated(piece: str, anim: tuple, bottom: str, cx: float, cy: float, color: str, glide_s: float = GLIDE_S) -> str:
    """Wrap a checker so it glides in from the move's source (SMIL, no script)."""
    src = anim[0]
    sx, sy = checker_center(bottom, src, 0 if src in ("bar", "off") else 4, color)
    if src not in ("bar", "off"):
        sx, sy = checker_center(bottom, src, 0, color)
    dx, dy = sx - cx, sy - cy
    return (
        f'<g class="moving"><animateTransform attributeName="transform" type="translate" '
        f'from="{_f(dx)} {_f(dy)}" to="0 0" dur="{glide_s:.2f}s" fill="freeze" calcMode="spline" '
        f'keySplines=".3 0 .2 1" keyTimes="0;1"/>{piece}</g>'
    )


def hit_test(bottom: str, x: float, y: float):
    """Which target (1..24, "bar", "off") lies under viewBox coordinates, or None."""
    if TOP_Y <= y <= BOTTOM_Y:
        if BAR_X <= x < RIGHT_X:
            return "bar"
        if TRAY_X <= x <= TRAY_X + TRAYW:
            return "off"
        in_left = LEFT_X <= x < BAR_X
        in_right = RIGHT_X <= x < FIELD_END
        if in_left or in_right:
            col = int((x - (LEFT_X if in_left else RIGHT_X)) // PW)
            is_top = y < MID_Y
            if is_top:
                n = 13 + col if in_left else 19 + col
            else:
                n = 12 - col if in_left else 6 - col
            return n if bottom == WHITE else 25 - n
    return None
