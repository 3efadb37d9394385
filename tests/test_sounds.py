"""The optional sounds (site/webui/sounds.py): which board changes call for
which sound (Cues, pure), and what Sounds plays through Web Audio (a fake
AudioContext records the calls). The cue script runs on MicroPython too."""
from engine import BLACK, WHITE, Position, TurnBuilder
from micropython import run
from test_webui_micropython import cpython
from webui.sounds import SOUNDS, Cues, Sounds

def _after(position, d1, d2, notation):
    """The board after ``notation``, still the mover's turn (as the page shows it mid-turn)."""
    builder = TurnBuilder(position, (d1, d2))
    for step in position.parse_play(notation, d1, d2).steps:
        builder.step(step)
    return builder.position


def test_cues_follow_the_board():
    cues = Cues()
    game = object()
    start = Position.start(WHITE)
    assert cues.after(game, start, (), True) == []                  # a new game starts silently
    assert cues.after(game, start, (3, 1), True) == ["roll"]        # the dice land
    assert cues.after(game, start, (3, 1), True) == []              # a redraw: nothing new
    moved = _after(start, 3, 1, "8/5 6/5")
    assert cues.after(game, moved, (3, 1), True) == ["move"]
    assert cues.after(game, start, (3, 1), True) == ["move"]        # undone: the checkers move back
    assert cues.after(game, start, (), False) == []                 # viewing the history: silent
    assert cues.after(game, moved, (3, 1), True) == []              # back to the game: the baseline again
    assert cues.after(object(), start, (), True) == []              # another game: silent


def test_a_checker_sent_to_the_bar_is_a_hit_and_a_roll_with_a_forced_play_is_both():
    cues = Cues()
    game = object()
    # White on roll, one of Black's back checkers moved up to White's 5 point (Black's own 20): a blot
    start = Position.start(WHITE)
    black = list(start.side(BLACK))
    black[24 - 1] -= 1
    black[20 - 1] += 1
    blot = Position(start.side(WHITE), tuple(black), WHITE)
    cues.after(game, blot, (), True)
    assert cues.after(game, blot, (3, 1), True) == ["roll"]
    hit = _after(blot, 3, 1, "8/5* 6/5")
    assert hit.bar(BLACK) == 1
    assert cues.after(game, hit, (3, 1), True) == ["hit"]
    # dice and checkers changing in one update (the only play made by itself): both, roll first
    cues = Cues()
    cues.after(game, blot, (), True)
    assert cues.after(game, _after(blot, 3, 1, "8/5* 6/5"), (3, 1), True) == ["roll", "hit"]


class FakeParam:
    def __init__(self, log, name):
        self.log, self.name = log, name

    def setValueAtTime(self, value, t):
        self.log.append((self.name, "set", value, round(t, 3)))

    def exponentialRampToValueAtTime(self, value, t):
        self.log.append((self.name, "ramp", value, round(t, 3)))


class FakeNode:
    def __init__(self, log, kind):
        self.log, self.kind = log, kind
        self.frequency = FakeParam(log, "frequency")
        self.gain = FakeParam(log, "gain")
        self.type = None

    def connect(self, other):
        self.log.append((self.kind, "connect", getattr(other, "kind", "destination")))

    def start(self, t):
        self.log.append((self.kind, "start", self.type, round(t, 3)))

    def stop(self, t):
        self.log.append((self.kind, "stop", round(t, 3)))


class FakeContext:
    made = 0

    def __init__(self, log):
        self.log = log
        self.state = "suspended"
        self.currentTime = 10.0
        self.destination = object()

    def resume(self):
        self.state = "running"
        self.log.append(("context", "resume"))

    def createOscillator(self):
        return FakeNode(self.log, "oscillator")

    def createGain(self):
        return FakeNode(self.log, "gain")


class FakeWindow:
    def __init__(self):
        self.log = []
        window = self

        class AudioContext:
            @staticmethod
            def new():
                FakeContext.made += 1
                return FakeContext(window.log)

        self.AudioContext = AudioContext


def test_sounds_are_off_by_default_and_make_no_audio_context():
    window = FakeWindow()
    sounds = Sounds(window)
    FakeContext.made = 0
    assert sounds.play("roll") is False and sounds.play_all(["move", "hit"]) == 0
    assert FakeContext.made == 0 and window.log == [] and sounds.played == 0


def test_each_sound_starts_its_notes_once_turned_on():
    window = FakeWindow()
    sounds = Sounds(window)
    sounds.set_enabled(True)
    FakeContext.made = 0
    assert sounds.play_all(["roll", "hit"]) == 2
    assert FakeContext.made == 1 and ("context", "resume") in window.log   # made once, resumed
    starts = [e for e in window.log if e[:2] == ("oscillator", "start")]
    assert len(starts) == len(SOUNDS["roll"]) + len(SOUNDS["hit"])
    roll_starts = [e[3] for e in starts[: len(SOUNDS["roll"])]]
    hit_starts = [e[3] for e in starts[len(SOUNDS["roll"]):]]
    assert min(roll_starts) == 10.0 and min(hit_starts) == 10.3        # the second one after the first
    assert all(e[2] in ("square", "triangle", "sine") for e in starts)
    gains = [e[2] for e in window.log if e[0] == "gain" and e[1] == "set"]
    assert gains and max(gains) <= 0.35                                 # never loud
    assert sounds.played == 2
    sounds.set_enabled(False)
    assert sounds.play("move") is False and sounds.played == 2


def test_no_web_audio_means_silence_not_an_error():
    class Bare:
        AudioContext = None
        webkitAudioContext = None
    sounds = Sounds(Bare(), enabled=True)
    assert sounds.play("roll") is False


def test_cues_are_the_same_on_micropython():
    script = r'''
from engine import Dice, Game, TurnBuilder
from webui.sounds import Cues
cues = Cues()
g = Game(dice=Dice(7))
g.opening_roll()
key = object()
out = []
for turn in range(40):
    if g.is_over:
        break
    if g.dice is None:
        g.roll()
    out.append(cues.after(key, g.position, tuple(g.dice), True))
    plays = g.legal_plays()
    if not plays:
        g.pass_turn()
        continue
    play = plays[turn % len(plays)]
    b = TurnBuilder(g.position, tuple(g.dice))
    for st in play.steps:
        b.step(st)
        out.append(cues.after(key, b.position, tuple(g.dice), True))
    g.play(play)
print(out)
'''
    mp = run(script, libs=("engine", "webui"))
    cp = cpython(script)
    assert mp == cp
    flat = [c for cs in eval(cp) for c in cs]
    assert flat.count("roll") >= 10 and "move" in flat and "hit" in flat
