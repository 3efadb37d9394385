"""The messages two pages exchange on the relays to set up their connection (pure).

They travel sealed (AES-GCM under the link's secret, ``friend-crypto.mjs``):
a relay sees only ciphertext. Every message is JSON with exactly these fields:

| t | fields |
|---|---|
| ``hello`` | here I am (a page that opens the room, or wants to reconnect); ``saved``: it has this game saved |
| ``offer`` | ``code``: the sender's offer (an ``sdp`` code), for the page ``to`` |
| ``answer`` | ``code``: the answer to the offer of ``to``; ``bind``: that offer's DTLS fingerprint (hex) |
| ``full`` | the game is on with another page: ``to`` is refused |

plus ``v`` (1), ``from`` (the sender page's random id, 8 hex digits, new on
every page load), ``to`` (the addressee's id, ``""`` for ``hello``), ``as``
(the sender's colour) and ``room``. A page handles only messages for its own
room and id, from the other colour. An answer counts only when it answers the
sender's current offer (its nonce, and ``bind`` equal to that offer's
fingerprint); a replayed offer addresses a page id that no longer exists or an
offer already answered (a page remembers the offers it answered, by sender
and nonce, and never answers one twice); so a relay that replays, drops or forges messages
cannot connect anyone else, and the fingerprints (sealed, so a relay cannot
change them) make DTLS refuse any other peer.

The decisions (``on_hello``, ``take_offer``) are functions of the page's state,
tested in tests/test_friend_relay_rules.py.
"""

import json

VERSION = 1
KINDS = ("hello", "offer", "answer", "full")
HEX = "0123456789abcdef"
COLOURS = ("white", "black")
MAX_CODE = 1500


class RelayMessageError(ValueError):
    """A message on the relays this page cannot use (the reason)."""


def _is_hex(text, n=None) -> bool:
    return isinstance(text, str) and (n is None or len(text) == n) and all(c in HEX for c in text)


def make(kind: str, sender: str, colour: str, room: str, to: str = "", **fields) -> str:
    msg = {"v": VERSION, "t": kind, "from": sender, "to": to, "as": colour, "room": room}
    msg.update(fields)
    return json.dumps(msg)


def fields_of(kind: str) -> set:
    base = {"v", "t", "from", "to", "as", "room"}
    extra = {"hello": {"saved"}, "offer": {"code"}, "answer": {"code", "bind"}, "full": set()}[kind]
    return base | extra


def parse(text, room: str, me: str, tab: str) -> dict:
    """A message for this page (room, colour ``me``, page id ``tab``), checked; else RelayMessageError."""
    try:
        msg = json.loads(text) if isinstance(text, str) and len(text) <= 4096 else None
    except ValueError:
        msg = None
    if not isinstance(msg, dict) or msg.get("v") != VERSION or msg.get("t") not in KINDS:
        raise RelayMessageError("not a signalling message of this version")
    kind = msg["t"]
    if set(msg.keys()) != fields_of(kind):
        raise RelayMessageError(f"a {kind} message with other fields")
    if msg["room"] != room:
        raise RelayMessageError("for another game")
    if msg["as"] not in COLOURS or msg["as"] == me:
        raise RelayMessageError("not from the other side")
    if not _is_hex(msg["from"], 8) or msg["from"] == tab:
        raise RelayMessageError("from no page")
    if kind == "hello":
        if msg["to"] != "" or not isinstance(msg["saved"], bool):
            raise RelayMessageError("a malformed hello")
    elif msg["to"] != tab:
        raise RelayMessageError("for another page")
    if kind in ("offer", "answer"):
        code = msg["code"]
        if not isinstance(code, str) or not code or len(code) > MAX_CODE:
            raise RelayMessageError("a malformed code")
    if kind == "answer" and not _is_hex(msg["bind"]):
        raise RelayMessageError("an answer bound to nothing")
    return msg


def on_hello(state: str, sender: str, peer: str, offer_ready: bool, game_on: bool = False, saved: bool = False) -> str:
    """What a page in ``state`` does with a hello from page ``sender``:

    - ``"full"``: the game is on (or being connected) with another page
      ``peer``, or the game is on (``game_on``: this page has met the friend)
      and the sender does not have it saved: a third browser with the link;
    - ``"offer"``: send this page's pending offer to the sender;
    - ``"wait"``: an offer is being made: send it to the sender when ready;
    - ``"ignore"``: the page we are already connecting with, or nothing to do.
    """
    if state in ("connected", "connecting"):
        return "ignore" if sender == peer else "full"
    if game_on and not saved:
        return "full"
    if state == "inviting":
        return "offer" if offer_ready else "wait"
    if state in ("starting", "lost"):
        return "wait"
    return "ignore"


def take_offer(me: str, state: str, sender: str, offered_to: str, peer: str = None, fresh: bool = True) -> bool:
    """Whether to answer an offer from page ``sender``.

    - An offer this page has already answered (``fresh`` false) is a copy or a
      relay's replay: never answered twice.
    - Connected or connecting with page ``peer``: only a new offer from ``peer``
      itself is taken. That page gave up on the attempt (no connection came,
      or its side of the channel is gone while this side still looks open) and
      started again: its new offer replaces the attempt.
    - Both pages may offer at once (both reconnecting): White's offer wins, so
      White ignores an offer from the page it has itself sent an offer to, and
      Black answers.
    """
    if not fresh or state in ("full", "stopped", "moved", "bad-link"):
        return False
    if state in ("connected", "connecting"):
        return peer is not None and sender == peer
    if me == "white" and offered_to == sender and state == "inviting":
        return False
    return True
