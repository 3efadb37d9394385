"""The friend game's message codec (site/webui/friend_protocol.py)."""

from __future__ import annotations

import json

import pytest

from webui import friend_protocol as fp  # noqa: E402
from webui.friend_protocol import Channel, ProtocolError  # noqa: E402

H = "ab" * 32
GOOD = {
    "hello": {"name": "Ann", "color": "white", "room": "0123456789ab", "game": 1, "turns": 0,
              "pos": "4HPwATDgc/ABMA", "turn": "white", "app": "backgammon-web/1"},
    "commit": {"game": 1, "roll": 0, "hash": H},
    "reveal": {"game": 1, "roll": 0, "secret": H},
    "play": {"game": 1, "turn": 3, "dice": [3, 1], "move": "8/5 6/5", "pos": "4HPwATDgc/ABMA"},
    "resign": {"game": 2, "kind": "gammon"},
    "rematch": {"game": 2},
    "chat": {"text": "gl hf"},
    "error": {"reason": "Refused a play", "fatal": False},
}


def msg(t, seq=1, **over):
    return {"v": 1, "t": t, "seq": seq, **GOOD[t], **over}


@pytest.mark.parametrize("t", sorted(GOOD))
def test_every_type_round_trips(t):
    ch, rx = Channel(), Channel()
    text = ch.encode(t, **GOOD[t])
    assert json.loads(text) == msg(t)
    assert rx.decode(text) == msg(t)
    assert ch.sent == 1 and rx.received == 1


def test_sequence_numbers_count_up_and_out_of_order_is_refused():
    tx, rx = Channel(), Channel()
    texts = [tx.encode("chat", text=f"m{i}") for i in range(4)]
    assert [json.loads(t)["seq"] for t in texts] == [1, 2, 3, 4]
    rx.decode(texts[0])
    with pytest.raises(ProtocolError, match="out of sequence"):
        rx.decode(texts[2])
    with pytest.raises(ProtocolError, match="out of sequence"):
        rx.decode(texts[0])  # a replay
    assert rx.received == 1
    rx.decode(texts[1])
    rx.decode(texts[2])


def refused(text) -> str:
    with pytest.raises(ProtocolError) as err:
        Channel().decode(text)
    s = str(err.value)
    assert s and s[0].isupper() and s.endswith("."), s
    return s


def test_malformed_json_and_non_objects():
    assert "not valid JSON" in refused("{not json")
    assert "not valid JSON" in refused('{"v": 1, "t": "chat", "seq": 1, "text": NaN}')
    assert "not a JSON object" in refused("[1, 2]")
    assert "not a JSON object" in refused('"hello"')
    assert "not text" in refused(b"bytes")
    assert "not valid JSON" in refused("[" * 100_0)


def test_oversized_messages_are_refused_before_parsing():
    big = json.dumps(msg("chat", text="x" * 3000))
    s = refused(big)
    assert "bytes" in s and "2048" in s
    # multibyte characters count as bytes
    assert "bytes" in refused(json.dumps(msg("chat", text="é" * 1100), ensure_ascii=False))


def test_unknown_version_and_type():
    assert "version 2" in refused(json.dumps(msg("chat", v=2)))
    assert "version" in refused(json.dumps({k: v for k, v in msg("chat").items() if k != "v"}))
    assert "unknown type 'shell'" in refused(json.dumps({"v": 1, "t": "shell", "seq": 1, "cmd": "rm -rf /"}))
    assert "unknown type" in refused(json.dumps({"v": 1, "t": 5, "seq": 1}))


@pytest.mark.parametrize("t,field,value,why", [
    ("hello", "name", "x" * 25, "longer than 24"),
    ("hello", "name", "<b>\u0007</b>", "control characters"),
    ("hello", "name", 42, "not text"),
    ("hello", "color", "red", "not one of white, black"),
    ("hello", "room", "ROOM", "room code"),
    ("hello", "pos", "4HPwATDgc/ABM", "position ID"),
    ("commit", "hash", "zz" * 32, "SHA-256"),
    ("commit", "roll", -1, "number from 0"),
    ("commit", "roll", True, "number"),
    ("commit", "game", 1.0, "number"),
    ("reveal", "secret", "ab" * 31, "secret"),
    ("play", "dice", [7, 1], "two dice"),
    ("play", "dice", [1, 2, 3], "two dice"),
    ("play", "dice", "3,1", "two dice"),
    ("play", "move", "<script>alert(1)</script>", "gnubg notation"),
    ("play", "move", "8/5 " * 30, "gnubg notation"),
    ("resign", "kind", "triple", "not one of"),
    ("chat", "text", "", "empty"),
    ("chat", "text", "y" * 201, "longer than 200"),
])
def test_bad_fields_are_refused_by_name(t, field, value, why):
    s = refused(json.dumps(msg(t, **{field: value})))
    assert field in s and why in s, s


def test_missing_and_extra_fields():
    m = msg("play")
    del m["pos"]
    assert "pos is missing" in refused(json.dumps(m))
    assert "unexpected field 'eval'" in refused(json.dumps(msg("play", eval="x")))
    assert "sequence number" in refused(json.dumps(msg("chat", seq=0)))
    assert "sequence number" in refused(json.dumps(msg("chat", seq="1")))


def test_outgoing_messages_are_checked_too():
    ch = Channel()
    with pytest.raises(ProtocolError):
        ch.encode("play", game=1, turn=0, dice=[9, 9], move="", pos="4HPwATDgc/ABMA")
    assert ch.sent == 0


def test_names_are_plain_text():
    assert fp.clean_name("  Ann\u0000\n  Lee ") == "Ann Lee"
    assert fp.clean_name("<img src=x onerror=alert(1)>") == "<img src=x onerror=alert"  # kept as text, cut to 24
    assert fp.clean_name("") == "Your friend"
    assert fp.clean_name(None) == "Your friend"
    assert fp.clean_name("\u202eevil") == "evil"
