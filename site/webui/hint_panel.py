"""The Hint button's answer: the best 3-5 plays with equity and chances, the
chosen one drawn as arrows on the board (page layer; rows from ``advice``).

The list comes in steps so the first answer does not take seconds: while the
AI's worker is still loading, the opening book's play where it has one (the
first turns: "book"); then the worker's quick 0-ply ranking (tens of
milliseconds once it is loaded: "quick"), then the one-roll lookahead of
level 5, which replaces it ("deep"). ``data-depth`` says which one is shown;
``data-book-ms`` / ``data-quick-ms`` / ``data-deep-ms`` how long each took
from the click (for tests and measurements).
"""

import js

from webui.advice import book_row, hint_rows
from webui.dom import by_id, missing, on
from webui.plain_text import escape_html


class HintPanel:
    def __init__(self, page):
        self.page = page
        self.box = by_id("hints")
        self.list = by_id("hints-list")
        self.key = None        # (controller, position id, turn, dice) the list is for
        self.rows = []

    def bind(self):
        on(self.list, "click", self.on_click)

    def _key(self):
        ctl = self.page.ctl
        if not ctl.human_to_move or not ctl.game.dice:
            return None
        pos = ctl.game.position
        return (id(ctl), pos.id, pos.turn, tuple(ctl.game.dice))

    def sync(self):
        """After every change: the list stays while its turn is being played, then goes."""
        if self.key is not None and self._key() != self.key:
            self.key = None
            self.rows = []
            self.box.hidden = True
            self.box.dataset.depth = ""
            self.list.innerHTML = ""

    async def show(self):
        page = self.page
        ctl = page.ctl
        key = self._key()
        if key is None:
            return
        self.key = key
        pos = ctl.game.position
        d1, d2 = ctl.game.dice
        start = float(js.performance.now())
        self.box.dataset.depth = "waiting"
        for depth in ("book", "quick", "deep"):
            self.box.removeAttribute(f"data-{depth}-ms")
        self._note("Thinking about the best plays…")
        self.box.hidden = False
        if page.ai.loading:
            await self._from_book(key, pos, d1, d2, start)

        def waiting(seconds):
            lead = ("From the AI's opening book; the full list comes when the AI has loaded"
                    if str(self.box.dataset.depth) == "book" else "The computer's AI is getting ready")
            self._note(f"{lead} ({seconds} s)…")

        for level, depth in ((4, "quick"), (5, "deep")):
            try:
                hints = await page.ai.hint(pos, d1, d2, waiting, level)
            except Exception as err:
                self._note(f"No hint available ({err.__class__.__name__}): try again.")
                return
            if hints is None:
                self._note("No hint available: the computer's AI could not start in this browser.")
                return
            if self.key != key or self._key() != key:
                return   # the turn moved on meanwhile
            self.box.setAttribute(f"data-{depth}-ms", str(int(float(js.performance.now()) - start)))
            self._render(pos.turn, hints, depth)
        best = self.rows[0]["play"] if self.rows else ""
        if best:
            page.status.textContent = f"Hint: the computer would play {best}."

    async def _from_book(self, key, pos, d1, d2, start):
        """The opening book's play (level 5's), while the worker loads."""
        book = await self.page.ai.book()
        play = None if book is None else book.play(pos, d1, d2, 5)
        if play is None or self.key != key or self._key() != key or not self.page.ai.loading:
            return
        self.box.setAttribute("data-book-ms", str(int(float(js.performance.now()) - start)))
        self._show_rows([book_row(pos.turn, play.notation)], "book")
        self._note("From the AI's opening book; the full list comes when the AI has loaded…")

    def _note(self, text):
        by_id("hints-note").textContent = text

    def _render(self, color, hints, depth):
        self._show_rows(hint_rows(color, hints), depth)
        ahead = "up to two rolls" if any(h.get("ply", 0) > 1 for h in hints) else "a roll"
        self._note("At a first glance (refining…)" if depth == "quick" else
                   f"Looking {ahead} ahead. Equity: points per game won or lost on average; choose a play to see it.")

    def _show_rows(self, rows, depth):
        ctl = self.page.ctl
        self.rows = rows
        self.box.dataset.depth = depth
        d1, d2 = ctl.game.dice
        by_id("hints-h").textContent = f"Best plays for {d1}-{d2}"
        items = []
        for i, r in enumerate(self.rows):
            items.append(
                f'<li><button type="button" class="hint-row" data-rank="{i + 1}" data-notation="{escape_html(r["notation"])}" '
                f'aria-pressed="{"true" if i == 0 else "false"}" aria-label="{escape_html(r["label"])}">'
                f'<span class="hint-play">{escape_html(r["play"])}</span>'
                f'<span class="hint-eq">{escape_html(r["equity"])}</span>'
                f'<span class="hint-loss">{escape_html(r["loss"])}</span>'
                f'<span class="hint-chances">{escape_html(r["chances"])}</span></button></li>'
            )
        self.list.innerHTML = "".join(items)
        if self.rows:
            self._choose(self.rows[0]["notation"])

    def _choose(self, notation):
        ctl = self.page.ctl
        try:
            ctl.set_hint(notation)
        except ValueError:
            return
        self.page.update()
        for btn in self.list.querySelectorAll("button[data-notation]"):
            btn.setAttribute("aria-pressed", "true" if str(btn.dataset.notation) == notation else "false")

    def on_click(self, event):
        btn = event.target.closest("button[data-notation]")
        if missing(btn) or self._key() != self.key:
            return
        self._choose(str(btn.dataset.notation))
