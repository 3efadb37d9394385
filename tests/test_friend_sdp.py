"""Invite/reply codes: SDP minimisation, rebuild and the compact URL code (site/webui/sdp.py)."""

from __future__ import annotations

import base64

import pytest

from webui import sdp  # noqa: E402
from webui.sdp import Candidate, Signal, SignalError  # noqa: E402

# Real descriptions from Debian's Chromium 156 (no ICE servers, non-trickle, mDNS off).
OFFER = """v=0
o=- 6415615578764271595 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0
a=extmap-allow-mixed
a=msid-semantic: WMS
m=application 36284 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 192.0.2.2
a=candidate:1852652596 1 udp 2113937151 192.0.2.2 36284 typ host generation 0 network-cost 999
a=candidate:1763659908 1 udp 2113942271 fd00::2 35397 typ host generation 0 network-cost 999
a=ice-ufrag:NYOu
a=ice-pwd:EQjwscCUBLMQkwurip5V1+FM
a=ice-options:trickle
a=fingerprint:sha-256 68:9D:33:EA:2B:93:C0:15:09:7A:08:EA:E5:A8:ED:5E:7E:84:9D:D0:E3:6D:B3:9C:C1:E6:41:3C:FC:57:9A:23
a=setup:actpass
a=mid:0
a=sctp-port:5000
a=max-message-size:262144
""".replace("\n", "\r\n")

# A typical answer from a browser on a home network: an mDNS host candidate, a
# server-reflexive one from STUN, and a TCP candidate (dropped: UDP only).
ANSWER = """v=0
o=- 8657200197743156109 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0
m=application 49527 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 203.0.113.9
a=candidate:3661727557 1 udp 2113937151 5f2e7c1a-0b3d-4e6f-8a9b-0c1d2e3f4a5b.local 49527 typ host generation 0 network-cost 999
a=candidate:842163049 1 udp 1677729535 203.0.113.9 61234 typ srflx raddr 0.0.0.0 rport 0 generation 0 network-cost 999
a=candidate:3320393281 1 tcp 1518280447 192.168.1.7 9 typ host tcptype active generation 0
a=ice-ufrag:pheo
a=ice-pwd:O0zmUi/kk+c4dzdNKh/BqotH
a=fingerprint:sha-256 98:8C:0F:D9:15:2F:65:4D:29:05:F7:38:F1:11:99:2A:82:92:E3:6A:C3:70:0D:41:EE:2D:F8:DD:14:57:28:58
a=setup:active
a=mid:0
a=sctp-port:5000
a=max-message-size:262144
"""


def test_minimise_keeps_the_essentials():
    sig = sdp.minimise(OFFER, "offer")
    assert sig.ufrag == "NYOu" and sig.pwd == "EQjwscCUBLMQkwurip5V1+FM"
    assert sig.setup == "actpass" and sig.alg == "sha-256"
    assert sig.fingerprint.hex().upper().startswith("689D33EA")
    assert sig.candidates == (Candidate("192.0.2.2", 36284), Candidate("fd00::2", 35397))


def test_answer_keeps_udp_candidates_of_every_address_kind():
    sig = sdp.minimise(ANSWER, "answer")
    assert sig.setup == "active"
    assert sig.candidates == (
        Candidate("5f2e7c1a-0b3d-4e6f-8a9b-0c1d2e3f4a5b.local", 49527, "host"),
        Candidate("203.0.113.9", 61234, "srflx"),
    )


@pytest.mark.parametrize("text,kind", [(OFFER, "offer"), (ANSWER, "answer")])
def test_rebuild_round_trip(text, kind):
    sig = sdp.minimise(text, kind)
    rebuilt = sdp.rebuild(sig)
    assert rebuilt.endswith("\r\n") and "\n" not in rebuilt.replace("\r\n", "")
    assert sdp.minimise(rebuilt, kind) == sig
    # the lines a browser needs for a data channel are there
    for line in ("m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "a=mid:0", "a=sctp-port:5000",
                 f"a=ice-ufrag:{sig.ufrag}", f"a=setup:{sig.setup}", "a=group:BUNDLE 0"):
        assert line in rebuilt.split("\r\n")
    assert sdp.rebuild(sdp.minimise(rebuilt, kind)) == rebuilt  # stable


