"""Board input: pointer (click, tap, drag), keyboard and focus, for any live board.

Shared by the game page and the rules page's live board. It turns events on
the board element into calls on a page object (``page``) and holds no rules
and no game state beyond the gesture in progress:

- ``page.ctl``: the controller (``click(point)``, ``picked``, ``legal``,
  ``focus``, ``human_to_move``, ``viewing``, ``turn``);
- ``page.acted()``: the game changed (save, redraw, let the computer go on);
- ``page.redraw()``: only the view changed (picked up, focus);
- ``page.roll()``, ``page.undo()``, ``page.done()``, ``page.go_live()``: the keys R, U, D, Escape.
"""

import js
from .browser import document

from . import render
from .dom import js_object, missing, on

SVG_NS = "http://www.w3.org/2000/svg"
DRAG_SLOP_PX = 8
POINTER_FOCUS_MS = 1000  # focus that comes this soon after a press is the pointer's (touch focuses after it)
LIFT_PX = 60  # a checker dragged by a finger is drawn this far above it (CSS px), where it can be seen


def point_value(raw):
    """A ``data-point`` attribute as the controller's point (1..24, "bar", "off")."""
    if raw in ("bar", "off"):
        return raw
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None


def focus_rows(bottom):
    """Focus order for arrow keys: two visual rows, left to right."""
    top, low = [], []
    for p in range(1, 25):
        x, is_top = render.point_column(bottom, p)
        (top if is_top else low).append((x, p))
    top = [p for _, p in sorted(top)]
    low = [p for _, p in sorted(low)]
    return [top[:6] + ["bar"] + top[6:] + ["off"], low[:6] + ["bar"] + low[6:] + ["off"]]


