"""The pure front-end modules give the same answers on MicroPython (the page's main thread) as on CPython.

Each test runs one script on both interpreters (MicroPython 1.27 under Node,
and this CPython) and requires their output to be identical, byte for byte:
the SVG of varied boards, embedded diagrams, a complete friend game between
two ``FriendSession`` objects with commit-reveal dice, the protocol's verdict
on good and malformed messages, invite codes, QR matrices, the fair dice,
storage and the strict JSON codec. The CPython side also checks that the
output says what it should (the games were played, messages were refused),
so that two equally empty outputs cannot pass.
"""

import os
import re
import subprocess
import sys

from micropython import ROOT, run
from test_friend_sdp import ANSWER, OFFER

LIBS = ("engine", "webui")


def cpython(script: str) -> str:
    env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT / 'site'}")
    proc = subprocess.run([sys.executable, "-"], input=script, capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def both(script: str) -> str:
    """The script's output, the same on both interpreters (asserted)."""
    mp, cp = run(script, libs=LIBS), cpython(script)
    if mp != cp:
        mp_lines, cp_lines = mp.splitlines(), cp.splitlines()
        for i, (m, c) in enumerate(zip(mp_lines, cp_lines)):
            assert m == c, f"line {i + 1} differs:\nMicroPython: {m[:600]}\nCPython:     {c[:600]}"
        assert len(mp_lines) == len(cp_lines), (len(mp_lines), len(cp_lines))
    assert mp == cp
    return cp


# ------------------------------------------------------------------ the board
BOARDS = r'''
import hashlib
from engine import Position
from webui.render import View, render_board

WHITE, BLACK = "white", "black"


class Board:
    """A duck-typed position (what render_board reads), for boards the rules never reach."""

    def __init__(self, points, bar, off, turn, pid):
        self.points, self._bar, self._off, self.turn, self.id = points, bar, off, turn, pid

    def owner(self, p):
        return self.points.get(p, (None, 0))

    def bar(self, c):
        return self._bar[c]

    def off(self, c):
        return self._off[c]

    def pip(self, c):
        total = self._bar[c] * 25
        for p in range(1, 25):
            col, n = self.owner(p)
            if col == c:
                total += n * (p if c == WHITE else 25 - p)
        return total


def draws(seed):
    """Endless bytes from SHA-256: the same in every runtime."""
    block = 0
    while True:
        for b in hashlib.sha256(("render-%d-%d" % (seed, block)).encode()).digest():
            yield b
        block += 1


def random_board(seed, r):
    left = {WHITE: 15, BLACK: 15}
    points, bar = {}, {WHITE: 0, BLACK: 0}
    for p in range(1, 25):
        c = WHITE if next(r) % 2 else BLACK
        n = min(next(r) % 8 if next(r) % 3 == 0 else 0, left[c])
        if n:
            points[p] = (c, n)
            left[c] -= n
    for c in (WHITE, BLACK):
        bar[c] = min(left[c], next(r) % 3 if next(r) % 4 == 0 else 0)
        left[c] -= bar[c]
    return Board(points, bar, dict(left), WHITE if next(r) % 2 else BLACK, "pid%03dAAAAAAAAA" % seed)


def played_position(seed, r):
    """A real position: the start, then some legal plays chosen by the byte stream."""
    pos = Position.start()
    for _ in range(seed % 13):
        plays = pos.legal_plays(next(r) % 6 + 1, next(r) % 6 + 1)
        pos = plays[next(r) % len(plays)].next if plays else pos.swap()
    return pos


def view(seed, r):
    pick = lambda options: options[next(r) % len(options)]  # noqa: E731
    targets = list(range(1, 25)) + ["bar", "off"]
    d1, d2 = next(r) % 6 + 1, next(r) % 6 + 1
    kw = {"bottom": pick([WHITE, BLACK]), "uid": "u%d" % seed}
    if seed % 5 == 0:
        kw["opening"] = kw["dice"] = (d1, d2 if d2 != d1 else d1 % 6 + 1)
        if seed % 10 == 0:
            kw["dice_left"] = (kw["opening"][0],)
    elif seed % 3:
        kw["dice"] = (d1, d2)
        if seed % 4 == 0:
            kw["dice_left"] = (d1, d1, d1) if d1 == d2 else (d2,)
    if seed % 2:
        kw["legal"] = {pick(targets) for _ in range(next(r) % 4 + 1)}
        kw["picked"] = pick(targets)
    if seed % 7 == 3:
        kw["focus"] = pick(targets)
    if seed % 6 == 1:
        kw["tab_stop"] = pick(targets)
    if seed % 4 == 2:
        kw["moved"] = (pick(targets), pick(targets), pick([WHITE, BLACK]))  # an animation frame
    if seed % 9 == 4:
        kw.update(moved=(pick(targets), pick(targets), WHITE), animate=False)
    if seed % 3 == 2:
        kw["hint"] = tuple((pick(targets), pick(targets)) for _ in range(next(r) % 4 + 1))
    if seed % 8 == 5:
        kw.update(testid=None, interactive=False, numbers=False, label="Diagram %d" % seed)
    if seed % 11 == 6:
        kw.update(turn=BLACK, position_id="X%d" % seed, me=WHITE)
    if seed % 6 == 3:
        kw["extra"] = {"phase": "moving", "mode": "ai", "viewing": str(seed)}
    return View(**kw)


def cases():
    for seed in range(40):
        r = draws(seed)
        pos = random_board(seed, r) if seed % 2 else played_position(seed, r)
        yield pos, view(seed, r)
    yield Position.start(), None
'''

RENDER = BOARDS + r'''
for pos, v in cases():
    print(render_board(pos, v))
'''

TIMING = BOARDS + r'''
import time
data = list(cases())
best = None
for _ in range(3):
    t0 = time.time_ns()
    for pos, v in data:
        render_board(pos, v)
    ms = (time.time_ns() - t0) / 1e6 / len(data)
    best = ms if best is None or ms < best else best
print("%.2f" % best)
'''


def test_render_board_is_byte_identical_on_both_interpreters():
    out = both(RENDER)
    svgs = out.splitlines()
    assert len(svgs) == 41 and all(s.startswith("<svg ") and s.endswith("</svg>") for s in svgs)
    joined = "\n".join(svgs)
    # the cases cover what they claim: both bottoms, dice, legal marks, a picked checker, hints, frames
    for needle in ('data-bottom="white"', 'data-bottom="black"', 'class="die ', 'data-legal="true"',
                   'data-picked="true"', 'class="hint"', "animateTransform", 'class="die white used"',
                   'aria-label="Diagram', 'data-mode="ai" data-phase="moving"'):
        assert needle in joined, needle
    assert re.search(r'\d\.\d"', joined)  # coordinates with a decimal were written


def test_render_board_timing(capsys):
    mp_ms, cp_ms = float(run(TIMING, libs=LIBS)), float(cpython(TIMING))
    with capsys.disabled():
        print(f"\nrender_board, 41 varied boards, best of 3: MicroPython 1.27 under Node {mp_ms:.2f} ms a board, "
              f"CPython {sys.version_info.major}.{sys.version_info.minor} {cp_ms:.2f} ms a board "
              f"({mp_ms / cp_ms:.1f}x)")
    assert mp_ms > 0 and cp_ms > 0


EMBED = r'''
from webui.embed import board_from_attrs
from webui.palette import css
print(css())
for attrs in [
    {},
    {"data-position-id": "4HPwATDgc/ABMA", "data-dice": "3,1", "data-legal": "5,7,bar,off,25,x", "data-picked": "8",
     "data-caption": "Opening 3-1: <make> the \"five\" & 'point'"},
    {"data-position-id": "4HPwATDgc/ABMA", "data-turn": "black", "data-bottom": "black", "data-opening": "5,3",
     "data-dice-left": "3"},
    {"data-position-id": "sGfwATDgc/ABMA", "data-live": "true", "data-dice": "6,6", "data-dice-left": "6,6,6"},
    {"data-position-id": "not an id<>", "data-turn": "purple"},
    {"data-position-id": "4HPwATDgc/ABMA", "data-bottom": "red", "data-picked": "bar", "data-legal": " 3, 4 "},
]:
    print(board_from_attrs(attrs, uid="e7"))
'''


def test_embedded_boards_and_palette_are_identical():
    out = both(EMBED)
    assert out.count("<svg ") == 5 and "Not a valid position ID: not an id&lt;&gt;" in out
    assert "&lt;make&gt; the &quot;five&quot; &amp; &#x27;point&#x27;" in out
    assert out.startswith(":root {\n  --bg-wood: #6b3f22;")


# ------------------------------------------------------------------ friend games
FRIEND = r'''
import hashlib
from engine import BLACK, WHITE
from webui import fair_dice, strict_json
from webui.friend_protocol import ProtocolError
from webui.friend_session import FriendSession, Loopback

ROOM = "0123456789ab"
counter = [0]


def fixed_secret():
    """Stands in for the CSPRNG so both runs draw the same secrets."""
    counter[0] += 1
    return hashlib.sha256(b"secret %d" % counter[0]).digest()


fair_dice.new_secret = fixed_secret


def choose(n, k):
    return hashlib.sha256(b"choice %d" % k).digest()[0] % n


def show(tag, value):
    print(tag, strict_json.dumps(value))


def without_local_dice(game):
    """A game's record less the state of its own dice, which a friend game never rolls (seeded at random)."""
    game = dict(game)
    assert game["dice_seed"] is None
    del game["dice_state"]
    return game


def state(session):
    d = session.to_dict()
    d["game"] = without_local_dice(d["game"])
    return d


def deliver(net):
    """Loopback.run, one message at a time, printing each on the wire."""
    while net.queue:
        receiver, text = net.queue[0]
        show("wire", [receiver.name, text])
        net.run(limit=1)
    for s in (net.a, net.b):
        for e in net.events[id(s)]:
            show("event", [s.name, e.kind, e.text, e.data])
        for err in net.errors[id(s)]:
            show("refused", [s.name, type(err).__name__, str(err)])
        net.events[id(s)] = []
        net.errors[id(s)] = []


def play_out(a, b, net, k, limit=3000):
    for _ in range(limit):
        if a.is_over:
            return k
        s = a if a.game.turn == a.me else b
        if s.game.dice is None:
            s.start_roll()
        else:
            plays = s.game.legal_plays()
            s.play_local(plays[choose(len(plays), k)] if plays else None)
        k += 1
        deliver(net)
        assert a.game.position.id == b.game.position.id
    raise AssertionError("the game did not end")


a, b = FriendSession(WHITE, ROOM, "Ann"), FriendSession(BLACK, ROOM, "Bob\u200d\u0007")
net = Loopback(a, b)
deliver(net)
k = 0
for _ in range(9):                     # a few turns, then both pages reload from storage and reconnect
    s = a if a.game.turn == a.me else b
    if s.game.dice is None:
        s.start_roll()
    else:
        plays = s.game.legal_plays()
        s.play_local(plays[choose(len(plays), k)] if plays else None)
    k += 1
    deliver(net)
net.disconnect()
a = FriendSession.from_dict(strict_json.loads(strict_json.dumps(a.to_dict())))
b = FriendSession.from_dict(strict_json.loads(strict_json.dumps(b.to_dict())))
net = Loopback(a, b)
deliver(net)
# a forged play and a forged dice secret are refused
s = b if a.game.turn == a.me else a
s._send("play", game=1, turn=0, dice=[6, 6], move="24/18", pos="4HPwATDgc/ABMA")
deliver(net)
k = play_out(a, b, net, k)
show("result", [a.winner, a.result_kind, str(a.points()), b.winner, str(b.points()), len(a.game.history)])
show("record", without_local_dice(a.game.to_dict()))
show("state", state(a))
show("state", state(b))
# a rematch, resigned after a few turns
b.propose_rematch()
deliver(net)
a.propose_rematch()
deliver(net)
for _ in range(6):
    s = a if a.game.turn == a.me else b
    if s.game.dice is None:
        s.start_roll()
    else:
        plays = s.game.legal_plays()
        s.play_local(plays[choose(len(plays), k)] if plays else None)
    k += 1
    deliver(net)
show("resigned", [b.resign()])
deliver(net)
a.chat("gg \u00e9\U0001F600")
deliver(net)
show("result", [a.game_no, a.winner, a.result_kind, str(a.points()), b.winner])
show("state", state(a))
try:
    a.receive("{oops")
except ProtocolError as err:
    show("refused", ["Ann", str(err)])
'''


def test_a_complete_friend_game_is_identical_on_both_interpreters():
    out = both(FRIEND)
    lines = out.splitlines()
    assert sum(line.startswith("wire ") for line in lines) > 200
    assert any('"opening"' in line for line in lines if line.startswith("event "))
    results = [line for line in lines if line.startswith("result ")]
    assert len(results) == 2 and ('"white"' in results[0] or '"black"' in results[0])
    assert '"resumed"' in out                                    # the reconnection agreed
    assert sum(line.startswith("refused ") for line in lines) >= 2  # the forged play and "{oops"
    assert "Both boards agree" in out and "gg é😀" in out
    assert '\\"t\\":\\"reveal\\"' in out and '\\"t\\":\\"commit\\"' in out


PROTOCOL = r'''
from webui import friend_protocol as fp, plain_text, strict_json
from webui.friend_protocol import Channel, ProtocolError

H = "ab" * 32
GOOD = {
    "hello": {"name": "Ann", "color": "white", "room": "0123456789ab", "game": 1, "turns": 0,
              "pos": "4HPwATDgc/ABMA", "turn": "white", "app": "backgammon-web/1"},
    "commit": {"game": 1, "roll": 0, "hash": H},
    "reveal": {"game": 1, "roll": 0, "secret": H},
    "play": {"game": 1, "turn": 3, "dice": [3, 1], "move": "8/5 6/5", "pos": "4HPwATDgc/ABMA"},
    "resign": {"game": 2, "kind": "gammon"},
    "rematch": {"game": 2},
    "chat": {"text": "gl hf \u00e9\U0001F600\u200d"},
    "error": {"reason": "Refused a play", "fatal": False},
}


def msg(t, **over):
    m = {"v": 1, "t": t, "seq": 1}
    m.update(GOOD[t])
    m.update(over)
    return m


def decode(text):
    try:
        print("ok", strict_json.dumps(Channel().decode(text)))
    except ProtocolError as err:
        print("refused", str(err))


for t in sorted(GOOD):
    text = Channel().encode(t, **GOOD[t])
    print("encoded", text)
    decode(text)
d = strict_json.dumps
bad = [
    "{not json", '{"v": 1, "t": "chat", "seq": 1, "text": NaN}', "[1, 2]", '"hello"', "[" * 1000,
    '{"v":1,"t":"chat","seq":1,"text":"x",}', '{"v":1 "t":"chat","seq":1,"text":"x"}', '{"v":01,"t":"chat"}',
    '{"v":1,"t":"chat","seq":1,"text":"\\x41"}', '{"v":1,"t":"chat","seq":1,"text":"\\ud800"}',
    '{"v":1,"t":"chat","seq":1,"text":"a\nb"}', '{"v":1.5,"t":"chat"}', '{"v":true}', '{"v":[1]}', "",
    d(msg("chat", text="x" * 3000)), d(msg("chat", text="\u00e9" * 1100)), d(msg("chat", v=2)),
    d({"v": 1, "t": "shell", "seq": 1, "cmd": "rm"}), d({"v": 1, "t": 5, "seq": 1}), d({"v": 1, "seq": 1}),
    d({"v": 1, "t": "shell\u202e\u0007x", "seq": 1}), d(msg("chat", seq=0)), d(msg("chat", seq="1")),
    d(msg("play", eval="x", zzz=1)), d(msg("hello", name="x" * 25)), d(msg("hello", name="<b>\u0007</b>")),
    d(msg("hello", name="a\u00adb")), d(msg("hello", name="\ufeff")), d(msg("hello", name="\U000E0041")),
    d(msg("hello", name="\uE000")), d(msg("hello", name="\uFFFF")), d(msg("hello", name=42)),
    d(msg("hello", color="red")), d(msg("hello", room="ROOM")), d(msg("hello", room="0123456789ab\n")),
    d(msg("hello", pos="4HPwATDgc/ABM")), d(msg("commit", hash="zz" * 32)), d(msg("commit", roll=-1)),
    d(msg("commit", roll=True)), d(msg("reveal", secret="ab" * 31)), d(msg("play", dice=[7, 1])),
    d(msg("play", dice=[1, 2, 3])), d(msg("play", dice="3,1")), d(msg("play", dice=[True, 1])),
    d(msg("play", move="<script>")), d(msg("play", move="8/5 " * 30)), d(msg("resign", kind="triple")),
    d(msg("chat", text="")), d(msg("chat", text="   ")), d(msg("chat", text="y" * 201)),
    d(msg("error", fatal=1)), d(msg("rematch", game=0)), d(msg("rematch", game=10001)),
]
play = msg("play")
del play["pos"]
bad.append(d(play))
print("malformed", len(bad) + 1)
for text in bad:
    decode(text)
decode(b"bytes")
for name in ["  Ann\u0000\n  Lee ", "<img src=x onerror=alert(1)>", "", None, "\u202eevil", "e\u0301\u200d\U0001F600",
             "\u2028x\u2029", "\U0010FFFD", "\u0600\u0890"]:
    print("name", strict_json.dumps(fp.clean_name(name)))
print("controls", [cp for cp in range(0, 0x3000) if plain_text.is_control(chr(cp))])
for text in [" a\u00a0 b\u3000", "\u2028", "", "x\ty", "\u200bx"]:
    print("spaces", strict_json.dumps([plain_text.words(text), plain_text.strip_spaces(text), plain_text.is_blank(text)]))
print("escaped", plain_text.escape_html('<img src=x onerror="a&b">'), plain_text.escape_html(42))
'''


def test_protocol_verdicts_are_identical():
    out = both(PROTOCOL)
    lines = out.splitlines()
    assert sum(line.startswith("encoded ") for line in lines) == 8
    oks = [line for line in lines if line.startswith("ok ")]
    refused = [line for line in lines if line.startswith("refused ")]
    malformed = int(re.search(r"^malformed (\d+)$", out, re.M).group(1))
    assert len(oks) == 8 and len(refused) == malformed > 50   # every good message passes, every other is refused
    assert all(line.endswith(".") for line in refused)
    assert 'name "Ann Lee"' in out and 'name "evil"' in out


SDP = r'''
from webui import sdp
from webui.sdp import Candidate, Signal, SignalError

OFFER = %r
ANSWER = %r
CODES = %r
for text, kind in ((OFFER, "offer"), (ANSWER, "answer")):
    sig = sdp.minimise(text, kind)
    print(repr(sig))
    print(repr(sdp.rebuild(sig)))
    print(sdp.pack(sig).hex())
    print(sdp.minimise(sdp.rebuild(sig), kind) == sig, sdp.decode(sdp.encode(sig)) == sig)
    print("code", sdp.encode(sig.copy(room="a1b2c3d4e5f6", nonce=513, created=1795000000, role="black")))
many = Signal("offer", "abcd", "x" * 22, bytes(range(48)), "actpass", tuple(Candidate(a, 1000 + i, t) for i, (a, t) in enumerate([
    ("10.0.0.1", "host"), ("2001:db8::1", "srflx"), ("relay.example.net", "relay"), ("198.51.100.3", "prflx"),
    ("::", "host"), ("fe80:0:0:1::1", "host"), ("::ffff:102:304", "srflx"), ("1::", "host")])),
    alg="sha-384", room="ffffffffffff", nonce=65535, created=2**32 - 1, role="black")
print(sdp.pack(many).hex())
print(repr(sdp.unpack(sdp.pack(many))))
print(sdp.decode(sdp.encode(many)) == many, sdp.minimise(sdp.rebuild(many), "offer") == many.copy(
    room="000000000000", nonce=0, created=0, role="white"))
print("code", sdp.encode(many))
for address in ["fe80:0:0:1:0:0:0:1", "::ffff:1.2.3.4", "1:0:0:0:0:0:0:0", "0:0:1:0:0:1:0:0", "FD00::0:2", "01.2.3.4",
                "1.2.3.4", "a.b", "5f2e7c1a-0b3d-4e6f-8a9b-0c1d2e3f4a5b.local", "fe80::1%%eth0"]:
    try:
        print("address", repr(sdp.unpack(sdp.pack(many.copy(candidates=(Candidate(address, 9),)))).candidates))
    except SignalError as err:
        print("address refused", repr(address), err)


def attempt(code):
    try:
        print("decoded", repr(sdp.decode(code)))
    except SignalError as err:
        print("refused", str(err))


for code in CODES:
    attempt(code)
    attempt(code[:30] + "\u00a0\u2028\n " + code[30:])   # copy-paste damage that is harmless
    for cut in range(1, len(code) - 1, 5):
        attempt(code[:cut])
    raw = sdp.b64url_decode(code)
    for i in range(1, len(raw)):
        flipped = bytearray(raw)
        flipped[i] ^= 0xFF
        attempt(sdp.b64url_encode(bytes(flipped)))
for bad in ["", "   ", "not a code!", "A" * 5000, "EQ", "IHh4eHh4", "E" * 5, "EQA=", "Ea\n b", "\u00a0"]:
    attempt(bad)
for line in ["a=candidate:1 1 udp 1 fe80::1%%eth0 9 typ host", "a=candidate:1 1 udp 1 01.2.3.4 9 typ host",
             "a=candidate:1 1 udp 1 1.2.3.4 0 typ host", "a=candidate:1 2 udp 1 1.2.3.4 9 typ host",
             "a=candidate:1 1 udp 1 a..b 9 typ host", "a=candidate:1 1 udp 1 x.local 9 typ relay"]:
    print("candidate", repr(sdp.minimise(OFFER.replace("a=ice-ufrag", line + "\r\na=ice-ufrag"), "offer").candidates))
'''


def sdp_script() -> str:
    from webui import sdp  # noqa: PLC0415 (CPython makes the codes that both decode)

    codes = [sdp.encode(sdp.minimise(OFFER, "offer")), sdp.encode(sdp.minimise(ANSWER, "answer"))]
    return SDP % (OFFER, ANSWER, codes)


def test_invite_codes_agree_and_decode_across_interpreters():
    out = both(sdp_script())
    assert out.count("True True") == 3
    assert out.count("\nrefused ") > 50 and out.count("\ndecoded ") >= 2


def test_codes_made_on_micropython_decode_on_cpython():
    from webui import sdp  # noqa: PLC0415

    out = run(sdp_script(), libs=LIBS)
    for line in out.splitlines():
        if line.startswith("code "):
            sig = sdp.decode(line[5:])
            assert sig.room in ("a1b2c3d4e5f6", "ffffffffffff")


QR = r'''
from webui import qr
for text, level in [("HELLO", "M"), ("https://bg.example/index.html?mode=friend#join=EAHx" + "Ab9_-" * 30, "M"),
                    ("\u00e9t\u00e9 \U0001F600", "H"), ("x" * 300, "L"), ("0123456789" * 20, "Q")]:
    m = qr.matrix(text, level)
    print(len(m), "".join("".join("1" if v else "0" for v in row) for row in m))
print(qr.svg("https://bg.example/#join=abc", label="Invite"))
for v in range(1, 41):
    print(v, [qr.data_codewords(v, lv) for lv in qr.LEVEL_NAMES], qr.raw_modules(v))
'''


def test_qr_matrices_are_identical():
    out = both(QR)
    assert out.startswith("21 ") and out.count("<svg ") == 1


DICE = r'''
import hashlib
from webui import fair_dice
from webui.fair_dice import CommitmentMismatch, Exchange

w, b = hashlib.sha256(b"w").digest(), hashlib.sha256(b"b").digest()
print([fair_dice.roll(w, b, "room|1|%d" % i) for i in range(1, 60)])
print([fair_dice.opening(w, b, "room|%d|0" % i) for i in range(1, 40)])
stream = fair_dice.outcomes(w, b, "r|1|1")
print([next(stream) for _ in range(200)])
print(fair_dice.commitment(w), fair_dice.context("0123456789ab", 3, 7))
fair_dice.verify(fair_dice.commitment(w), w)
try:
    fair_dice.verify(fair_dice.commitment(w), b)
except CommitmentMismatch as err:
    print("mismatch", err)
ex = Exchange(4, w)
ex.receive_commit(fair_dice.commitment(b).upper())
ex.receive_reveal(b)
again = Exchange.from_dict(ex.to_dict())
print(ex.to_dict() == again.to_dict(), sorted(again.to_dict().items()), again.secrets_by_colour("black") == (b, w))
fresh = [fair_dice.new_secret() for _ in range(20)]
print("fresh", len(set(fresh)), set(len(s) for s in fresh), type(fresh[0]).__name__)
'''


def test_fair_dice_are_identical_and_fresh_secrets_are_random():
    out = both(DICE)
    assert "mismatch Your friend's dice secret does not match" in out
    assert "fresh 20 {32} bytes" in out and "True [" in out


STORAGE = r'''
from engine import Dice, Game
from webui import storage, strict_json


def show(*values):
    print(strict_json.dumps(list(values)))


entries = storage.add_entry([], "Ann", "2026-11-29", 5, "gammon", "10/3")
entries = storage.add_entry(entries, "  Bob  ", "2026-11-28", 1, "single", "1/3")
entries = storage.add_entry(entries, "", "2026-11-27", 3, "backgammon", "3")
entries = storage.add_entry(entries, "D\u00e9", "2026-11-26", 3, "single", "3")
text = storage.dump_leaderboard(entries)
show(text)
show(storage.load_leaderboard(text))
good = entries[0]
for text in [None, "", "garbage", "{", "[1, 2]", '{"v": 2, "entries": []}', '{"v": 1, "entries": {}}',
             '{"v": 1, "entries": [],}', '{"v": 1, "entries": [' + strict_json.dumps(good) + ', {"name": 3}, 7,'
             ' {"name": "x", "date": "d", "level": 9, "kind": "single", "points": "1"},'
             ' {"name": "x", "date": "d", "level": 2, "kind": "single", "points": "1/0"},'
             ' {"name": "x", "date": "d", "level": 2, "kind": "single", "points": "1/2"},'
             ' {"name": "x", "date": "d", "level": "2", "kind": "gammon", "points": 2}]}']:
    show(storage.load_leaderboard(text))
for text in [None, "", '{"name": "Ann", "level": 3}', "[1]", "{'a': 1}", '{"a": 01}']:
    show(storage.load_settings(text))
game = Game(Dice(7))
game.set_opening(3, 1)
game.play(game.legal_plays()[0])
saved = strict_json.dumps(game.to_dict())
show(saved)
restored, problem = storage.load_game(saved, Game.from_dict)
show(restored.to_dict() == game.to_dict(), problem)
for text in [None, "{oops", saved[:-1], '{"v": 999}', "[1, 2]", saved.replace('"', "'")]:
    restored, problem = storage.load_game(text, Game.from_dict)
    show(restored is None, problem)
'''


def test_storage_round_trips_and_damage_are_identical():
    out = both(STORAGE)
    assert out.count("could not be restored") == 5 and "damaged leaderboard entries were skipped" in out
    assert '[true,null]' in out


JSON = r'''
from webui import strict_json
for text in ['[1,]', '{"a":1,}', "{'a':1}", '01', '[01]', '1.', '.5', '-', '"\\x41"', '"\\u00e9"', '"\\ud800"',
             '"\\ud83d\\ude00"', '"\\udc00"', 'Infinity', 'NaN', '[1 2]', '{"a" 1}', '{"a":1}x', ' {"a":1} ', 'tru',
             'true', 'null', '"a\nb"', '"a\\nb"', '1e5', '-0', '[]', '{}', '{"a":1,"a":2}', '"\\/"', '[1,,2]', '{,}',
             '"abc', '1 2', '', ' ', '{"a":[}', '"\\q"', '[-]', '[1e]', '0x10', '+1', '"\u2028\u00e9\U0001F600"',
             '123456789012345678901234567890', '[' * 20 + ']' * 20, '[' * 21 + ']' * 21, '{"b":{"a":[{"c":null}]}}',
             '"\\u12"', '"a\\', '-01', '1.5e', '{"\\u0000":"\\b\\f\\n\\r\\t\\"\\\\"}', '\t\r\n[\t1\r,\n2 ]']:
    try:
        value = strict_json.loads(text)
        print("ok", type(value).__name__, strict_json.dumps(value) if not isinstance(value, float) else "")
    except ValueError as err:
        print("refused", err)
print(strict_json.dumps({"z": [1, -2, "a\u0001\u001f\x7f\"\\\n\t\u00e9"], "a": {"y": None, "b": False}, "m": (True,)}))
for value in [1.5, {1: 2}, {"a"}]:
    try:
        strict_json.dumps(value)
    except TypeError as err:
        print("refused", err)
'''


def test_strict_json_is_identical():
    out = both(JSON)
    assert out.count("\nok ") >= 15 and out.count("refused") >= 30


RELAY = r'''
from webui import friend_params as fpar, relay_messages as rm, strict_json

ROOM, HOST, GUEST = "a1b2c3d4e5f6", "11111111", "22222222"
texts = [
    rm.make("hello", GUEST, "black", ROOM, saved=True),
    rm.make("offer", GUEST, "black", ROOM, HOST, code="EAB"),
    rm.make("answer", GUEST, "black", ROOM, HOST, code="EAC", bind="ab" * 32),
    rm.make("full", GUEST, "black", ROOM, HOST),
    rm.make("answer", GUEST, "white", ROOM, HOST, code="EAC", bind="ab"),
    rm.make("answer", GUEST, "black", ROOM, "33333333", code="EAC", bind="ab"),
    rm.make("answer", GUEST, "black", "ffffffffffff", HOST, code="EAC", bind="ab"),
    rm.make("answer", GUEST, "black", ROOM, HOST, code="", bind="ab"),
    rm.make("answer", GUEST, "black", ROOM, HOST, code="EAC", bind="xyz"),
    rm.make("hello", GUEST, "black", ROOM, saved="no"),
    rm.make("full", GUEST, "black", ROOM, HOST, extra=1),
    "{oops", "[1]", "x" * 5000,
]
for text in texts:
    try:
        print("ok", strict_json.dumps(rm.parse(text, ROOM, "white", HOST)))
    except rm.RelayMessageError as err:
        print("refused", str(err))
for state in ("inviting", "starting", "lost", "connected", "connecting", "answering", "stopped"):
    for sender, peer in ((GUEST, None), (GUEST, GUEST), ("33333333", GUEST)):
        for ready, on, saved in ((True, False, False), (False, False, False), (True, True, False), (True, True, True)):
            print("hello", state, sender, peer, ready, on, saved, rm.on_hello(state, sender, peer, ready, on, saved))
    for me in ("white", "black"):
        print("offer", state, me, rm.take_offer(me, state, GUEST, GUEST), rm.take_offer(me, state, GUEST, None),
              rm.take_offer(me, state, GUEST, None, GUEST), rm.take_offer(me, state, GUEST, None, GUEST, False))
print("relays", fpar.relay_urls(None), fpar.relay_urls("none"), fpar.relay_urls("ws://127.0.0.1:7000/,wss://a.b ,x"))
print("origins", [fpar.origin(u) for u in fpar.DEFAULT_RELAYS + ["wss://r.example/path/x"]])
print("turn", strict_json.dumps(fpar.turn_server("turn:t.example:3478,ann,pw")))
print("fragment", fpar.parse_fragment("#join=EAB&k=AAECAwQFBgcICQoLDA0ODw"), fpar.parse_fragment("#join=EAB&k=bad"))
'''


def test_the_relay_messages_and_parameters_are_the_same_on_both_interpreters():
    out = both(RELAY)
    lines = out.splitlines()
    assert sum(line.startswith("ok ") for line in lines) == 4
    assert sum(line.startswith("refused ") for line in lines) == 10
    assert "hello connected 33333333 22222222 True False False full" in out
    assert "relays [] " not in out and "'ws://127.0.0.1:7000'" in out
