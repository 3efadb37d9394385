"""Optional sounds for the roll, a move and a hit: generated with Web Audio, no files.

Off by default (the play options' "Sounds" box turns them on; the choice is
saved with the other options). Each sound is a few short oscillator notes
with a falling pitch and a quick decay, written below as data
(:data:`SOUNDS`): a dice rattle, a soft checker click, and a low thump with a
click for a hit. The ``AudioContext`` is made on the first sound after the
player turned sounds on (a click, so the browser lets it play) and resumed
whenever the browser suspended it.

Which sound an update of the board calls for is :class:`Cues`' job (pure,
tested without a browser): a new roll on the table, a checker that moved,
a checker sent to the bar.

Runs on MicroPython (the page's main thread); only ``Sounds.play`` touches
the browser.
"""

from engine import BLACK, WHITE

#: name -> notes: (wave, start Hz, end Hz, offset s, length s, peak gain)
SOUNDS = {
    "roll": (  # dice rattling in a cup, then landing
        ("square", 2400, 1700, 0.000, 0.018, 0.05),
        ("square", 1900, 1400, 0.050, 0.018, 0.045),
        ("square", 2700, 1900, 0.105, 0.016, 0.045),
        ("square", 2100, 1500, 0.170, 0.020, 0.04),
        ("triangle", 900, 420, 0.240, 0.060, 0.09),
    ),
    "move": (  # a checker set down
        ("triangle", 560, 240, 0.000, 0.060, 0.16),
    ),
    "hit": (  # a checker knocked to the bar
        ("sine", 210, 55, 0.000, 0.170, 0.32),
        ("square", 1300, 600, 0.000, 0.025, 0.06),
    ),
}
SILENT = 0.0001  # exponential ramps cannot reach 0
#: a sound that follows another in the same update starts this much later (s)
AFTER_S = 0.3


class Cues:
    """Which sounds the board's change from one update to the next calls for."""

    def __init__(self):
        self.last = None   # (game, checkers, dice) of the last live update

    def after(self, game, position, dice, live: bool) -> list:
        """Sounds for the board now showing ``position`` with ``dice`` (a
        tuple, () for none) in ``game`` (any object: another one means a new
        game, which starts silently); none while ``live`` is False (a move of
        the history on show)."""
        checkers = (position.side(WHITE), position.side(BLACK))
        dice = tuple(dice)
        before, self.last = self.last, ((game, checkers, dice) if live else None)
        if before is None or not live or before[0] is not game:
            return []
        cues = []
        if dice and dice != before[2]:
            cues.append("roll")
        if checkers != before[1]:
            bars = (position.bar(WHITE), position.bar(BLACK))
            was = (before[1][0][24], before[1][1][24])  # slot 24: the bar
            cues.append("hit" if bars[0] > was[0] or bars[1] > was[1] else "move")
        return cues


class Sounds:
    """Plays :data:`SOUNDS` when enabled."""

    def __init__(self, window, enabled: bool = False, missing=None):
        self.window = window
        self.missing = missing or (lambda value: value is None)  # dom.missing in the browser
        self.enabled = enabled
        self._context = None
        self.played = 0  # sounds started (the e2e test reads it from body[data-sounds])

    def set_enabled(self, on: bool) -> None:
        self.enabled = bool(on)

    def _audio(self):
        """The AudioContext, made on first use; None where the browser has no Web Audio."""
        if self._context is None:
            make = getattr(self.window, "AudioContext", None)
            if self.missing(make):
                make = getattr(self.window, "webkitAudioContext", None)
            if self.missing(make):
                return None
            self._context = make.new()
        if str(self._context.state) == "suspended":
            self._context.resume()
        return self._context

    def play_all(self, names) -> int:
        """Play ``names`` one after another (:data:`AFTER_S` apart); how many started."""
        return sum(1 for i, name in enumerate(names) if self.play(name, i * AFTER_S))

    def play(self, name: str, delay: float = 0.0) -> bool:
        """Play the sound ``name`` (``delay`` s from now) if sounds are on; whether it was started."""
        if not self.enabled:
            return False
        try:
            ctx = self._audio()
            if ctx is None:
                return False
            now = float(ctx.currentTime) + delay
            for wave, start_hz, end_hz, offset, length, peak in SOUNDS[name]:
                note = ctx.createOscillator()
                amp = ctx.createGain()
                note.type = wave
                t0 = now + offset
                note.frequency.setValueAtTime(start_hz, t0)
                note.frequency.exponentialRampToValueAtTime(end_hz, t0 + length)
                amp.gain.setValueAtTime(peak, t0)
                amp.gain.exponentialRampToValueAtTime(SILENT, t0 + length)
                note.connect(amp)
                amp.connect(ctx.destination)
                note.start(t0)
                note.stop(t0 + length + 0.02)
        except Exception:  # a browser without some Web Audio call: the game goes on in silence
            return False
        self.played += 1
        return True
