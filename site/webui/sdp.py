"""Invite and reply codes: a WebRTC offer/answer squeezed into a URL fragment (pure).

A browser's SDP for one data channel is ~800 bytes, almost all boilerplate.
What the other side really needs is the ICE credentials (``ice-ufrag``,
``ice-pwd``), the DTLS certificate fingerprint, the DTLS role (``setup``) and
the candidate addresses. ``minimise`` keeps exactly those, ``rebuild`` writes
a complete SDP from them that Chromium, Firefox and Safari accept, and
``encode``/``decode`` pack them (with the friend game's room, invite number
and creation time) into a compact base64url code for ``#join=...`` and
``reply.html#r=...`` links: about 150 characters.

>>> sig = Signal("offer", "AbCd", "p" * 24, bytes(range(32)), "actpass",
...              (Candidate("192.168.1.20", 50000),), room="0123456789ab", nonce=7, created=1_800_000_000)
>>> decode(encode(sig)) == sig
True

Codes never reach a server: they travel in the URL fragment, through the
players' own messaging apps, or pasted by hand.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import re
import struct
import zlib
from dataclasses import dataclass, field

FORMAT = 1                      # first byte of every code: FORMAT << 4 | flags
F_DEFLATE = 0x1                 # body is raw-deflated
KINDS = ("offer", "answer")
SETUPS = ("actpass", "active", "passive")
ROLES = ("white", "black")
CAND_TYPES = ("host", "srflx", "prflx", "relay")
TYPE_PREF = {"host": 126, "prflx": 110, "srflx": 100, "relay": 0}
FINGERPRINT_ALGS = {"sha-256": 32, "sha-384": 48, "sha-512": 64}
ALG_CODES = ("sha-256", "sha-384", "sha-512")
MAX_CANDIDATES = 8
MAX_CODE = 1200                 # characters: anything longer is not one of ours

ICE_CHARS = re.compile(r"^[A-Za-z0-9+/]+$")
_MDNS = re.compile(r"^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$")
_HOSTNAME = re.compile(r"^[A-Za-z0-9.-]{1,253}$")


class SignalError(ValueError):
    """A code or SDP that cannot be used; the message is for the player."""


@dataclass(frozen=True)
class Candidate:
    """One UDP ICE candidate: ``Candidate('192.168.1.20', 50000, 'host')``."""

    address: str                # IPv4, IPv6, an mDNS name (uuid.local) or a host name
    port: int
    type: str = "host"          # host | srflx | prflx | relay


@dataclass(frozen=True)
class Signal:
    """The essentials of an offer or answer, plus the friend game's envelope."""

    kind: str                   # "offer" | "answer"
    ufrag: str                  # ice-ufrag: "NYOu"
    pwd: str                    # ice-pwd: "EQjwscCUBLMQkwurip5V1+FM"
    fingerprint: bytes          # DTLS certificate digest (32 bytes for sha-256)
    setup: str                  # "actpass" (offers) | "active" | "passive"
    candidates: tuple = ()      # (Candidate, ...)
    alg: str = "sha-256"        # fingerprint hash
    room: str = "000000000000"  # friend game room, 12 hex digits
    nonce: int = 0              # which invite of the room this is (0..65535)
    created: int = 0            # unix seconds when the code was made
    role: str = "white"         # colour of the player who made this code
    extra: dict = field(default_factory=dict, compare=False)  # unused, for forward compatibility


# ------------------------------------------------------------------ SDP text
def minimise(sdp: str, kind: str) -> Signal:
    """The essentials of a browser's SDP (only UDP candidates are kept).

    :raises SignalError: no ICE credentials, fingerprint or setup role in it.
    """
    if kind not in KINDS:
        raise SignalError(f"unknown description type {kind!r}")
    ufrag = pwd = setup = alg = None
    fp = None
    cands: list[Candidate] = []
    for raw in sdp.replace("\r\n", "\n").split("\n"):
        line = raw.strip()
        if line.startswith("a=ice-ufrag:") and ufrag is None:
            ufrag = line.split(":", 1)[1].strip()
        elif line.startswith("a=ice-pwd:") and pwd is None:
            pwd = line.split(":", 1)[1].strip()
        elif line.startswith("a=fingerprint:") and fp is None:
            parts = line.split(":", 1)[1].split()
            if len(parts) == 2 and parts[0].lower() in FINGERPRINT_ALGS:
                alg = parts[0].lower()
                try:
                    fp = bytes.fromhex(parts[1].replace(":", ""))
                except ValueError:
                    raise SignalError("the connection details have a damaged fingerprint") from None
        elif line.startswith("a=setup:") and setup is None:
            setup = line.split(":", 1)[1].strip()
        elif line.startswith("a=candidate:"):
            c = _parse_candidate(line[len("a="):])
            if c is not None and c not in cands and len(cands) < MAX_CANDIDATES:
                cands.append(c)
    if not ufrag or not pwd:
        raise SignalError("the connection details have no ICE credentials")
    if fp is None:
        raise SignalError("the connection details have no certificate fingerprint")
    if setup not in SETUPS:
        raise SignalError("the connection details have no DTLS role")
    sig = Signal(kind, ufrag, pwd, fp, setup, tuple(cands), alg)
    _check(sig)
    return sig


