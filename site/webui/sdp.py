"""Invite and reply codes: a WebRTC offer/answer squeezed into a URL fragment (pure).

A browser's SDP for one data channel is ~800 bytes, almost all boilerplate.
What the other side really needs is the ICE credentials (``ice-ufrag``,
``ice-pwd``), the DTLS certificate fingerprint, the DTLS role (``setup``) and
the candidate addresses. ``minimise`` keeps exactly those, ``rebuild`` writes
a complete SDP from them that Chromium, Firefox and Safari accept, and
``encode``/``decode`` pack them (with the friend game's room, invite number
and creation time) into a compact base64url code for ``#join=...`` and
``reply.html#r=...`` links: about 140 characters.

>>> sig = Signal("offer", "AbCd", "p" * 24, bytes(range(32)), "actpass",
...              (Candidate("192.168.1.20", 50000),), room="0123456789ab", nonce=7, created=1_800_000_000)
>>> decode(encode(sig)) == sig
True

Codes never reach a server: they travel in the URL fragment, through the
players' own messaging apps, or pasted by hand.
"""

import hashlib
import struct

from .plain_text import words

FORMAT = 2                      # first byte of every code: FORMAT << 4 (the low bits, once flags, are 0).
#: 2 since 2026-12-06: the pages make a negotiated data channel (friend_params.DATA_CHANNEL),
#: which a page of format 1 (in-band channel) cannot meet, so its codes are refused with a reason.
KINDS = ("offer", "answer")
SETUPS = ("actpass", "active", "passive")
ROLES = ("white", "black")
CAND_TYPES = ("host", "srflx", "prflx", "relay")
TYPE_PREF = {"host": 126, "prflx": 110, "srflx": 100, "relay": 0}
FINGERPRINT_ALGS = {"sha-256": 32, "sha-384": 48, "sha-512": 64}
ALG_CODES = ("sha-256", "sha-384", "sha-512")
MAX_CANDIDATES = 8
MAX_CODE = 1200                 # characters: anything longer is not one of ours

_DIGITS = "0123456789"
_HEX = "0123456789abcdef"
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" + _DIGITS
ICE_CHARS = _ALNUM + "+/"                 # ice-ufrag and ice-pwd
HOST_CHARS = _ALNUM + ".-"                # a candidate's host name
B64URL = _ALNUM[:52] + _DIGITS + "-_"     # base64url, in digit order
_MDNS_GROUPS = (8, 4, 4, 4, 12)           # hex digits in a uuid.local name


class SignalError(ValueError):
    """A code or SDP that cannot be used; the message is for the player."""


class Candidate:
    """One UDP ICE candidate: ``Candidate('192.168.1.20', 50000, 'host')``. A value: compare, hash, don't change."""

    def __init__(self, address: str, port: int, type: str = "host"):
        self.address = address  # IPv4, IPv6, an mDNS name (uuid.local) or a host name
        self.port = port
        self.type = type        # host | srflx | prflx | relay

    def _key(self) -> tuple:
        return (self.address, self.port, self.type)

    def __eq__(self, other) -> bool:
        return isinstance(other, Candidate) and self._key() == other._key()

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Candidate({self.address!r}, {self.port!r}, {self.type!r})"


#: Signal's fields in constructor order, with their defaults where they have one.
SIGNAL_FIELDS = ("kind", "ufrag", "pwd", "fingerprint", "setup", "candidates", "alg", "room", "nonce", "created", "role")


class Signal:
    """The essentials of an offer or answer, plus the friend game's envelope.

    A value: compare with ``==``; make a changed one with ``copy(room=...)``.
    """

    def __init__(self, kind: str, ufrag: str, pwd: str, fingerprint: bytes, setup: str, candidates: tuple = (),
                 alg: str = "sha-256", room: str = "000000000000", nonce: int = 0, created: int = 0,
                 role: str = "white"):
        self.kind = kind                  # "offer" | "answer"
        self.ufrag = ufrag                # ice-ufrag: "NYOu"
        self.pwd = pwd                    # ice-pwd: "EQjwscCUBLMQkwurip5V1+FM"
        self.fingerprint = fingerprint    # DTLS certificate digest (32 bytes for sha-256)
        self.setup = setup                # "actpass" (offers) | "active" | "passive"
        self.candidates = candidates      # (Candidate, ...)
        self.alg = alg                    # fingerprint hash
        self.room = room                  # friend game room, 12 hex digits
        self.nonce = nonce                # which invite of the room this is (0..65535)
        self.created = created            # unix seconds when the code was made
        self.role = role                  # colour of the player who made this code

    def copy(self, **changes) -> "Signal":
        """This signal with some fields changed: ``sig.copy(room="0123456789ab", nonce=7)``.

        :raises TypeError: a name that is not a field.
        """
        for name in changes:
            if name not in SIGNAL_FIELDS:
                raise TypeError(f"Signal has no field {name!r}")
        return Signal(*[changes[name] if name in changes else getattr(self, name) for name in SIGNAL_FIELDS])

    def _key(self) -> tuple:
        return tuple(getattr(self, name) for name in SIGNAL_FIELDS)

    def __eq__(self, other) -> bool:
        return isinstance(other, Signal) and self._key() == other._key()

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "Signal(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in SIGNAL_FIELDS) + ")"


