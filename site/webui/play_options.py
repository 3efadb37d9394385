"""The player's options for how the game plays (pure): read from the stored
settings (``bg.settings``), where a missing or odd value is its default.

- ``autoRoll``: roll by itself when it is this player's turn to roll;
- ``autoDone``: end the turn as soon as the play is complete (no Done);
- ``quick``: a click moves a checker by the higher die (a second click moves
  it on, a right-click uses the lower die) instead of picking it up.

Runs on CPython and MicroPython alike.
"""

DEFAULTS = {"autoRoll": False, "autoDone": False, "quick": False}


def read_options(settings) -> dict:
    """The options in ``settings`` (a dict from storage), each a bool, defaults filled in."""
    out = {}
    src = settings if isinstance(settings, dict) else {}
    for key in sorted(DEFAULTS):
        value = src.get(key, DEFAULTS[key])
        out[key] = value if isinstance(value, bool) else DEFAULTS[key]
    return out
