"""Friend games on the relays, the pure parts: the signalling messages and their
rules (webui/relay_messages.py), the URL parameters and the invite's fragment
(webui/friend_params.py), and that netlify.toml's connect-src allows exactly
the default relays."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from webui import friend_params as fpar
from webui import relay_messages as rm

ROOT = Path(__file__).resolve().parent.parent
ROOM = "a1b2c3d4e5f6"
HOST, GUEST, THIRD = "11111111", "22222222", "33333333"


def msg(kind, sender=GUEST, colour="black", to=HOST, room=ROOM, **fields):
    return rm.make(kind, sender, colour, room, to, **fields)


# ------------------------------------------------------------------ messages
def test_messages_for_this_page_are_read_back():
    hello = rm.parse(rm.make("hello", GUEST, "black", ROOM, saved=False), ROOM, "white", HOST)
    assert hello["t"] == "hello" and hello["from"] == GUEST and hello["saved"] is False
    offer = rm.parse(msg("offer", HOST, "white", GUEST, code="EAB"), ROOM, "black", GUEST)
    assert offer["code"] == "EAB"
    answer = rm.parse(msg("answer", code="EAC", bind="ab" * 32), ROOM, "white", HOST)
    assert answer["bind"] == "ab" * 32
    assert rm.parse(msg("full", HOST, "white", THIRD), ROOM, "black", THIRD)["t"] == "full"


@pytest.mark.parametrize("text, reason", [
    ("not json", "not a signalling message"),
    (json.dumps({"v": 2, "t": "hello"}), "not a signalling message"),
    (json.dumps({"v": 1, "t": "evil"}), "not a signalling message"),
    (msg("full") [:-1] + ', "x": 1}', "other fields"),
    (msg("answer", code="EAC", bind="ab", room="ffffffffffff"), "another game"),
    (msg("answer", colour="white", code="EAC", bind="ab"), "not from the other side"),
    (msg("answer", sender=HOST, code="EAC", bind="ab"), "from no page"),
    (msg("answer", sender="zz", code="EAC", bind="ab"), "from no page"),
    (msg("answer", to=THIRD, code="EAC", bind="ab"), "another page"),
    (msg("answer", code="", bind="ab"), "malformed code"),
    (msg("answer", code="x" * 2000, bind="ab"), "malformed code"),
    (msg("answer", code="EAC", bind="not hex"), "bound to nothing"),
    (rm.make("hello", GUEST, "black", ROOM, HOST, saved=True), "malformed hello"),
    (rm.make("hello", GUEST, "black", ROOM, saved="yes"), "malformed hello"),
    ("x" * 5000, "not a signalling message"),
])
def test_messages_not_for_this_page_are_refused_with_a_reason(text, reason):
    with pytest.raises(rm.RelayMessageError, match=reason):
        rm.parse(text, ROOM, "white", HOST)


def test_a_hello_gets_an_offer_while_inviting_and_full_when_the_game_is_on_elsewhere():
    assert rm.on_hello("inviting", GUEST, None, True) == "offer"
    assert rm.on_hello("inviting", GUEST, None, False) == "wait"
    assert rm.on_hello("starting", GUEST, None, False) == "wait"
    assert rm.on_hello("lost", GUEST, None, False) == "wait"
    # connected or connecting: the same page again is nothing new, another page is refused
    assert rm.on_hello("connected", GUEST, GUEST, False) == "ignore"
    assert rm.on_hello("connected", THIRD, GUEST, False) == "full"
    assert rm.on_hello("connecting", THIRD, GUEST, False) == "full"
    # the game is on (this page met the friend) and the connection is lost: only a page
    # that has the game gets an offer, a fresh browser with the link is refused
    assert rm.on_hello("inviting", THIRD, None, True, game_on=True, saved=False) == "full"
    assert rm.on_hello("inviting", GUEST, None, True, game_on=True, saved=True) == "offer"
    assert rm.on_hello("stopped", GUEST, None, True) == "ignore"


def test_when_both_pages_offer_at_once_whites_offer_wins():
    # White has sent its offer to that page: it ignores theirs (they answer White's)
    assert rm.take_offer("white", "inviting", GUEST, GUEST) is False
    assert rm.take_offer("black", "inviting", HOST, HOST) is True
    # White answers an offer from a page it has not offered to
    assert rm.take_offer("white", "inviting", GUEST, None) is True
    for busy in ("connected", "connecting", "full", "stopped", "moved"):
        assert rm.take_offer("black", busy, HOST, None) is False


def test_an_offer_is_answered_once_and_a_new_offer_from_the_peer_replaces_a_stuck_attempt():
    # a copy of an offer already answered (the same offer sent again, or a relay's replay): never again
    for me in ("white", "black"):
        for state in ("inviting", "answering", "lost", "starting", "connected", "connecting"):
            assert rm.take_offer(me, state, GUEST, None, GUEST, fresh=False) is False
    # connected or connecting: a new offer from the page we connect with means it gave up on the
    # attempt (or its side of the channel is gone) and started again; from any other page: refused
    for state in ("connected", "connecting"):
        assert rm.take_offer("white", state, GUEST, GUEST, GUEST) is True
        assert rm.take_offer("black", state, HOST, None, HOST) is True
        assert rm.take_offer("white", state, THIRD, GUEST, GUEST) is False
        assert rm.take_offer("white", state, THIRD, None, None) is False
    for state in ("full", "stopped", "moved", "bad-link"):
        assert rm.take_offer("black", state, HOST, None, HOST) is False


# ------------------------------------------------------------------ parameters
def test_relay_parameter_replaces_the_defaults():
    assert fpar.relay_urls(None) == fpar.DEFAULT_RELAYS
    assert fpar.relay_urls("none") == [] and fpar.relay_urls("") == []
    assert fpar.relay_urls("ws://127.0.0.1:7000, wss://r.example/, http://no, wss://r.example") == [
        "ws://127.0.0.1:7000", "wss://r.example"]
    assert len(fpar.relay_urls(",".join(f"wss://r{i}.example" for i in range(10)))) == fpar.MAX_RELAYS


def test_turn_parameter():
    assert fpar.turn_server(None) is None and fpar.turn_server("") is None
    assert fpar.turn_server("turn:t.example:3478,ann,pw") == {"urls": "turn:t.example:3478", "username": "ann",
                                                              "credential": "pw"}
    for bad in ("stun:t.example,ann,pw", "turn:t.example", "turn:t.example,,pw"):
        with pytest.raises(ValueError, match="turn:HOST:PORT,USERNAME,CREDENTIAL"):
            fpar.turn_server(bad)


def test_ice_parameter_is_unchanged():
    assert fpar.ice_servers(None) == fpar.DEFAULT_ICE
    assert fpar.ice_servers("none") == []
    assert fpar.ice_servers("stun:a:1,http://x,stun:b:2") == ["stun:a:1", "stun:b:2"]


def test_the_invite_fragment():
    secret = "AAECAwQFBgcICQoLDA0ODw"
    assert fpar.parse_fragment("#join=EAB&k=" + secret) == ("EAB", secret)
    assert fpar.parse_fragment("#join=EAB") == ("EAB", None)              # an invite from an older page
    assert fpar.parse_fragment("#join=EAB&k=short") == ("EAB", None)      # a damaged secret: the links only
    assert fpar.parse_fragment("#join=EAB&k=" + secret[:-1] + "!") == ("EAB", None)


def test_the_content_security_policy_allows_exactly_the_default_relays():
    config = tomllib.loads((ROOT / "netlify.toml").read_text())
    csp = next(rule["values"]["Content-Security-Policy"] for rule in config["headers"] if rule["for"] == "/*")
    directives = {d.split()[0]: d.split()[1:] for d in (x.strip() for x in csp.split(";")) if d}
    relays = [s for s in directives["connect-src"] if s not in ("'self'", "blob:")]
    assert sorted(relays) == sorted(fpar.origin(u) for u in fpar.DEFAULT_RELAYS)
    assert all(u.startswith("wss://") for u in fpar.DEFAULT_RELAYS)


def test_the_e2e_server_adds_a_relay_to_connect_src_only():
    import serve

    rules = serve.load_header_rules(ROOT / "netlify.toml")
    wider = serve.allow_connect(rules, ["ws://127.0.0.1:*"])
    before, after = serve.headers_for(rules, "/index.html"), serve.headers_for(wider, "/index.html")
    assert "ws://127.0.0.1:*" not in before["Content-Security-Policy"]
    csp = after["Content-Security-Policy"]
    connect = next(d for d in csp.split("; ") if d.startswith("connect-src "))
    assert connect.endswith(" ws://127.0.0.1:*") and csp.count("ws://127.0.0.1:*") == 1
    others = lambda policy: [d.strip() for d in policy.split(";") if not d.strip().startswith("connect-src")]
    assert others(csp) == others(before["Content-Security-Policy"])