def _parse_candidate(text: str):
    """``candidate:F 1 udp PRIO ADDR PORT typ TYPE ...`` -> Candidate (UDP, RTP component only)."""
    parts = text.split()
    if len(parts) < 8 or parts[6] != "typ":
        return None
    if parts[1] != "1" or parts[2].lower() != "udp":
        return None
    try:
        port = int(parts[5])
    except ValueError:
        return None
    ctype = parts[7]
    if ctype not in CAND_TYPES or not 0 < port < 65536:
        return None
    try:
        _addr_kind(parts[4])
    except SignalError:
        return None
    return Candidate(parts[4], port, ctype)


def rebuild(sig: Signal) -> str:
    """A complete SDP (CRLF line ends) for ``RTCPeerConnection.setRemoteDescription``."""
    _check(sig)
    sess = int.from_bytes(hashlib.sha256((sig.ufrag + sig.pwd).encode()).digest()[:7], "big")
    fp = ":".join(f"{b:02X}" for b in sig.fingerprint)
    lines = [
        "v=0",
        f"o=- {sess} 2 IN IP4 127.0.0.1",
        "s=-",
        "t=0 0",
        "a=group:BUNDLE 0",
        "a=msid-semantic: WMS",
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
        "c=IN IP4 0.0.0.0",
    ]
    for i, c in enumerate(sig.candidates):
        prio = (TYPE_PREF[c.type] << 24) | ((65535 - i) << 8) | 255
        line = f"a=candidate:{i + 1} 1 udp {prio} {c.address} {c.port} typ {c.type}"
        if c.type != "host":
            line += " raddr 0.0.0.0 rport 0"
        lines.append(line + " generation 0")
    lines += [
        "a=end-of-candidates",
        f"a=ice-ufrag:{sig.ufrag}",
        f"a=ice-pwd:{sig.pwd}",
        f"a=fingerprint:{sig.alg} {fp}",
        f"a=setup:{sig.setup}",
        "a=mid:0",
        "a=sctp-port:5000",
        "a=max-message-size:262144",
    ]
    return "\r\n".join(lines) + "\r\n"


# ------------------------------------------------------------------ checks
def _check(sig: Signal) -> None:
    if sig.kind not in KINDS:
        raise SignalError(f"unknown description type {sig.kind!r}")
    for name, value, lo, hi in (("ufrag", sig.ufrag, 4, 256), ("pwd", sig.pwd, 22, 256)):
        if not (lo <= len(value) <= hi) or not ICE_CHARS.match(value):
            raise SignalError(f"the connection details have a bad ICE {name}")
    if sig.alg not in FINGERPRINT_ALGS or len(sig.fingerprint) != FINGERPRINT_ALGS[sig.alg]:
        raise SignalError("the connection details have a bad certificate fingerprint")
    if sig.setup not in SETUPS or (sig.kind == "answer" and sig.setup == "actpass"):
        raise SignalError("the connection details have a bad DTLS role")
    if len(sig.candidates) > MAX_CANDIDATES:
        raise SignalError("the connection details list too many addresses")
    for c in sig.candidates:
        if c.type not in CAND_TYPES or not 0 < c.port < 65536:
            raise SignalError("the connection details have a bad address")
        _addr_kind(c.address)
    if not re.fullmatch(r"[0-9a-f]{12}", sig.room):
        raise SignalError("the link names no game room")
    if not 0 <= sig.nonce < 65536 or not 0 <= sig.created < 2**32:
        raise SignalError("the link is damaged")
    if sig.role not in ROLES:
        raise SignalError("the link names no colour")


def _addr_kind(address: str) -> int:
    """0 IPv4, 1 IPv6, 2 mDNS uuid name, 3 other host name."""
    try:
        ip = ipaddress.ip_address(address)
        return 0 if ip.version == 4 else 1
    except ValueError:
        pass
    if _MDNS.match(address):
        return 2
    if _HOSTNAME.match(address) and ".." not in address:
        return 3
    raise SignalError("the connection details have a bad address")


