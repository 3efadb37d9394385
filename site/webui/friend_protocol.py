"""The friend game's messages: a small, strict, versioned JSON codec (pure).

Every message is one JSON object on the data channel::

    {"v": 1, "t": "play", "seq": 7, "game": 1, "turn": 4, "dice": [3, 1],
     "move": "8/5 6/5", "pos": "4HPwATDgc/ABMA"}

- ``v``: protocol version (``VERSION``); another version is refused with a
  message saying so.
- ``t``: the type, one of ``FIELDS``; ``seq``: 1, 2, 3, ... per connection and
  direction. ``Channel`` numbers what it sends and refuses what arrives out of
  order.
- The other fields are exactly those of the type (no more, no fewer), each
  checked for type and range. A message longer than ``MAX_BYTES`` is refused
  before it is parsed.

Every refusal is a ``ProtocolError`` (a ``ValueError``) whose text can be shown
to the player as it is. Nothing in a message is ever executed or inserted as
HTML: names and chat are plain text, checked for length and control
characters.

>>> ch = Channel()
>>> text = ch.encode("chat", text="good luck")
>>> Channel().decode(text)["text"]
'good luck'
"""

from __future__ import annotations

import json
import re
import unicodedata

VERSION = 1
MAX_BYTES = 2048
MAX_NAME = 24
MAX_CHAT = 200
MAX_REASON = 200
COLORS = ("white", "black")
KINDS = ("single", "gammon", "backgammon")

_POS_ID = re.compile(r"^[A-Za-z0-9+/]{14}$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_ROOM = re.compile(r"^[0-9a-f]{12}$")
_MOVE = re.compile(r"^[0-9a-z/*() ]{0,80}$")


class ProtocolError(ValueError):
    """A message refused; ``str(err)`` is a sentence for the player."""


# ------------------------------------------------------------------ field checks
def _int(lo: int, hi: int):
    def check(name, value):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ProtocolError(f"its {name} is not a number from {lo} to {hi}")
        return value
    return check


def _choice(options):
    def check(name, value):
        if value not in options:
            raise ProtocolError(f"its {name} is not one of {', '.join(options)}")
        return value
    return check


def _regex(pattern, what):
    def check(name, value):
        if not isinstance(value, str) or not pattern.match(value):
            raise ProtocolError(f"its {name} is not {what}")
        return value
    return check


def _text(limit, *, empty=True):
    def check(name, value):
        if not isinstance(value, str):
            raise ProtocolError(f"its {name} is not text")
        if len(value) > limit:
            raise ProtocolError(f"its {name} is longer than {limit} characters")
        if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") and ch not in "\u200d" for ch in value):
            raise ProtocolError(f"its {name} contains control characters")
        if not empty and not value.strip():
            raise ProtocolError(f"its {name} is empty")
        return value
    return check


def _bool(name, value):
    if not isinstance(value, bool):
        raise ProtocolError(f"its {name} is not true or false")
    return value


def _dice(name, value):
    if (not isinstance(value, list) or len(value) != 2
            or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in value)):
        raise ProtocolError(f"its {name} are not two dice from 1 to 6")
    return value


GAME = _int(1, 10_000)
TURN = _int(0, 10_000)

#: type -> {field: check}. ``v``, ``t`` and ``seq`` are common to all.
FIELDS = {
    "hello": {"name": _text(MAX_NAME), "color": _choice(COLORS), "room": _regex(_ROOM, "a room code"),
              "game": GAME, "turns": TURN, "pos": _regex(_POS_ID, "a position ID"),
              "turn": _choice(COLORS), "app": _text(40)},
    "commit": {"game": GAME, "roll": TURN, "hash": _regex(_HEX64, "a SHA-256 digest")},
    "reveal": {"game": GAME, "roll": TURN, "secret": _regex(_HEX64, "a 32-byte secret")},
    "play": {"game": GAME, "turn": TURN, "dice": _dice, "move": _regex(_MOVE, "a move in gnubg notation"),
             "pos": _regex(_POS_ID, "a position ID")},
    "resign": {"game": GAME, "kind": _choice(KINDS)},
    "rematch": {"game": GAME},
    "chat": {"text": _text(MAX_CHAT, empty=False)},
    "error": {"reason": _text(MAX_REASON), "fatal": _bool},
}
COMMON = ("v", "t", "seq")


