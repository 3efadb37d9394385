"""The rules page's browser layer: embedded boards and a live board to try moves on.

Any ``<div class="bg-board" data-position-id="...">`` left empty (a page the
build did not pre-render) is drawn here; the ``data-live="true"`` board is a
two-players-on-one-device game driven by the same controller as the game page.
"""

import js
from pyodide.ffi import create_proxy
from pyscript import document

from webui.controller import Controller, Settings
from webui.embed import board_from_attrs
from webui.render import render_board

_proxies = []


def on(el, event, fn):
    proxy = create_proxy(fn)
    _proxies.append(proxy)
    el.addEventListener(event, proxy)


def fill_embedded():
    """Draw every empty, non-live .bg-board on the page."""
    n = 0
    for el in document.querySelectorAll(".bg-board:not([data-live])"):
        if el.querySelector("svg") is None:
            attrs = {str(a.name): str(a.value) for a in el.attributes}
            n += 1
            el.innerHTML = board_from_attrs(attrs, uid=f"rt{n}")
            el.dataset.rendered = "runtime"


def _point(el):
    raw = str(el.dataset.point)
    return raw if raw in ("bar", "off") else int(raw)


class LiveBoard:
    def __init__(self, el):
        self.el = el
        self.ctl = Controller()
        self.ctl.new_game(Settings(mode="local"))
        self.status = document.getElementById("status")
        on(el, "click", self.on_click)
        on(document.getElementById("roll"), "click", lambda e: self.act(self.ctl.roll))
        on(document.getElementById("undo"), "click", lambda e: self.act(self.ctl.undo))
        on(document.getElementById("done"), "click", lambda e: self.act(self.ctl.done))
        on(document.getElementById("new-game"), "click", lambda e: self.act(self.new))
        self.update()

    def new(self):
        self.ctl = Controller()
        self.ctl.new_game(Settings(mode="local"))

    def act(self, fn):
        try:
            fn()
        except ValueError as err:
            js.console.warn(str(err))
        self.update()

    def on_click(self, event):
        target = event.target.closest("[data-point]")
        if target:
            self.ctl.click(_point(target))
            self.update()

    def update(self):
        ctl = self.ctl
        position, view = ctl.view(uid="live")
        self.el.innerHTML = render_board(position, view)
        document.getElementById("roll").disabled = ctl.phase != "roll"
        document.getElementById("undo").disabled = not (ctl.human_to_move and ctl.builder and ctl.builder.steps)
        document.getElementById("done").disabled = not ctl.can_done
        document.getElementById("new-game").disabled = False
        said = ctl.take_announcements()
        if said:
            self.status.textContent = " ".join(said[-2:])


fill_embedded()
live = document.querySelector('.bg-board[data-live="true"]')
board = LiveBoard(live) if live is not None else None
document.body.dataset.ready = "true"
