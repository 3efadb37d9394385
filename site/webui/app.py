"""The game page: wiring only. Named by ``<script type="mpy" src="./webui/app.py">``,
which ``boot.mjs`` runs.

The page runs on MicroPython (without PyScript, see ``boot.mjs``) so that the board answers within
about a second; the computer's AI loads in a Pyodide worker behind it
(``ai_client``). The pieces, each with one job:

- ``controller`` / ``friend_controller``: the game flow (pure, tested without a browser);
- ``board_view``: draws and animates the board; ``board_input``: pointer, drag, keys, focus;
- ``page_storage``: settings, leaderboard and saved game in localStorage;
- ``ai_client``: the AI worker, the opening book, the fallback player;
- the game being played: ``DeviceGame`` below (the computer or two players on
  this device) or ``friend_app.FriendUI`` (a friend on another device), which
  answer the same calls (save, rematch, close, result text, what happens next).
"""

import js

STARTED_MS = float(js.performance.now())  # when this script began (boot.mjs has unpacked the bundle)

import asyncio  # noqa: E402

from webui.browser import document, window  # noqa: E402

from webui.ai_client import AiClient  # noqa: E402
from webui.board_input import BoardInput  # noqa: E402
from webui.board_numbers import board_notation  # noqa: E402
from webui.board_view import BoardView  # noqa: E402
from webui.confirm_dialog import ConfirmDialog  # noqa: E402
from webui.controller import PARAM_ORDER, Controller, Settings, dice_text  # noqa: E402
from webui.export_panel import ExportPanel  # noqa: E402
from webui.hint_panel import HintPanel  # noqa: E402
from webui.review_panel import ReviewPanel  # noqa: E402
from webui.dom import by_id, later, missing, on, query_params, reduced_motion, set_query, today  # noqa: E402
from webui.modes import KIND_TEXT, cap  # noqa: E402
from webui.page_storage import PageStorage  # noqa: E402
from webui.play_options import read_options, speed_factor  # noqa: E402
from webui.plain_text import escape_html  # noqa: E402
from webui.sounds import Cues, Sounds  # noqa: E402

IMPORTED_MS = float(js.performance.now())
AI_PAUSE_S = 0.35   # the computer's beat before rolling and before moving
HOLD_S = 1.2        # every roll stays on the board at least this long (or until the player goes on)
AUTO_ROLL_S = 0.6   # the beat before an automatic roll (the last play stays readable)
OPTION_BOXES = (("opt-auto-roll", "autoRoll"), ("opt-auto-done", "autoDone"), ("opt-quick", "quick"),
                ("opt-sounds", "sounds"))
OPTION_CHOICES = (("opt-theme", "theme"), ("opt-speed", "speed"))
PORTRAIT_QUERY = "(orientation: portrait) and (max-width: 600px)"


def now_s():
    return float(js.performance.now()) / 1000


class DeviceGame:
    """A game against the computer or between two players on this device."""

    friend = False

    def __init__(self, page, ctl):
        self.page = page
        self.ctl = ctl
        self.task = None     # the computer's turns

    def save(self):
        self.page.store.save_game(self.ctl)

    def rematch(self):
        s = self.ctl.settings
        self.page.new_game(Settings(s.mode, s.level, s.color, None if s.seed is None else s.seed + 1))

    def close(self):
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None

    def result_text(self):
        return self.ctl.result_sentence()

    def go_on(self):
        """After every change: the computer plays when it is its turn (once a
        held roll has been seen: ``GamePage.release_held`` goes on)."""
        if self.ctl.held is not None:
            return
        if self.ctl.phase == "ai" and (self.task is None or self.task.done()):
            self.task = later(self.computer_turns(), "the computer's turn")

    async def computer_turns(self):
        page, ctl = self.page, self.ctl
        pause = 0 if page.view.reduced else AI_PAUSE_S
        try:
            while ctl is page.ctl and ctl.phase == "ai":
                if ctl.ai_needs_roll():
                    await asyncio.sleep(pause)
                    ctl.ai_roll()
                    page.update()
                    self.save()
                rolled = now_s()
                pos = ctl.game.position
                d1, d2 = ctl.game.dice
                s = ctl.settings
                page.say_now(f"The computer is thinking about {dice_text((d1, d2))}…")
                notation = await page.ai.choose(pos, d1, d2, s.level, s.seed, page.ai_waiting)
                if ctl is not page.ctl or ctl.phase != "ai":
                    return
                # the computer's dice stay in sight long enough to read, even with reduced motion
                await asyncio.sleep(max(pause, HOLD_S - (now_s() - rolled)))
                opening = ctl.opening
                frames = ctl.ai_play(notation)
                self.save()
                await page.view.animate(frames, pos, (d1, d2), s.color, me=s.color, opening=opening,
                                        still=lambda: ctl is page.ctl, visible=lambda: ctl.viewing is None)
                page.update()
        except asyncio.CancelledError:
            raise
        except Exception as err:
            js.console.error(f"the computer's turn failed: {err!r}")
            page.say_now(f"The computer could not move ({err.__class__.__name__}). Start a new game.")