# ------------------------------------------------------------------ binary code
def pack(sig: Signal) -> bytes:
    """The binary form (see ``encode``)."""
    _check(sig)
    out = bytearray()
    flags = KINDS.index(sig.kind) | (SETUPS.index(sig.setup) << 1) | (ROLES.index(sig.role) << 3)
    out.append(flags)
    out += bytes.fromhex(sig.room)
    out += struct.pack(">HI", sig.nonce, sig.created)
    for text in (sig.ufrag, sig.pwd):
        b = text.encode("ascii")
        out.append(len(b))
        out += b
    out.append(ALG_CODES.index(sig.alg))
    out += sig.fingerprint
    out.append(len(sig.candidates))
    for c in sig.candidates:
        kind = _addr_kind(c.address)
        out.append(CAND_TYPES.index(c.type) | (kind << 2))
        if kind == 0:
            out += ipaddress.IPv4Address(c.address).packed
        elif kind == 1:
            out += ipaddress.IPv6Address(c.address).packed
        elif kind == 2:
            out += bytes.fromhex("".join(_MDNS.match(c.address).groups()))
        else:
            b = c.address.encode("ascii")
            out.append(len(b))
            out += b
        out += struct.pack(">H", c.port)
    return bytes(out)


def unpack(data: bytes) -> Signal:
    """Inverse of ``pack``. :raises SignalError: truncated or inconsistent data."""
    try:
        r = _Reader(data)
        flags = r.byte()
        if flags >> 5:
            raise SignalError("unknown flags")
        kind = KINDS[flags & 1]
        setup = SETUPS[(flags >> 1) & 3]
        role = ROLES[(flags >> 3) & 1]
        room = r.take(6).hex()
        nonce, created = struct.unpack(">HI", r.take(6))
        ufrag = r.take(r.byte()).decode("ascii")
        pwd = r.take(r.byte()).decode("ascii")
        alg = ALG_CODES[r.byte()]
        fp = r.take(FINGERPRINT_ALGS[alg])
        cands = []
        for _ in range(r.byte()):
            t = r.byte()
            ctype, akind = CAND_TYPES[t & 3], (t >> 2) & 3
            if t >> 4:
                raise SignalError("unknown candidate flags")
            if akind == 0:
                addr = str(ipaddress.IPv4Address(r.take(4)))
            elif akind == 1:
                addr = str(ipaddress.IPv6Address(r.take(16)))
            elif akind == 2:
                h = r.take(16).hex()
                addr = f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}.local"
            else:
                addr = r.take(r.byte()).decode("ascii")
            (port,) = struct.unpack(">H", r.take(2))
            cands.append(Candidate(addr, port, ctype))
        if not r.done():
            raise SignalError("trailing data")
    except (IndexError, ValueError, UnicodeDecodeError, struct.error) as err:
        if isinstance(err, SignalError):
            raise SignalError(f"the code is damaged ({err})") from None
        raise SignalError("the code is damaged or incomplete") from None
    sig = Signal(kind, ufrag, pwd, fp, setup, tuple(cands), alg, room, nonce, created, role)
    _check(sig)
    return sig


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.i = data, 0

    def take(self, n: int) -> bytes:
        if self.i + n > len(self.data):
            raise IndexError("truncated")
        out = self.data[self.i:self.i + n]
        self.i += n
        return out

    def byte(self) -> int:
        return self.take(1)[0]

    def done(self) -> bool:
        return self.i == len(self.data)


def encode(sig: Signal) -> str:
    """Compact URL-safe code: a format byte, then the binary form, raw-deflated
    when that is shorter, base64url without padding."""
    body = pack(sig)
    packed = zlib.compress(body, 9)[2:-4]  # raw deflate (no zlib header/trailer)
    flags = 0
    if len(packed) < len(body):
        body, flags = packed, F_DEFLATE
    raw = bytes([FORMAT << 4 | flags]) + body
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def decode(code: str) -> Signal:
    """Inverse of ``encode``; tolerant of whitespace and line breaks from copy-paste.

    :raises SignalError: not a code of ours, damaged, or from another version.
    """
    if not isinstance(code, str):
        raise SignalError("there is no code")
    text = "".join(code.split())
    if not text:
        raise SignalError("the code is empty")
    if len(text) > MAX_CODE or not re.fullmatch(r"[A-Za-z0-9_-]+", text):
        raise SignalError("that is not a game code (it has characters a code never has)")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError):
        raise SignalError("the code is damaged or incomplete") from None
    if not raw:
        raise SignalError("the code is empty")
    if raw[0] >> 4 != FORMAT:
        raise SignalError("the code was made by another version of the game: both reload the page and make a new link")
    body = raw[1:]
    if raw[0] & F_DEFLATE:
        try:
            d = zlib.decompressobj(-15)
            body = d.decompress(body, 4096)
            if d.unconsumed_tail or not d.eof:
                raise SignalError("too long")
        except zlib.error:
            raise SignalError("the code is damaged or incomplete") from None
        except SignalError:
            raise SignalError("the code is damaged or incomplete") from None
    elif raw[0] & 0xF:
        raise SignalError("the code is damaged")
    return unpack(body)