def validate(msg) -> dict:
    """Check a parsed message's shape; returns it. :raises ProtocolError:"""
    if not isinstance(msg, dict):
        raise ProtocolError("Refused a message from your friend's game: it is not a JSON object.")
    v = msg.get("v")
    if v != VERSION or isinstance(v, bool):
        raise ProtocolError(
            f"Your friend's game speaks protocol version {str(v)[:10]!s}, this page version {VERSION}: "
            "both of you reload the page to get the same version, then make a new link."
        )
    t = msg.get("t")
    if not isinstance(t, str) or t not in FIELDS:
        shown = t[:20] if isinstance(t, str) else type(t).__name__
        raise ProtocolError(f"Refused a message from your friend's game: unknown type {shown!r}.")
    seq = msg.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq <= 10**9:
        raise ProtocolError(f"Refused a {t!r} message from your friend's game: it has no sequence number.")
    spec = FIELDS[t]
    extra = set(msg) - set(spec) - set(COMMON)
    if extra:
        raise ProtocolError(f"Refused a {t!r} message from your friend's game: unexpected field {sorted(extra)[0][:20]!r}.")
    for name, check in spec.items():
        if name not in msg:
            raise ProtocolError(f"Refused a {t!r} message from your friend's game: its {name} is missing.")
        try:
            check(name, msg[name])
        except ProtocolError as err:
            raise ProtocolError(f"Refused a {t!r} message from your friend's game: {err}.") from None
    return msg


def parse(text) -> dict:
    """Text from the data channel -> a validated message (no sequence check)."""
    if not isinstance(text, str):
        raise ProtocolError("Refused a message from your friend's game: it is not text.")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise ProtocolError(
            f"Refused a message from your friend's game: it is {size} bytes, more than the {MAX_BYTES} allowed."
        )
    try:
        msg = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ProtocolError("Refused a message from your friend's game: it is not valid JSON.") from None
    return validate(msg)


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def dump(msg: dict) -> str:
    """A validated message -> compact JSON text. :raises ProtocolError: invalid or too long."""
    validate(msg)
    text = json.dumps(msg, separators=(",", ":"), ensure_ascii=False)
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise ProtocolError(f"message too long to send ({len(text)} characters)")
    return text


class Channel:
    """Sequence numbers for one connection: ``encode`` numbers outgoing
    messages, ``decode`` checks incoming ones arrive 1, 2, 3, ..."""

    def __init__(self):
        self.sent = 0       # last seq sent
        self.received = 0   # last seq accepted

    def encode(self, t: str, **fields) -> str:
        msg = {"v": VERSION, "t": t, "seq": self.sent + 1, **fields}
        text = dump(msg)
        self.sent += 1
        return text

    def decode(self, text) -> dict:
        """:raises ProtocolError: malformed, oversized, wrong version, or out of sequence."""
        msg = parse(text)
        want = self.received + 1
        if msg["seq"] != want:
            raise ProtocolError(
                f"Refused a {msg['t']!r} message from your friend's game: it is number {msg['seq']} "
                f"but number {want} was expected (out of sequence)."
            )
        self.received = msg["seq"]
        return msg


def clean_name(name, default: str = "Your friend") -> str:
    """A display name: plain text, no control characters, at most ``MAX_NAME``."""
    if not isinstance(name, str):
        return default
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C" or ch == "\u200d")
    name = " ".join(name.split())[:MAX_NAME].strip()
    return name or default