class BoardInput:
    def __init__(self, el, view, page, keys="page"):
        self.el = el            # the element holding the board's svg
        self.view = view        # its BoardView (animating, rendering, keyboard)
        self.page = page
        self.drag = None
        self.last_row = 1
        self.pointing = False   # a press is under way: the focus it gives a point is not the keyboard's
        self.pressed_ms = -1e9  # when the last press ended
        on(el, "pointerdown", self.on_down)
        on(el, "pointermove", self.on_move)
        on(el, "pointerup", self.on_up)
        on(el, "pointercancel", self.on_cancel)
        on(el, "contextmenu", self.on_context)
        on(el, "focusin", self.on_focusin)
        on(el, "focusout", self.on_focusout)
        # keys="page": R, U, D and Escape work anywhere on the page (the game page);
        # "board": only while the board has the focus (a page of text around it)
        on(document if keys == "page" else el, "keydown", self.on_key)

    def _blocked(self):
        ctl = self.page.ctl
        return self.view.animating or ctl.viewing is not None or not ctl.human_to_move

    # ---------------------------------------------------------- pointer
    def _target(self, event):
        t = event.target
        el = None if missing(t) else t.closest("[data-point]")
        return None if missing(el) else point_value(str(el.dataset.point))

    def _svg(self):
        return self.el.querySelector("svg")

    def _lift(self, event) -> float:
        """How far above the pointer (viewBox units) the dragged checker is drawn: a finger's worth on touch."""
        if str(event.pointerType) != "touch":
            return 0.0
        try:
            scale = float(self._svg().getScreenCTM().a)
        except Exception:
            return 0.0
        return LIFT_PX / scale if scale > 0 else 0.0

    def _rotated(self) -> bool:
        """Whether the board is drawn a quarter turn round (``data-rotated``, render.View.rotated)."""
        value = self._svg().getAttribute("data-rotated")
        return not missing(value) and str(value) == "true"

    def _svg_xy(self, event):
        svg = self._svg()
        pt = svg.createSVGPoint()
        pt.x, pt.y = event.clientX, event.clientY
        p = pt.matrixTransform(svg.getScreenCTM().inverse())
        return float(p.x), float(p.y)

    def on_down(self, event):
        self.pointing = True
        if self._blocked():
            return
        if str(event.pointerType) == "mouse" and int(event.button) != 0:
            return
        pt = self._target(event)
        if pt is None:
            return
        ctl = self.page.ctl
        if ctl.picked is not None and pt in ctl.legal:
            ctl.click(pt)
            self.page.acted()
            return
        putdown = pt == ctl.picked
        if not putdown:
            result = ctl.click(pt)
            self.page.redraw()
            if result != "pick":
                return
        self.drag = {"x": float(event.clientX), "y": float(event.clientY), "src": pt,
                     "moved": False, "putdown": putdown, "ghost": None, "lift": self._lift(event)}
        try:
            self.el.setPointerCapture(event.pointerId)
        except Exception:
            pass

    def on_move(self, event):
        d = self.drag
        if not d:
            return
        if not d["moved"] and abs(float(event.clientX) - d["x"]) + abs(float(event.clientY) - d["y"]) < DRAG_SLOP_PX:
            return
        d["moved"] = True
        event.preventDefault()
        x, y = self._svg_xy(event)
        y -= d["lift"]
        ghost = d["ghost"]
        if ghost is None or not ghost.isConnected:
            ghost = document.createElementNS(SVG_NS, "circle")
            ghost.setAttribute("r", str(render.R - 2))
            ghost.setAttribute("class", "drag-ghost")
            ghost.setAttribute("fill", "url(#b-cw)" if self.page.ctl.turn == "white" else "url(#b-cb)")
            ghost.setAttribute("stroke", "#5ec8ff")
            ghost.setAttribute("stroke-width", "3")
            self._svg().appendChild(ghost)
            d["ghost"] = ghost
            document.body.classList.add("dragging")
        ghost.setAttribute("cx", str(x))
        ghost.setAttribute("cy", str(y))

    def on_up(self, event):
        self.pointing = False
        self.pressed_ms = float(js.performance.now())
        d, self.drag = self.drag, None
        document.body.classList.remove("dragging")
        if not d:
            return
        ctl = self.page.ctl
        if d["moved"]:
            x, y = self._svg_xy(event)
            y -= d["lift"]  # the checker lands where it is drawn, above the finger
            bottom = str(self._svg().dataset.bottom or "white")
            if self._rotated():
                x, y = y / render.STRETCH, render.HEIGHT - x  # back to the unrotated board's coordinates
            over = render.hit_test(bottom, x, y)
            if over is not None and over in ctl.legal:
                ctl.click(over)
                self.page.acted()
                return
            self.page.redraw()  # back where it was, still picked up
            return
        if d["putdown"]:
            ctl.click(d["src"])
            self.page.redraw()
        elif getattr(self.page, "quick_moves", False) and ctl.picked == d["src"]:
            # quick moves: a click (no drag) moves the checker by the higher die
            ctl.quick(d["src"])
            self.page.acted()

    def on_context(self, event):
        """Right-click on a checker: move it by the lower die."""
        pt = self._target(event)
        if pt is None or pt == "off":
            return
        event.preventDefault()
        if self.drag and self.drag["moved"]:
            return  # a long press while dragging on a touch screen
        self.drag = None
        if self._blocked():
            return
        self.page.ctl.quick(pt, "low")
        self.page.acted()

    def on_cancel(self, event):
        self.drag = None
        document.body.classList.remove("dragging")
        self.page.redraw()

    # --------------------------------------------------------- keyboard
    def on_focusin(self, event):
        pt = self._target(event)
        if self.pointing or float(js.performance.now()) - self.pressed_ms < POINTER_FOCUS_MS:
            return  # a click or a tap: no keyboard focus ring
        if pt is not None:
            self.view.keyboard = True
            ctl = self.page.ctl
            if ctl.focus != pt:
                ctl.focus = pt
                self.page.redraw()

    def on_focusout(self, event):
        if self.view.rendering:
            return
        rel = event.relatedTarget
        if missing(rel) or not self.el.contains(rel):
            self.view.keyboard = False
            ctl = self.page.ctl
            if ctl.focus is not None:
                ctl.focus = None
                position, v = ctl.view(animate=False)
                self.view.draw(position, v)

    def on_key(self, event):
        self.pointing, self.pressed_ms = False, -1e9
        target = event.target
        tag = "" if missing(target) or missing(target.tagName) else str(target.tagName).lower()
        if tag in ("input", "select", "textarea") or event.ctrlKey or event.metaKey or event.altKey:
            return
        key = str(event.key)
        page = self.page
        ctl = page.ctl
        if key.startswith("Arrow") and not self.view.keyboard and not missing(target) and self.el.contains(target):
            # a point focused by a click, then the keyboard: keyboard focus from there
            pt = self._target(event)
            if pt is not None:
                self.view.keyboard = True
                ctl.focus = pt
        if key in ("m", "M") and ctl.human_to_move and ctl.viewing is None:
            self.focus_movable(-1 if key == "M" else 1)  # the next (Shift: the previous) checker that can move
        elif key in ("u", "U"):
            page.undo()
        elif key in ("d", "D"):
            page.done()
        elif key in ("r", "R"):
            page.roll()
        elif key == "Escape":
            if ctl.viewing is not None:
                page.go_live()
            elif ctl.picked is not None:
                ctl.click(ctl.picked)
                page.redraw()
        elif key in ("ArrowLeft", "ArrowRight") and hasattr(page, "step_history") and (
                ctl.viewing is not None or (not self.view.keyboard and tag not in ("button", "a"))):
            # the history: step through it (the board is read-only meanwhile)
            event.preventDefault()
            page.step_history(-1 if key == "ArrowLeft" else 1)
        elif self.view.keyboard and key in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"):
            event.preventDefault()
            self.arrow(key)
        elif self.view.keyboard and key in ("Enter", " ") and ctl.focus is not None:
            event.preventDefault()
            if ctl.human_to_move and ctl.viewing is None and not self.view.animating:
                ctl.click(ctl.focus)
                page.acted()

    def focus_movable(self, step: int = 0) -> None:
        """Put the focus on a checker that can move: the farthest back
        (``step`` 0, after a roll), or the next (1) or previous (-1) one from
        the focused point; a screen reader then reads that point."""
        ctl = self.page.ctl
        order = ctl.movable_order()
        if not order:
            return
        current = ctl.focus
        if current not in order:  # focused without a ring (after a roll by click): the element has the focus
            active = document.activeElement
            if not missing(active) and self.el.contains(active) and not missing(active.dataset.point):
                current = str(active.dataset.point)
                current = current if current == "bar" else int(current)
        at = order.index(current) if current in order else -1
        target = order[0] if step == 0 or at < 0 else order[(at + step) % len(order)]
        if step:
            self.view.keyboard = True  # a key asked for it: show the ring
        ctl.focus = target if self.view.keyboard else None
        self.page.redraw()
        el = self.el.querySelector(f'[data-point="{target}"]')
        if not missing(el):
            self.pressed_ms = -1e9 if self.view.keyboard else float(js.performance.now())
            el.focus(js_object({"preventScroll": True}))

    #: on a board drawn a quarter turn clockwise, the arrow that means each unrotated direction
    ROTATED_KEYS = {"ArrowDown": "ArrowRight", "ArrowUp": "ArrowLeft", "ArrowRight": "ArrowUp", "ArrowLeft": "ArrowDown"}

    def arrow(self, key):
        if self._rotated():
            key = self.ROTATED_KEYS[key]
        ctl = self.page.ctl
        bottom = str(self._svg().dataset.bottom or "white")
        rows = focus_rows(bottom)
        cur = ctl.focus if ctl.focus is not None else rows[1][-2]
        if cur in ("bar", "off"):
            r = self.last_row
        else:
            r = 0 if cur in rows[0] else 1
        c = rows[r].index(cur)
        if key == "ArrowLeft":
            c = max(0, c - 1)
        elif key == "ArrowRight":
            c = min(len(rows[r]) - 1, c + 1)
        elif key == "ArrowUp":
            r = 0
        else:
            r = 1
        self.last_row = r
        ctl.focus = rows[r][c]
        self.page.redraw()
