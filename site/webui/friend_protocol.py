"""The friend game's messages: a small, strict, versioned JSON codec (pure).

Every message is one JSON object on the data channel, written with its keys
sorted (``strict_json``: the same text in every runtime)::

    {"dice":[3,1],"game":1,"move":"8/5 6/5","pos":"4HPwATDgc/ABMA","seq":7,"t":"play","turn":4,"v":1}

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
characters (``plain_text``: the same verdict in every runtime).

>>> ch = Channel()
>>> text = ch.encode("chat", text="good luck")
>>> Channel().decode(text)["text"]
'good luck'
"""

from . import strict_json
from .plain_text import collapse_spaces, is_blank, is_control, strip_spaces

VERSION = 1
MAX_BYTES = 2048
MAX_NAME = 24
MAX_CHAT = 200
MAX_REASON = 200
COLORS = ("white", "black")
KINDS = ("single", "gammon", "backgammon")

_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_HEX = "0123456789abcdef"
#: (allowed characters, shortest, longest) of the fixed-format fields
_POS_ID = (_ALNUM + "+/", 14, 14)
_HEX64 = (_HEX, 64, 64)
_ROOM = (_HEX, 12, 12)
_MOVE = ("0123456789abcdefghijklmnopqrstuvwxyz/*() ", 0, 80)

class ProtocolError(ValueError):
    """A message refused; ``str(err)`` is a sentence for the player."""


def _shown(text: str, limit: int = 20) -> str:
    """Peer text quoted for an error message: cut short, control characters as '?'."""
    return "'" + "".join("?" if is_control(ch) else ch for ch in text[:limit]) + "'"


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


def _chars(spec, what):
    allowed, shortest, longest = spec

    def check(name, value):
        if (not isinstance(value, str) or not shortest <= len(value) <= longest
                or any(ch not in allowed for ch in value)):
            raise ProtocolError(f"its {name} is not {what}")
        return value
    return check


def _text(limit, *, empty=True):
    def check(name, value):
        if not isinstance(value, str):
            raise ProtocolError(f"its {name} is not text")
        if len(value) > limit:
            raise ProtocolError(f"its {name} is longer than {limit} characters")
        if any(is_control(ch) for ch in value):
            raise ProtocolError(f"its {name} contains control characters")
        if not empty and is_blank(value):
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

#: type -> ((field, check), ...), checked in this order. ``v``, ``t`` and
#: ``seq`` are common to all.
FIELDS = {
    "hello": (("name", _text(MAX_NAME)), ("color", _choice(COLORS)), ("room", _chars(_ROOM, "a room code")),
              ("game", GAME), ("turns", TURN), ("pos", _chars(_POS_ID, "a position ID")),
              ("turn", _choice(COLORS)), ("app", _text(40))),
    "commit": (("game", GAME), ("roll", TURN), ("hash", _chars(_HEX64, "a SHA-256 digest"))),
    "reveal": (("game", GAME), ("roll", TURN), ("secret", _chars(_HEX64, "a 32-byte secret"))),
    "play": (("game", GAME), ("turn", TURN), ("dice", _dice), ("move", _chars(_MOVE, "a move in gnubg notation")),
             ("pos", _chars(_POS_ID, "a position ID"))),
    "resign": (("game", GAME), ("kind", _choice(KINDS))),
    "rematch": (("game", GAME),),
    "chat": (("text", _text(MAX_CHAT, empty=False)),),
    "error": (("reason", _text(MAX_REASON)), ("fatal", _bool)),
}
COMMON = ("v", "t", "seq")


def validate(msg) -> dict:
    """Check a parsed message's shape; returns it. :raises ProtocolError:"""
    if not isinstance(msg, dict):
        raise ProtocolError("Refused a message from your friend's game: it is not a JSON object.")
    v = msg.get("v")
    if v != VERSION or isinstance(v, bool):
        shown = str(v)[:10] if v is None or isinstance(v, (bool, int, str)) else "unknown"
        raise ProtocolError(
            f"Your friend's game speaks protocol version {shown}, this page version {VERSION}: "
            "both of you reload the page to get the same version, then make a new link."
        )
    t = msg.get("t")
    if not isinstance(t, str) or t not in FIELDS:
        if isinstance(t, str):
            shown = _shown(t)
        else:
            shown = "(none given)" if t is None else f"(a {_type_name(t)}, not a name)"
        raise ProtocolError(f"Refused a message from your friend's game: unknown type {shown}.")
    seq = msg.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq <= 10**9:
        raise ProtocolError(f"Refused a {t!r} message from your friend's game: it has no sequence number.")
    spec = FIELDS[t]
    names = [name for name, _ in spec]
    extra = [key for key in msg if key not in names and key not in COMMON]
    if extra:
        raise ProtocolError(f"Refused a {t!r} message from your friend's game: unexpected field {_shown(min(extra))}.")
    for name, check in spec:
        if name not in msg:
            raise ProtocolError(f"Refused a {t!r} message from your friend's game: its {name} is missing.")
        try:
            check(name, msg[name])
        except ProtocolError as err:
            raise ProtocolError(f"Refused a {t!r} message from your friend's game: {err}.") from None
    return msg


def _type_name(value) -> str:
    """The JSON name of a parsed value's type (for a message about it)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "array" if isinstance(value, list) else "object"


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
        msg = strict_json.loads(text)
    except ValueError:
        raise ProtocolError("Refused a message from your friend's game: it is not valid JSON.") from None
    return validate(msg)


def dump(msg: dict) -> str:
    """A validated message -> compact JSON text (keys sorted). :raises ProtocolError: invalid or too long."""
    validate(msg)
    text = strict_json.dumps(msg)
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
        msg = {"v": VERSION, "t": t, "seq": self.sent + 1}
        msg.update(fields)
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
    name = "".join(ch for ch in name if not is_control(ch))
    name = strip_spaces(collapse_spaces(name)[:MAX_NAME])
    return name or default
