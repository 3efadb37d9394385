"""The game page's "Save and practice" card: the game as a gnubg .mat file,
its moves as text, and a pasted Position ID set up as a practice game.

Page layer only (DOM, clipboard, download); what is written and read is
``game_text`` (pure, tested on CPython and MicroPython). Its messages go to
the card's own live region, so the status line keeps saying the game's state.
"""

import js
from .browser import window

from webui.controller import PARAM_ORDER, Settings
from webui.dom import by_id, later, on, set_query, today
from webui.game_text import mat_file, moves_text, practice_position


class ExportPanel:
    def __init__(self, page):
        self.page = page          # the GamePage: .ctl, .game, .store, .new_game
        self.note = by_id("export-note")

    def bind(self):
        on(by_id("export-mat"), "click", lambda e: self.download_mat())
        on(by_id("copy-moves"), "click", lambda e: later(self.copy_moves(), "copy moves"))
        on(by_id("practice"), "submit", self.set_up)

    def say(self, text, problem=False):
        self.note.textContent = text
        self.note.classList.toggle("problem", problem)

    # ---------------------------------------------------------------- .mat
    def download_mat(self):
        ctl = self.page.ctl
        if ctl.game is None or not ctl.game.history:
            self.say("Nothing to save yet: play a move first.", True)
            return
        try:
            name, text = mat_file(ctl.game, ctl.settings, self.page.store.name(), today())
        except ValueError as err:
            self.say(str(err), True)
            return
        a = js.document.createElement("a")
        a.href = "data:text/plain;charset=utf-8," + str(js.encodeURIComponent(text))
        a.download = name
        a.hidden = True
        js.document.body.appendChild(a)
        a.click()
        a.remove()
        turns = len(ctl.game.history)
        self.say(f"Saved {name} ({turns} turn{'s' if turns != 1 else ''}): open it in GNU Backgammon "
                 "with File, Import, .mat.")

    # --------------------------------------------------------------- moves
    async def copy_moves(self):
        ctl = self.page.ctl
        if ctl.game is None or not ctl.game.history:
            self.say("No moves yet.", True)
            return
        text = moves_text(ctl.history(), f"Backgammon, {today()} (board numbers: White's point 1 is White's home)")
        box = by_id("moves-text")
        box.value = text
        try:
            await window.navigator.clipboard.writeText(text)
            box.hidden = True
            self.say(f"{len(ctl.history())} moves copied.")
        except Exception:
            box.hidden = False
            box.select()
            self.say("The browser did not allow copying: the moves are selected below, copy them with Ctrl+C.", True)

    # ------------------------------------------------------------ practice
    def set_up(self, event):
        event.preventDefault()
        page = self.page
        if page.game.friend:
            self.say("Practice positions are for games on this device: choose the computer or two players, "
                     "start a game, then set up the position.", True)
            return
        try:
            pos = practice_position(str(by_id("practice-id").value), str(by_id("practice-turn").value))
        except ValueError as err:
            self.say(str(err), True)
            by_id("practice-id").focus()
            return
        ctl = page.ctl
        if ctl.phase != "over" and ctl.history() and not window.confirm(
                "Set up this position? The game in play ends (it is not scored)."):
            self.say("The game goes on: nothing was set up.")
            return
        s = ctl.settings
        settings = Settings(s.mode, s.level, s.color, None)
        page.new_game(settings, start=pos)
        params = settings.params()   # the address bar leads back to this game (no seed) on reload
        set_query([(k, params[k]) for k in PARAM_ORDER if k in params])
        self.say(f"Practice position {pos.id} set up, {'White' if pos.turn == 'white' else 'Black'} on roll. "
                 "Practice games are not scored on the leaderboard.")