@pytest.mark.parametrize("text,kind", [(OFFER, "offer"), (ANSWER, "answer")])
def test_code_round_trip_is_short_and_url_safe(text, kind):
    sig = sdp.minimise(text, kind)
    sig = Signal(**{**sig.__dict__, "room": "a1b2c3d4e5f6", "nonce": 513, "created": 1_795_000_000, "role": "black"})
    code = sdp.encode(sig)
    assert sdp.decode(code) == sig
    assert len(code) < 200, len(code)
    assert all(c.isalnum() or c in "-_" for c in code)
    assert len(code) < len(text) / 4
    # copy-paste damage that is harmless: line breaks and spaces
    assert sdp.decode(code[:40] + "\n  " + code[40:]) == sig


def test_rebuilt_sdp_of_decoded_code_equals_rebuilt_original():
    sig = sdp.minimise(OFFER, "offer")
    assert sdp.rebuild(sdp.decode(sdp.encode(sig))) == sdp.rebuild(sig)


@pytest.mark.parametrize("bad", [
    "", "   ", "not a code!", "A" * 5000,
    "EQ",                                     # not a format byte, empty body
    base64.urlsafe_b64encode(bytes([0x30]) + b"x" * 40).decode().rstrip("="),  # another format
])
def test_bad_codes_are_refused_with_a_reason(bad):
    with pytest.raises(SignalError) as err:
        sdp.decode(bad)
    assert str(err.value)


def test_a_code_of_the_in_band_channel_version_is_refused_with_what_to_do():
    """Format 1 pages made an in-band data channel, which a page of this version
    (negotiated channel) cannot meet: their codes are refused, saying to reload."""
    code = sdp.encode(sdp.minimise(OFFER, "offer"))
    raw = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    assert raw[0] == sdp.FORMAT << 4 == 0x20
    old = base64.urlsafe_b64encode(bytes([0x10]) + raw[1:]).decode().rstrip("=")
    with pytest.raises(SignalError, match="another version of the game: both reload the page"):
        sdp.decode(old)


def test_truncated_and_flipped_codes_are_refused():
    code = sdp.encode(sdp.minimise(OFFER, "offer"))
    for cut in range(1, len(code) - 1, 7):
        with pytest.raises(SignalError):
            sdp.decode(code[:cut])
    raw = bytearray(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)))
    refused = 0
    for i in range(1, len(raw)):
        bad = bytearray(raw)
        bad[i] ^= 0xFF
        try:
            sdp.decode(base64.urlsafe_b64encode(bytes(bad)).decode().rstrip("="))
        except SignalError:
            refused += 1
    assert refused > 0  # some flips still decode to another valid signal; none crash


def test_minimise_refuses_sdp_without_credentials():
    with pytest.raises(SignalError):
        sdp.minimise("v=0\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n", "offer")
    with pytest.raises(SignalError):
        sdp.minimise(OFFER.replace("a=setup:actpass", "a=setup:sideways"), "offer")


def test_answer_cannot_be_actpass():
    sig = sdp.minimise(OFFER, "offer")
    with pytest.raises(SignalError):
        sdp.encode(Signal(**{**sig.__dict__, "kind": "answer"}))


def test_host_name_candidates_and_many_addresses():
    sig = Signal("offer", "abcd", "x" * 22, bytes(48), "actpass",
                 tuple(Candidate(a, 1000 + i, t) for i, (a, t) in enumerate([
                     ("10.0.0.1", "host"), ("2001:db8::1", "srflx"), ("relay.example.net", "relay"),
                     ("198.51.100.3", "prflx")])),
                 alg="sha-384", room="ffffffffffff", nonce=65535, created=2**32 - 1, role="black")
    assert sdp.decode(sdp.encode(sig)) == sig
    assert sdp.minimise(sdp.rebuild(sig), "offer") == Signal(**{**sig.__dict__, "room": "000000000000", "nonce": 0,
                                                                 "created": 0, "role": "white"})
