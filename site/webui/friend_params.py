"""A friend game's URL: ICE, TURN and relay parameters, and the invite's fragment (pure).

- ``ice``: ``none`` (no STUN, as the tests use) or comma-separated ``stun:``
  URLs; default :data:`DEFAULT_ICE` (public STUN).
- ``turn``: ``URL,username,credential`` of one TURN server (``turn:`` or
  ``turns:``), added to the ICE servers: the remedy where STUN alone cannot
  connect two networks (carrier-grade NAT, strict firewalls).
- ``relay``: ``none``, or comma-separated ``ws://``/``wss://`` URLs of Nostr
  relays that replace :data:`DEFAULT_RELAYS` (the only place they are listed;
  netlify.toml's ``connect-src`` allows exactly their origins, which
  tests/test_friend_relay_rules.py checks).
- The invite's fragment: ``#join=<offer code>&k=<secret>`` (``k``: the
  16-byte room secret, base64url, from which the relays' topic and key are
  derived; an invite from an older page has no ``k``).
"""

#: The game's one data channel, made alike by both pages before they connect:
#: ``negotiated`` on stream 0, so it opens on each side as soon as the SCTP
#: association is up, with no in-band open/ack handshake (DCEP). With the
#: handshake, Chromium 156 lost or held the answering page's first message (its
#: greeting) in about 1 connection of 20 on this 2-core machine (7 of 150
#: loopback pairs; ``tools/datachannel_first_messages.py``), which stalled the
#: game until the greeting watchdog remade the connection; negotiated: 0 of 250.
DATA_CHANNEL = {"ordered": True, "negotiated": True, "id": 0}
DATA_CHANNEL_LABEL = "backgammon"

DEFAULT_ICE = ["stun:stun.l.google.com:19302", "stun:stun.cloudflare.com:3478"]
DEFAULT_RELAYS = ["wss://relay.damus.io", "wss://nos.lol", "wss://relay.primal.net", "wss://relay.snort.social"]
MAX_RELAYS = 6
SECRET_CHARS = 22   # 16 bytes, base64url without padding
B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def ice_servers(param) -> list:
    """``ice`` URL parameter -> list of ICE server URLs."""
    if param is None:
        return list(DEFAULT_ICE)
    param = str(param).strip()
    if param in ("", "none", "0"):
        return []
    out = [u.strip() for u in param.split(",") if u.strip().startswith(("stun:", "stuns:"))]
    return out[:4]


def turn_server(param):
    """``turn`` URL parameter -> an RTCIceServer dict, or None; ValueError (a reason) when malformed."""
    if param is None or not str(param).strip():
        return None
    parts = [p.strip() for p in str(param).split(",")]
    if len(parts) != 3 or not parts[0].startswith(("turn:", "turns:")) or not parts[1] or not parts[2]:
        raise ValueError("the turn parameter must be turn:HOST:PORT,USERNAME,CREDENTIAL")
    return {"urls": parts[0], "username": parts[1], "credential": parts[2]}


def relay_urls(param) -> list:
    """``relay`` URL parameter -> the relays to meet on (``[]``: none, links only)."""
    if param is None:
        return list(DEFAULT_RELAYS)
    param = str(param).strip()
    if param in ("", "none", "0"):
        return []
    out = []
    for url in param.split(","):
        url = url.strip().rstrip("/")
        if url.startswith(("ws://", "wss://")) and " " not in url and url not in out:
            out.append(url)
    return out[:MAX_RELAYS]


def origin(url: str) -> str:
    """``wss://relay.example/path`` -> ``wss://relay.example`` (what a CSP source names)."""
    scheme, _, rest = url.partition("://")
    return scheme + "://" + rest.split("/", 1)[0]


def is_secret(text) -> bool:
    return isinstance(text, str) and len(text) == SECRET_CHARS and all(c in B64URL for c in text)


def parse_fragment(fragment: str):
    """``#join=CODE&k=SECRET`` -> (code or None, secret or None); a bad secret is dropped."""
    frag = fragment[1:] if fragment.startswith("#") else fragment
    code = secret = None
    for part in frag.split("&"):
        name, _, value = part.partition("=")
        if name == "join":
            code = value
        elif name == "k" and is_secret(value):
            secret = value
    return code, secret
