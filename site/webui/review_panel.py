"""The post-game review (page layer): after any game the AI judges each of
the player's decisions in its worker, one at a time, with progress and a
Cancel button; each decision lists the best play and the equity lost, errors
and blunders are marked (gnubg's thresholds, ``advice``), and the summary
gives the error rate with gnubg's rating words. Choosing a decision shows
its position on a small board with both plays drawn: the best one in green
(``g.hint``), the one played in orange (``g.played``).

Against the computer the player's decisions are reviewed; with two players
on one device, both players'; in a friend game, this screen's player's.
"""

from engine import Position
from webui.advice import Review, decisions, play_arrows, signed
from webui.dom import by_id, later, missing, on
from webui.plain_text import escape_html
from webui.render import View, render_board


class ReviewPanel:
    def __init__(self, page):
        self.page = page
        self.box = by_id("review")
        self.review = None
        self.ctl = None          # the controller of the game under review
        self.task = None
        self.cancelled = False

    def bind(self):
        on(by_id("review-start"), "click", lambda e: self.start())
        on(by_id("review-cancel"), "click", lambda e: self.cancel())
        on(by_id("review-close"), "click", lambda e: self.close())
        on(by_id("review-list"), "click", self.on_click)

    # ------------------------------------------------------------ running
    def start(self):
        ctl = self.page.ctl
        if ctl.game is None or not ctl.result():   # over, by the last checker or a resignation
            return
        self.cancel()
        me = ctl.mode.me()
        colors = {me} if me else {"white", "black"}
        todo = decisions(ctl.history(), colors)
        self.ctl = ctl
        self.review = Review(len(todo))
        self.cancelled = False
        by_id("review-list").innerHTML = ""
        by_id("review-board").innerHTML = ""
        by_id("review-caption").textContent = ""
        by_id("review-summary").textContent = ""
        self.box.hidden = False
        self.box.dataset.state = "running"
        by_id("review-cancel").hidden = False
        self._progress(0, len(todo))
        self.task = later(self._run(todo, self.review), "review")
        self.box.scrollIntoView()

    def cancel(self):
        if self.review is not None and self.box.dataset.state == "running":
            self.cancelled = True
            self._finish(stopped=True)

    def close(self):
        self.cancel()
        self.box.hidden = True

    def sync(self):
        """After every change: a review belongs to its game; a new game closes it."""
        if self.ctl is not None and self.ctl is not self.page.ctl:
            self.close()
            self.ctl = None

    async def _run(self, todo, review):
        ai = self.page.ai
        for n, (index, entry) in enumerate(todo):
            if self.cancelled or review is not self.review:
                return
            try:
                judged = await ai.review(entry.before_id, entry.color, entry.dice[0], entry.dice[1], entry.notation)
            except Exception as err:
                self._fail(f"The review stopped: the AI failed ({err.__class__.__name__}). Try again.")
                return
            if judged is None:
                self._fail("No review: the computer's AI could not start in this browser.")
                return
            if self.cancelled or review is not self.review:
                return
            row = review.add(index, entry, judged)
            self._add_row(row)
            self._progress(n + 1, len(todo))
        self._finish()

    def _progress(self, done, total):
        bar = by_id("review-progress")
        bar.max = max(total, 1)
        bar.value = done
        by_id("review-progress-text").textContent = (
            f"Reviewing decision {done + 1} of {total}…" if done < total else f"All {total} decisions reviewed.")

    def _fail(self, text):
        self.box.dataset.state = "failed"
        by_id("review-cancel").hidden = True
        by_id("review-progress-text").textContent = text

    def _finish(self, stopped=False):
        review = self.review
        self.box.dataset.state = "stopped" if stopped else "done"
        by_id("review-cancel").hidden = True
        summary = review.summary() if review.rows else ""
        if stopped:
            by_id("review-progress-text").textContent = (
                f"Review stopped after {len(review.rows)} of {review.total} decisions.")
        by_id("review-summary").textContent = summary
        if review.rows and not stopped:
            worst = max(review.rows, key=lambda r: r["loss"])
            self.show(worst["index"])

    # ------------------------------------------------------------ showing
    def _add_row(self, row):
        who = "White" if row["color"] == "white" else "Black"
        mark = {"blunder": "??", "error": "?", "doubtful": "?!"}.get(row["verdict"], "")
        li = (
            f'<li><button type="button" class="review-row" data-index="{row["index"]}" '
            f'data-verdict="{row["verdict"] or ("forced" if row["forced"] else "good")}" '
            f'data-loss="{row["loss"]:.4f}" aria-pressed="false">'
            f'<span class="review-move">{row["index"] + 1}. {who}</span> '
            f'<span class="review-text">{escape_html(row["text"])}</span>'
            f'{" <strong class=review-mark>" + mark + "</strong>" if mark else ""}</button></li>'
        )
        by_id("review-list").insertAdjacentHTML("beforeend", li)

    def show(self, index):
        row = next((r for r in self.review.rows if r["index"] == index), None) if self.review else None
        if row is None:
            return
        entry = self.ctl.history()[index]
        color, dice = entry.color, tuple(entry.dice)
        best = play_arrows(entry.before_id, color, dice, row["best_notation"])
        played = () if row["same"] else play_arrows(entry.before_id, color, dice, row["played_notation"])
        pos = Position.from_id(entry.before_id, turn=color)
        view = View(bottom=self.ctl.mode.bottom(color), dice=dice, me=self.ctl.mode.me(), testid="review-board",
                    uid="rv", interactive=False, hint=best, played=played, turn=color, position_id=entry.before_id,
                    label=f"Move {index + 1}: {row['text']}")
        by_id("review-board").innerHTML = render_board(pos, view)
        who = "White" if color == "white" else "Black"
        if row["same"]:
            caption = f"Move {index + 1}, {who} {row['dice']}: {row['played']} was the best play (green)."
        else:
            caption = (f"Move {index + 1}, {who} {row['dice']}: played {row['played']} (orange), "
                       f"best {row['best']} (green): {signed(-row['loss'])} equity"
                       f"{', ' + row['verdict'] if row['verdict'] else ''}.")
        by_id("review-caption").textContent = caption
        for btn in by_id("review-list").querySelectorAll("button[data-index]"):
            btn.setAttribute("aria-pressed", "true" if int(str(btn.dataset.index)) == index else "false")

    def on_click(self, event):
        btn = event.target.closest("button[data-index]")
        if missing(btn):
            return
        self.show(int(str(btn.dataset.index)))