# ------------------------------------------------------------------ SDP text
def minimise(sdp: str, kind: str) -> Signal:
    """The essentials of a browser's SDP (only UDP candidates are kept).

    :raises SignalError: no ICE credentials, fingerprint or setup role in it.
    """
    if kind not in KINDS:
        raise SignalError(f"unknown description type {kind!r}")
    ufrag = pwd = setup = alg = None
    fp = None
    cands = []
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
                digits = parts[1].replace(":", "").lower()
                if any(ch not in _HEX for ch in digits) or len(digits) % 2:
                    raise SignalError("the connection details have a damaged fingerprint")
                fp = bytes.fromhex(digits)
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
        if not (lo <= len(value) <= hi) or not _only(value, ICE_CHARS):
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
    if not (isinstance(sig.room, str) and len(sig.room) == 12 and _only(sig.room, _HEX)):
        raise SignalError("the link names no game room")
    if not 0 <= sig.nonce < 65536 or not 0 <= sig.created < 2**32:
        raise SignalError("the link is damaged")
    if sig.role not in ROLES:
        raise SignalError("the link names no colour")


def _only(text: str, allowed: str) -> bool:
    """Every character of ``text`` is one of ``allowed``."""
    for ch in text:
        if ch not in allowed:
            return False
    return True


def _addr_kind(address: str) -> int:
    """0 IPv4, 1 IPv6, 2 mDNS uuid name, 3 other host name."""
    if _ipv4_bytes(address) is not None:
        return 0
    if _ipv6_bytes(address) is not None:
        return 1
    if _mdns_bytes(address) is not None:
        return 2
    if 1 <= len(address) <= 253 and _only(address, HOST_CHARS) and ".." not in address:
        return 3
    raise SignalError("the connection details have a bad address")


# ------------------------------------------------------------------ addresses
def _ipv4_bytes(text: str):
    """The 4 bytes of a dotted-quad IPv4 address (no leading zeros), else None."""
    parts = text.split(".")
    if len(parts) != 4:
        return None
    out = bytearray()
    for part in parts:
        if not 1 <= len(part) <= 3 or not _only(part, _DIGITS) or (len(part) > 1 and part[0] == "0"):
            return None
        value = int(part)
        if value > 255:
            return None
        out.append(value)
    return bytes(out)


def _ipv6_bytes(text: str):
    """The 16 bytes of an IPv6 address (``::`` and a trailing dotted quad allowed, no zone), else None."""
    if ":" not in text or text.count("::") > 1:
        return None
    if "::" in text:
        head, tail = text.split("::")
    else:
        head, tail = text, None
    front = _hextets(head, tail is None)
    back = _hextets(tail, True) if tail is not None else []
    if front is None or back is None:
        return None
    if tail is None:
        words = front if len(front) == 8 else None
    else:
        missing = 8 - len(front) - len(back)
        words = front + [0] * missing + back if missing >= 1 else None
    if words is None:
        return None
    return b"".join(word.to_bytes(2, "big") for word in words)


def _hextets(text: str, last: bool):
    """The 16-bit groups of one side of ``::`` (a dotted quad may end the ``last`` side), else None."""
    parts = text.split(":") if text else []
    words = []
    for k, part in enumerate(parts):
        if last and k == len(parts) - 1 and "." in part:
            quad = _ipv4_bytes(part)
            if quad is None:
                return None
            words += [quad[0] << 8 | quad[1], quad[2] << 8 | quad[3]]
        elif 1 <= len(part) <= 4 and _only(part.lower(), _HEX):
            words.append(int(part, 16))
        else:
            return None
    return words


def _mdns_bytes(text: str):
    """The 16 bytes of an mDNS candidate name (a lowercase uuid + ``.local``), else None."""
    if not text.endswith(".local"):
        return None
    groups = text[:-len(".local")].split("-")
    if tuple(len(g) for g in groups) != _MDNS_GROUPS or not all(_only(g, _HEX) for g in groups):
        return None
    return bytes.fromhex("".join(groups))


