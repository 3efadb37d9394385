"""The page's saved state in ``localStorage``: settings, the leaderboard, the game.

The formats and their checks are ``storage.py``'s (pure, tested); this file
only reads and writes the browser's storage. Storage that cannot be read is
set aside under ``KEY.bad`` (never silently lost) and the page says so.
"""

import json

import js
from .browser import window

from . import storage
from .dom import missing


class PageStorage:
    def __init__(self):
        self.problems = []       # sentences for the page's notice
        self.settings = {}
        self.leaderboard = []

    # ------------------------------------------------------------ raw
    def get(self, key):
        try:
            value = window.localStorage.getItem(key)
        except Exception:
            return None
        return None if missing(value) else str(value)

    def set(self, key, value):
        try:
            window.localStorage.setItem(key, value)
        except Exception as err:  # full or disabled storage must never break play
            js.console.warn(f"could not save {key}: {err}")

    def set_aside(self, key):
        raw = self.get(key)
        if raw is not None:
            self.set(key + ".bad", raw)
        try:
            window.localStorage.removeItem(key)
        except Exception:
            pass

    def _note(self, key, problem):
        if problem:
            self.problems.append(problem)
            self.set_aside(key)

    # ------------------------------------------------------------ formats
    def load(self):
        """Settings and leaderboard, at start."""
        self.settings, problem = storage.load_settings(self.get(storage.SETTINGS_KEY))
        self._note(storage.SETTINGS_KEY, problem)
        self.leaderboard, problem = storage.load_leaderboard(self.get(storage.LEADERBOARD_KEY))
        self._note(storage.LEADERBOARD_KEY, problem)

    def load_game(self, restore):
        """The saved computer or two-player game (``restore(dict)``), or None."""
        saved, problem = storage.load_game(self.get(storage.GAME_KEY), restore)
        self._note(storage.GAME_KEY, problem)
        return saved

    def save_game(self, ctl):
        try:
            self.set(storage.GAME_KEY, json.dumps(ctl.to_dict()))
        except Exception as err:  # never let saving break play
            js.console.warn(f"could not save the game: {err}")

    def save_settings(self):
        self.set(storage.SETTINGS_KEY, json.dumps(self.settings))

    def name(self) -> str:
        return str(self.settings.get("name") or "")

    def add_win(self, entry):
        self.leaderboard = storage.add_entry(self.leaderboard, **entry)
        self.set(storage.LEADERBOARD_KEY, storage.dump_leaderboard(self.leaderboard))
