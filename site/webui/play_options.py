"""The player's options for how the game plays (pure): read from the stored
settings (``bg.settings``), where a missing or odd value is its default.

- ``autoRoll``: roll by itself when it is this player's turn to roll;
- ``autoDone``: end the turn as soon as the play is complete (no Done);
- ``quick``: a click moves a checker by the higher die (a second click moves
  it on, a right-click uses the lower die) instead of picking it up;
- ``theme``: "auto" (follow the device's light or dark mode), "light", "dark";
- ``sounds``: short generated sounds for the roll, a move and a hit (off by default);
- ``speed``: how fast checkers glide: "slow", "normal", "fast", "off"; "auto"
  is "off" where the device asks for reduced motion, else "normal".

Runs on CPython and MicroPython alike.
"""

DEFAULTS = {"autoRoll": False, "autoDone": False, "quick": False, "sounds": False, "theme": "auto", "speed": "auto"}
CHOICES = {"theme": ("auto", "light", "dark"), "speed": ("auto", "slow", "normal", "fast", "off")}
#: animation time per checker step, as a factor of the normal one (0: no animation)
SPEED_FACTOR = {"slow": 1.7, "normal": 1.0, "fast": 0.45, "off": 0.0}


def read_options(settings) -> dict:
    """The options in ``settings`` (a dict from storage), defaults filled in for missing or odd values."""
    out = {}
    src = settings if isinstance(settings, dict) else {}
    for key in sorted(DEFAULTS):
        value = src.get(key, DEFAULTS[key])
        if key in CHOICES:
            ok = isinstance(value, str) and value in CHOICES[key]
        else:
            ok = isinstance(value, bool)
        out[key] = value if ok else DEFAULTS[key]
    return out


def speed_factor(options: dict, reduced_motion: bool) -> float:
    """How long animations take (a factor; 0: none): the option, or with "auto"
    none where the device prefers reduced motion."""
    speed = options.get("speed", "auto")
    if speed == "auto":
        speed = "off" if reduced_motion else "normal"
    return SPEED_FACTOR.get(speed, 1.0)