def _ipv4_text(data: bytes) -> str:
    return ".".join(str(b) for b in data)


def _ipv6_text(data: bytes) -> str:
    """RFC 5952 form, as CPython 3.11's ``ipaddress`` writes it: lowercase, the
    first longest run of two or more zero groups as ``::``."""
    words = [int.from_bytes(data[i:i + 2], "big") for i in range(0, 16, 2)]
    best_start, best_len, start = -1, 1, -1
    for i, word in enumerate(words + [1]):
        if word == 0 and start < 0:
            start = i
        elif word != 0 and start >= 0:
            if i - start > best_len:
                best_start, best_len = start, i - start
            start = -1
    text = [f"{word:x}" for word in words]
    if best_start < 0:
        return ":".join(text)
    return ":".join(text[:best_start]) + "::" + ":".join(text[best_start + best_len:])


def _mdns_text(data: bytes) -> str:
    h = data.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}.local"


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
            out += _ipv4_bytes(c.address)
        elif kind == 1:
            out += _ipv6_bytes(c.address)
        elif kind == 2:
            out += _mdns_bytes(c.address)
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
        ufrag = r.ascii(r.byte())
        pwd = r.ascii(r.byte())
        alg = ALG_CODES[r.byte()]
        fp = r.take(FINGERPRINT_ALGS[alg])
        cands = []
        for _ in range(r.byte()):
            t = r.byte()
            ctype, akind = CAND_TYPES[t & 3], (t >> 2) & 3
            if t >> 4:
                raise SignalError("unknown candidate flags")
            if akind == 0:
                addr = _ipv4_text(r.take(4))
            elif akind == 1:
                addr = _ipv6_text(r.take(16))
            elif akind == 2:
                addr = _mdns_text(r.take(16))
            else:
                addr = r.ascii(r.byte())
            (port,) = struct.unpack(">H", r.take(2))
            cands.append(Candidate(addr, port, ctype))
        if not r.done():
            raise SignalError("trailing data")
    except (IndexError, ValueError) as err:
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

    def ascii(self, n: int) -> str:
        """``n`` bytes of ASCII text. :raises ValueError: a byte above 127."""
        data = self.take(n)
        if any(b > 127 for b in data):
            raise ValueError("not ASCII")
        return data.decode("ascii")

    def done(self) -> bool:
        return self.i == len(self.data)


def encode(sig: Signal) -> str:
    """Compact URL-safe code: a format byte, then the binary form, base64url without padding.

    Not deflated (earlier versions were, when that was shorter): zlib's
    compressor and inflater differ between CPython and MicroPython, and a
    code must read the same, damaged or not, in every runtime.
    """
    return b64url_encode(bytes([FORMAT << 4]) + pack(sig))


def decode(code: str) -> Signal:
    """Inverse of ``encode``; tolerant of whitespace and line breaks from copy-paste.

    :raises SignalError: not a code of ours, damaged, or from another version.
    """
    if not isinstance(code, str):
        raise SignalError("there is no code")
    text = "".join(words(code))
    if not text:
        raise SignalError("the code is empty")
    if len(text) > MAX_CODE or not _only(text, B64URL):
        raise SignalError("that is not a game code (it has characters a code never has)")
    raw = b64url_decode(text)
    if not raw:
        raise SignalError("the code is empty")
    if raw[0] != FORMAT << 4:
        raise SignalError("the code was made by another version of the game: both reload the page and make a new link")
    return unpack(raw[1:])


def b64url_encode(data: bytes) -> str:
    """base64url (RFC 4648 section 5) without padding."""
    out = []
    for i in range(0, len(data), 3):
        chunk = data[i:i + 3]
        n = int.from_bytes(chunk + bytes(3 - len(chunk)), "big")
        for k in range(len(chunk) + 1):
            out.append(B64URL[(n >> (18 - 6 * k)) & 63])
    return "".join(out)


def b64url_decode(text: str) -> bytes:
    """Inverse of ``b64url_encode`` (bits after the last whole byte are ignored).

    :raises SignalError: a character outside base64url, or a length no code has.
    """
    if len(text) % 4 == 1:
        raise SignalError("the code is damaged or incomplete")
    out = bytearray()
    for i in range(0, len(text), 4):
        chunk = text[i:i + 4]
        n = 0
        for ch in chunk:
            k = B64URL.find(ch)
            if k < 0:
                raise SignalError("that is not a game code (it has characters a code never has)")
            n = n << 6 | k
        n <<= 6 * (4 - len(chunk))
        out += n.to_bytes(3, "big")[:len(chunk) - 1]
    return bytes(out)
