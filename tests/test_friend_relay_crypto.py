"""The sealing of signalling messages on the relays (site/friend-crypto.mjs), run
under Node's Web Crypto, checked against an independent implementation
(``cryptography``'s HKDF and AES-GCM):

- the topic and key derive from the secret as documented (HKDF-SHA-256, salt
  "bg-friend-relay-v1", info "topic" / "aes-256-gcm");
- seal -> unseal round trip; Python opens what JavaScript sealed and the other
  way round;
- a wrong secret, a changed byte, a different topic (additional data), a
  truncated or non-base64url text: refused with a clear error, never garbage.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULE = ROOT / "site" / "friend-crypto.mjs"

hkdf_mod = pytest.importorskip("cryptography.hazmat.primitives.kdf.hkdf")
from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # noqa: E402

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node (it runs MicroPython for the other tests too)")

SCRIPT = """
import * as c from %s;
const input = JSON.parse(process.argv[process.argv.length - 1]);
const out = [];
for (const step of input) {
  try {
    const room = await c.deriveRoom(step.secret);
    if (step.op === "derive") out.push({ok: true, topic: room.topic});
    else if (step.op === "seal") out.push({ok: true, sealed: await c.seal(room, step.text)});
    else if (step.op === "unseal") out.push({ok: true, text: await c.unseal(step.topic ? {topic: step.topic, key: room.key} : room, step.sealed)});
    else if (step.op === "roundtrip") out.push({ok: true, text: await c.unseal(room, await c.seal(room, step.text))});
  } catch (e) { out.push({ok: false, error: String(e.message || e)}); }
}
console.log(JSON.stringify(out));
"""


def run(steps: list) -> list:
    script = SCRIPT % json.dumps(MODULE.as_uri())
    result = subprocess.run([NODE, "--input-type=module", "-e", script, json.dumps(steps)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hkdf(secret: bytes, info: bytes) -> bytes:
    return hkdf_mod.HKDF(algorithm=hashes.SHA256(), length=32, salt=b"bg-friend-relay-v1", info=info).derive(secret)


SECRET = bytes(range(16))
OTHER = bytes(range(1, 17))


def test_topic_and_key_derive_from_the_secret_as_documented():
    [derived] = run([{"op": "derive", "secret": b64u(SECRET)}])
    assert derived == {"ok": True, "topic": hkdf(SECRET, b"topic").hex()}
    [other] = run([{"op": "derive", "secret": b64u(OTHER)}])
    assert other["topic"] != derived["topic"]


def test_round_trip_and_both_directions_against_an_independent_aes_gcm():
    text = json.dumps({"t": "offer", "code": "x" * 300, "name": "Zoë ♥"})
    topic = hkdf(SECRET, b"topic").hex()
    key = AESGCM(hkdf(SECRET, b"aes-256-gcm"))
    rt, sealed = run([{"op": "roundtrip", "secret": b64u(SECRET), "text": text},
                      {"op": "seal", "secret": b64u(SECRET), "text": text}])
    assert rt == {"ok": True, "text": text}
    raw = unb64u(sealed["sealed"])
    assert text.encode() not in raw and len(raw) == 12 + len(text.encode()) + 16
    assert key.decrypt(raw[:12], raw[12:], topic.encode()).decode() == text      # JS sealed, Python opens
    iv = os.urandom(12)
    mine = b64u(iv + key.encrypt(iv, text.encode(), topic.encode()))
    [opened] = run([{"op": "unseal", "secret": b64u(SECRET), "sealed": mine}])   # Python sealed, JS opens
    assert opened == {"ok": True, "text": text}
    # two seals of the same text differ (a fresh IV each time)
    again = run([{"op": "seal", "secret": b64u(SECRET), "text": text}])[0]["sealed"]
    assert again != sealed["sealed"]


def test_a_wrong_secret_or_a_changed_message_fails_cleanly():
    [sealed] = run([{"op": "seal", "secret": b64u(SECRET), "text": "hello"}])
    good = sealed["sealed"]
    raw = bytearray(unb64u(good))
    raw[20] ^= 1
    changed = b64u(bytes(raw))
    results = run([
        {"op": "unseal", "secret": b64u(OTHER), "sealed": good},            # another link's secret
        {"op": "unseal", "secret": b64u(SECRET), "sealed": changed},        # one bit changed
        {"op": "unseal", "secret": b64u(SECRET), "sealed": good, "topic": "00" * 32},   # moved to another topic
        {"op": "unseal", "secret": b64u(SECRET), "sealed": good[:30]},      # truncated
        {"op": "unseal", "secret": b64u(SECRET), "sealed": "not base64!"},
        {"op": "derive", "secret": b64u(SECRET[:8])},                       # a short secret
        {"op": "unseal", "secret": b64u(SECRET), "sealed": good},           # and the real one still opens
    ])
    for r in results[:5]:
        assert r["ok"] is False and "cannot be opened" in r["error"], r
    assert results[5]["ok"] is False and "16 bytes" in results[5]["error"]
    assert results[6] == {"ok": True, "text": "hello"}