class GamePage:
    def __init__(self):
        self.board = by_id("board")
        self.status = by_id("status")
        self.notice = by_id("notice")
        self.store = PageStorage()
        self.view = BoardView(self.board, reduced_motion())
        self.ai = AiClient(self.on_ai_state)
        self.game = None
        self.note = None              # (words, status line) shown before that status line until it changes
        self.update_task = None
        self.hints = HintPanel(self)  # the Hint button's list of the best plays
        self.review = ReviewPanel(self)  # the post-game review
        self.held_for = None          # the held roll whose HOLD_S is running
        self.options = read_options({})
        self.sounds = Sounds(window, missing=missing)  # off until the play options turn them on
        self.cues = Cues()
        self.auto_rolling = False     # an automatic roll is on its way

    @property
    def ctl(self):
        return self.game.ctl

    # ------------------------------------------------------------ start
    @property
    def quick_moves(self) -> bool:
        return self.options["quick"]

    def start(self):
        self.store.load()
        self.options = read_options(self.store.settings)
        self.apply_look()
        # a portrait phone gets the board a quarter turn round: the points run down the long side
        portrait = window.matchMedia(PORTRAIT_QUERY)
        self.view.rotated = bool(portrait.matches)
        on(portrait, "change", lambda e: self.on_portrait(bool(e.matches)))
        params = query_params()
        saved = self.store.load_game(Controller.from_dict)
        base = Settings.from_params({k: str(v) for k, v in self.store.settings.items() if k in ("mode", "level", "color")})
        wanted = Settings.from_params(params, base) if params.get("mode") else None
        if params.get("mode") == "friend":
            from webui import friend_app
            self.game = friend_app.FriendUI(self, params)
        elif saved is not None and (wanted is None or saved.settings == wanted):
            self.game = DeviceGame(self, saved)
            self.note = ("Game restored.", saved.status_line())
        else:
            ctl = Controller()
            ctl.new_game(wanted or base)
            self.game = DeviceGame(self, ctl)
        self.input = BoardInput(self.board, self.view, self)
        self.confirm = ConfirmDialog()
        self.fill_form()
        self.bind()
        self.render_leaderboard()
        self.update()
        self.game.save()
        if self.store.problems:
            self.show_notice(" ".join(self.store.problems))
        body = document.body
        body.dataset.pyStartMs = str(int(STARTED_MS))      # for the load-time benchmark:
        body.dataset.pyImportedMs = str(int(IMPORTED_MS))  # where the time before playable goes
        body.dataset.ready = "true"
        if not self.game.friend:  # friend games need no AI: keep the CPU and the network for the page
            self.ai.start()
        self.game.go_on()

    def show_notice(self, text):
        self.notice.textContent = text
        self.notice.hidden = False

    def bind(self):
        on(by_id("roll"), "click", lambda e: self.roll())
        on(by_id("undo"), "click", lambda e: self.undo())
        on(by_id("undo-all"), "click", lambda e: self.undo(everything=True))
        on(by_id("resign"), "click", lambda e: self.ask_resign())
        for box_id, key in OPTION_BOXES + OPTION_CHOICES:
            on(by_id(box_id), "change", lambda e: self.on_options())
        on(by_id("done"), "click", lambda e: self.done())
        on(by_id("hint"), "click", lambda e: later(self.show_hint(), "hint"))
        on(by_id("newgame"), "submit", self.on_new_game)
        on(by_id("opt-mode"), "change", lambda e: self.sync_form())
        on(by_id("rematch"), "click", lambda e: self.game.rematch())
        on(by_id("live"), "click", lambda e: self.go_live())
        on(by_id("history-prev"), "click", lambda e: self.step_history(-1))
        on(by_id("history-next"), "click", lambda e: self.step_history(1))
        on(by_id("copy-id"), "click", lambda e: later(self.copy_id(), "copy"))
        on(by_id("history"), "click", self.on_history)
        on(by_id("opt-name"), "change", self.on_name)
        ExportPanel(self).bind()
        self.hints.bind()
        self.review.bind()

    # -------------------------------------------------------------- form
    def fill_form(self):
        s = self.ctl.settings
        by_id("opt-mode").value = "friend" if self.game.friend else s.mode
        by_id("opt-level").value = str(s.level)
        by_id("opt-color").value = s.color
        by_id("opt-name").value = self.store.name()
        for box_id, key in OPTION_BOXES:
            by_id(box_id).checked = self.options[key]
        for box_id, key in OPTION_CHOICES:
            by_id(box_id).value = self.options[key]
        self.sync_form()

    def on_options(self):
        for box_id, key in OPTION_BOXES:
            self.options[key] = bool(by_id(box_id).checked)
        for box_id, key in OPTION_CHOICES:
            self.options[key] = str(by_id(box_id).value)
        self.options = read_options(self.options)
        self.store.settings.update(self.options)
        self.store.save_settings()
        self.apply_look()
        self.update()

    def on_portrait(self, rotated):
        self.view.rotated = rotated
        self.update()

    def apply_look(self):
        """The theme (theme.js applied the stored one before the first paint) and the animation speed."""
        root = document.documentElement
        if self.options["theme"] == "auto":
            root.removeAttribute("data-theme")
        else:
            root.dataset.theme = self.options["theme"]
        self.view.set_speed(speed_factor(self.options, reduced_motion()))
        self.sounds.set_enabled(self.options["sounds"])

    def sync_form(self):
        by_id("newgame").classList.toggle("local", str(by_id("opt-mode").value) == "local")

    def on_name(self, event):
        self.store.settings["name"] = str(by_id("opt-name").value).strip()[:24]
        self.store.save_settings()

    def in_progress(self) -> bool:
        """A game that a new one would throw away: moves made, not over."""
        ctl = self.ctl
        if ctl.phase in ("over", "stopped") or ctl.game is None:
            return False
        return bool(ctl.game.history) or bool(ctl.builder and ctl.builder.steps)

    def on_new_game(self, event):
        event.preventDefault()
        mode = str(by_id("opt-mode").value)
        self.on_name(None)
        if not self.in_progress():
            self.start_new(mode)
            return
        against = {"ai": f"against the computer (level {by_id('opt-level').value})",
                   "local": "for two players on this device", "friend": "with a friend on another device"}[mode]
        self.confirm.ask("Start a new game?", f"A new game {against} ends the game in progress: it will be lost.",
                         "Start a new game", lambda: self.start_new(mode))

    def start_new(self, mode):
        if mode == "friend":
            from webui import friend_app
            self.switch(friend_app.FriendUI(self, {"mode": "friend"}))
            return
        settings = Settings(mode=mode, level=int(by_id("opt-level").value), color=str(by_id("opt-color").value))
        self.store.settings.update({"mode": settings.mode, "level": settings.level, "color": settings.color})
        self.store.save_settings()
        self.new_game(settings)
        params = settings.params()
        set_query([(k, params[k]) for k in PARAM_ORDER if k in params])

    def switch(self, game):
        """Replace the game in play (the old one stops: its computer, its connection)."""
        if self.game is not None:
            self.game.close()
        self.game = game
        self.update()
        self.game.save()
        if not game.friend:
            self.ai.start()

    def new_game(self, settings, start=None):
        ctl = Controller()
        ctl.new_game(settings, start)
        ctl.auto = None
        self.switch(DeviceGame(self, ctl))
        # a new version of the site waits for a new game, never swaps mid-game
        sw = getattr(window, "bgServiceWorker", None)
        try:
            if sw is not None and sw.updateReady:
                self.status.textContent = "Updating to the new version of the site…"
                self.update_task = later(self.apply_update(sw, ctl), "update")
                return
        except Exception:
            pass
        self.game.go_on()

    async def apply_update(self, sw, ctl):
        """Swap to the waiting version of the site (the page reloads), once the
        AI's worker has finished loading. Asked to activate, Chromium stops the
        old service worker; a request through it after that (the worker still
        fetching Pyodide) starts it again, and the new version then waits until
        the old one idles out: 30 s, or 5 minutes with DevTools open."""
        await self.ai.ready()
        try:
            if ctl is self.ctl and sw.applyUpdate():
                return
        except Exception:
            pass
        if ctl is self.ctl:
            self.game.go_on()

    # ------------------------------------------------------------ render
    def redraw(self):
        self.update()

    def update(self):
        """Redraw the board and every control from the controller."""
        ctl = self.ctl
        position, view = ctl.view(animate=not self.view.reduced, rotated=self.view.rotated)
        self.view.draw(position, view)
        busy = self.view.animating or ctl.phase == "ai"
        live = ctl.viewing is None
        if self.sounds.play_all(self.cues.after(ctl, position, view.dice, live)):
            document.body.dataset.sounds = str(self.sounds.played)  # for the e2e test: sounds started so far
        self._enable("roll", live and ctl.phase == "roll" and not busy)
        self._enable("undo", live and ctl.human_to_move and bool(ctl.builder and ctl.builder.steps))
        self._enable("undo-all", live and ctl.human_to_move and bool(ctl.builder and ctl.builder.steps))
        self._enable("done", live and ctl.can_done)
        self._enable("hint", live and ctl.human_to_move and not self.game.friend)
        self._enable("new-game", True)
        by_id("resign").hidden = self.game.friend  # a friend game has its own, in the friend panel
        self._enable("resign", live and ctl.resigner is not None and ctl.phase != "ai" and not self.view.animating)
        self._enable("copy-id", True)
        by_id("pos-id").textContent = view.position_id or position.id
        ctl.take_announcements()
        ctl.quick_moves = self.options["quick"]
        self.show_status(ctl.status_line())
        if ctl.held is not None and ctl.held is not self.held_for:
            self.held_for = ctl.held
            later(self.release_held(ctl, ctl.held), "held roll")
        if self.options["autoRoll"] and self.may_roll() and ctl.held is None and not self.auto_rolling:
            self.auto_rolling = True
            later(self.auto_roll(ctl), "automatic roll")
        self.render_history()
        self.render_result()
        self.hints.sync()
        self.review.sync()
        document.body.classList.toggle("viewing", not live)
        by_id("live").hidden = live
        banner = by_id("viewing")
        if live and not banner.hidden and banner.contains(document.activeElement):
            document.activeElement.blur()  # a hidden button keeps no focus: the arrow keys step the history again
        banner.hidden = live
        if not live:
            by_id("viewing-text").textContent = ctl.viewing_text()
            self._enable("history-prev", ctl.viewing > 0)

    def show_status(self, line):
        """The status line says the state the game is in now (the history keeps the log)."""
        note = self.note
        if note is not None and note[1] != line:
            self.note = note = None
        text = f"{note[0]} {line}" if note is not None else line
        if str(self.status.textContent) != text:
            self.status.textContent = text

    def say_now(self, text):
        """A passing state (the computer thinking, a hint) in the status line."""
        self.status.textContent = text

    async def release_held(self, ctl, held):
        """A roll that passed stays on the board for HOLD_S (or until the next roll), then the game goes on."""
        await asyncio.sleep(HOLD_S)
        if ctl is self.ctl and ctl.release_held(held):
            self.update()
            self.game.go_on()

    def _enable(self, el_id, enabled):
        by_id(el_id).disabled = not enabled

    def render_history(self):
        ol = by_id("history")
        items = []
        viewing = self.ctl.viewing
        for i, e in enumerate(self.ctl.history()):
            text = board_notation(e.notation, e.color) or "(no legal move)"
            cur = ' aria-current="true"' if viewing == i else ""
            items.append(
                f'<li><button type="button" data-index="{i}"{cur} '
                f'title="Show the position before this move">{cap(e.color)} {dice_text(e.dice)}: {text}</button></li>'
            )
        html = "".join(items)
        if str(ol.innerHTML) != html:
            ol.innerHTML = html
            ol.scrollTop = ol.scrollHeight

    def render_result(self):
        box = by_id("result")
        res = self.ctl.result()
        if not res:
            box.hidden = True
            return
        box.dataset.winner = res["winner"]
        box.dataset.kind = res["kind"]
        box.dataset.points = res["points"]
        by_id("result-text").textContent = self.game.result_text()
        by_id("result-score").textContent = self.ctl.score_text()
        rows = "".join(f'<tr><th scope="row">{label}</th><td>{w}</td><td>{b}</td></tr>' for label, w, b in self.ctl.game_stats())
        body = document.querySelector("#result-stats tbody")
        if str(body.innerHTML) != rows:
            body.innerHTML = rows
        box.hidden = False
        entry = self.ctl.leaderboard_entry(self.store.name() or "Player", today())
        if entry is not None:
            self.store.add_win(entry)
            self.game.save()
            self.render_leaderboard()

    def render_leaderboard(self):
        body = document.querySelector("#leaderboard tbody")
        if not self.store.leaderboard:
            body.innerHTML = '<tr><td colspan="6">No wins yet.</td></tr>'
            return
        rows = []
        for i, e in enumerate(self.store.leaderboard[:20]):
            cells = [i + 1] + [e[k] for k in ("name", "date", "level", "kind", "points")]
            rows.append("<tr>" + "".join(f"<td>{escape_html(c)}</td>" for c in cells) + "</tr>")
        body.innerHTML = "".join(rows)

    # ------------------------------------------------------------ actions
    def acted(self):
        """The game changed: save, show it (a forced play step by step), go on."""
        ctl = self.ctl
        if self.options["autoDone"] and ctl.can_done and ctl.viewing is None:
            ctl.done()  # the "end my turn when the play is complete" option
        self.game.save()
        auto, ctl.auto = ctl.auto, None
        if auto is not None and not self.view.reduced:
            if ctl.held is not None:
                self.status.textContent = ctl.held["text"]
            later(self.show_auto_play(ctl, auto), "automatic play")
            return
        self.update()
        self.game.go_on()

    async def show_auto_play(self, ctl, auto):
        """A forced play was made for the player: let them see it, then go on."""
        pos, dice, frames = auto
        await self.view.animate(frames, pos, dice, ctl.mode.bottom(pos.turn), me=ctl.mode.me(),
                                still=lambda: ctl is self.ctl, visible=lambda: ctl.viewing is None)
        if ctl is self.ctl:
            self.update()
            self.game.go_on()

    def may_roll(self) -> bool:
        ctl = self.ctl
        return ctl.phase == "roll" and ctl.viewing is None and not self.view.animating and not self.confirm.open

    def roll(self):
        if self.may_roll():
            self.ctl.roll()
            self.acted()
            if self.ctl.human_to_move:
                self.input.focus_movable()  # focus (and a screen reader) on a checker that can move

    async def auto_roll(self, ctl):
        """The "roll for me" option: roll after a beat, if it is still time to."""
        try:
            await asyncio.sleep(AUTO_ROLL_S)
        finally:
            self.auto_rolling = False
        if ctl is self.ctl and self.options["autoRoll"] and ctl.held is None:
            self.roll()

    def undo(self, everything=False):
        if not self.confirm.open and self.ctl.undo(everything):
            self.acted()

    def done(self):
        if not self.confirm.open and self.ctl.done():
            self.acted()

    def ask_resign(self):
        ctl = self.ctl
        offer = None if self.game.friend else ctl.resign_offer()
        if offer is None:
            return
        winner, kind, pts = offer
        text = (f"As the position stands now, {ctl.mode.winner_words(winner)} with {KIND_TEXT[kind]}. "
                + ctl.score_words(winner, kind, pts, resigned=True))
        self.confirm.ask("Resign this game?", text, "Resign", self.resign)

    def resign(self):
        if self.ctl.resign():
            self.game.close()  # the computer stops thinking
            self.acted()

    def ai_waiting(self, seconds):
        """Shown every second while the computer's worker is still loading."""
        self.say_now(f"The computer is getting ready: loading its AI ({seconds} s)…")

    def on_ai_state(self, state):
        if state == "failed":
            self.show_notice("The computer's AI could not start in this browser: it plays simple moves instead. "
                             "Reload the page to try again.")

    async def show_hint(self):
        await self.hints.show()

    def go_live(self):
        self.ctl.view_history(None)
        self.update()

    def on_history(self, event):
        btn = event.target.closest("button[data-index]")
        if missing(btn):
            return
        self.ctl.view_history(int(str(btn.dataset.index)))
        self.update()

    def step_history(self, delta):
        """Previous/next move of the history (buttons, arrow keys); past the last move: the game."""
        if self.view.animating:
            return
        self.ctl.step_history(delta)
        self.update()

    async def copy_id(self):
        pid = str(by_id("pos-id").textContent)
        try:
            await window.navigator.clipboard.writeText(pid)
            self.status.textContent = f"Position ID {pid} copied."
        except Exception:
            self.status.textContent = f"Position ID: {pid} (select it to copy)."


page = GamePage()
page.start()
