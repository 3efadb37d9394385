"""What the page keeps in the browser's storage, checked on the way in (pure).

Three independent keys, so a bad one never takes the others with it:
``bg.game`` (the game in progress), ``bg.leaderboard`` (wins, sorted) and
``bg.settings`` (name, last choices). Every ``load_*`` returns
``(value, problem)``: ``problem`` is a sentence for the player, or None.
Stored text is read with ``strict_json``, so a damaged text is refused alike
in every runtime (MicroPython's own ``json`` would take some damage for JSON).
"""

from engine import Points

from . import strict_json
from .plain_text import strip_spaces

GAME_KEY = "bg.game"
LEADERBOARD_KEY = "bg.leaderboard"
SETTINGS_KEY = "bg.settings"
LEADERBOARD_VERSION = 1
MAX_ENTRIES = 50
KINDS = ("single", "gammon", "backgammon")


def load_json(text):
    """Parse stored text (a str, or None when absent); None when absent. Raises ValueError when corrupt."""
    if text is None or text == "":
        return None
    try:
        return strict_json.loads(text)
    except ValueError as err:
        raise ValueError(f"not JSON: {err}") from None


def load_game(text, restore) -> tuple:
    """(controller or None, problem). ``restore`` is ``Controller.from_dict``."""
    try:
        data = load_json(text)
        if data is None:
            return None, None
        return restore(data), None
    except Exception as err:  # anything odd in storage must not break the page
        return None, (
            "Your saved game could not be restored "
            f"({_reason(err)}); a new game was started. Your leaderboard and settings are safe."
        )


def _reason(err: Exception) -> str:
    text = str(err).strip() or err.__class__.__name__
    return text[:120]


def _valid_entry(e) -> bool:
    if not isinstance(e, dict):
        return False
    try:
        Points.parse(str(e["points"]))
        return (
            isinstance(e["name"], str)
            and isinstance(e["date"], str)
            and int(e["level"]) in range(1, 6)
            and e["kind"] in KINDS
        )
    except (KeyError, TypeError, ValueError):
        return False


def load_leaderboard(text) -> tuple:
    """(entries, problem). Bad entries are dropped and reported; good ones kept."""
    try:
        data = load_json(text)
    except ValueError as err:
        return [], f"The stored leaderboard was unreadable ({err}) and has been set aside."
    if data is None:
        return [], None
    if not isinstance(data, dict) or data.get("v") != LEADERBOARD_VERSION or not isinstance(data.get("entries"), list):
        return [], "The stored leaderboard is from another version and has been set aside."
    good = [e for e in data["entries"] if _valid_entry(e)]
    problem = None
    if len(good) != len(data["entries"]):
        problem = f"{len(data['entries']) - len(good)} damaged leaderboard entries were skipped."
    return sort_entries(good), problem


def dump_leaderboard(entries: list) -> str:
    """The leaderboard's stored text (``strict_json``: keys sorted, the same text in every runtime)."""
    return strict_json.dumps({"v": LEADERBOARD_VERSION, "entries": entries})


def sort_entries(entries: list) -> list:
    """Most points first; ties: the earlier date first."""
    return sorted(entries, key=lambda e: (-Points.parse(str(e["points"])).thirds, e["date"]))


def add_entry(entries: list, name: str, date: str, level: int, kind: str, points: str) -> list:
    entry = {"name": strip_spaces(name or "Player")[:24] or "Player", "date": date, "level": int(level),
             "kind": kind, "points": str(points)}
    return sort_entries(entries + [entry])[:MAX_ENTRIES]


def load_settings(text) -> tuple:
    try:
        data = load_json(text)
    except ValueError:
        return {}, "Your stored settings were unreadable and have been reset."
    if data is None:
        return {}, None
    if not isinstance(data, dict):
        return {}, "Your stored settings were unreadable and have been reset."
    return data, None
