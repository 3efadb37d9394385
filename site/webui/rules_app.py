"""The rules page: embedded boards and a live board to try the rules on.

Named by ``<script type="mpy" src="./webui/rules_app.py">``, run by ``boot.mjs`` (MicroPython).
Any ``<div class="bg-board" data-position-id="...">`` left empty (a page the
build did not pre-render) is drawn here; the ``data-live="true"`` board is a
two-players-on-one-device game with the game page's controller, board view
and board input (click, drag, keys).
"""

import js

from webui.board_input import BoardInput
from webui.board_view import BoardView
from webui.browser import document
from webui.controller import Controller, Settings
from webui.dom import by_id, later, missing, on, reduced_motion
from webui.embed import board_from_attrs


def fill_embedded():
    """Draw every empty, non-live .bg-board on the page."""
    n = 0
    for el in document.querySelectorAll(".bg-board:not([data-live])"):
        if missing(el.querySelector("svg")):
            attrs = {}
            for a in el.attributes:
                attrs[str(a.name)] = str(a.value)
            n += 1
            el.innerHTML = board_from_attrs(attrs, uid=f"rt{n}")
            el.dataset.rendered = "runtime"


class LiveBoard:
    """Two players on one board: the rules page's place to try moves."""

    def __init__(self, el):
        self.status = by_id("status")
        self.view = BoardView(el, reduced_motion())
        self.ctl = self._new_controller()
        self.input = BoardInput(el, self.view, self, keys="board")
        on(by_id("roll"), "click", lambda e: self.roll())
        on(by_id("undo"), "click", lambda e: self.undo())
        on(by_id("done"), "click", lambda e: self.done())
        on(by_id("new-game"), "click", lambda e: self.new())
        self.update()

    @staticmethod
    def _new_controller():
        ctl = Controller()
        ctl.new_game(Settings(mode="local"))
        return ctl

    def new(self):
        self.ctl = self._new_controller()
        self.update()

    def _act(self, fn):
        try:
            changed = fn()
        except ValueError as err:
            js.console.warn(str(err))
            return
        if changed is not False:
            self.acted()

    def roll(self):
        if self.ctl.phase == "roll" and not self.view.animating:
            self._act(self.ctl.roll)

    def undo(self):
        self._act(self.ctl.undo)

    def done(self):
        self._act(self.ctl.done)

    def go_live(self):
        self.ctl.view_history(None)
        self.update()

    def redraw(self):
        self.update()

    def acted(self):
        ctl = self.ctl
        auto, ctl.auto = ctl.auto, None
        if auto is not None and not self.view.reduced:
            later(self._show_auto(ctl, auto), "automatic play")
            return
        self.update()

    async def _show_auto(self, ctl, auto):
        pos, dice, frames = auto
        self.status.textContent = ctl.held["text"] if ctl.held else ctl.status_line()
        await self.view.animate(frames, pos, dice, pos.turn, still=lambda: ctl is self.ctl)
        if ctl is self.ctl:
            self.update()

    def update(self):
        ctl = self.ctl
        position, view = ctl.view(uid="live", animate=not self.view.reduced)
        self.view.draw(position, view)
        busy = self.view.animating
        by_id("roll").disabled = busy or ctl.phase != "roll"
        by_id("undo").disabled = busy or not (ctl.human_to_move and ctl.builder and ctl.builder.steps)
        by_id("done").disabled = busy or not ctl.can_done
        by_id("new-game").disabled = False
        ctl.take_announcements()
        line = ctl.status_line()
        if str(self.status.textContent) != line:
            self.status.textContent = line


fill_embedded()
live = document.querySelector('.bg-board[data-live="true"]')
board = None if missing(live) else LiveBoard(live)
document.body.dataset.ready = "true"
