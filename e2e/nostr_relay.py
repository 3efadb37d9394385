"""A real Nostr relay on loopback for the friend-game tests, and a meddling proxy.

- :func:`start_relay`: PyPI ``nostr-relay`` (pinned in requirements-dev.txt)
  as a subprocess, ``nostr-relay -c CONFIG serve``, sqlite storage in a
  temporary folder, on a free port; returns ``(process, "ws://127.0.0.1:PORT")``.
- :class:`Proxy`: a WebSocket proxy between the pages and that relay, in a
  thread. ``mode="meddle"``: every event the relay sends a page arrives with
  company: first a copy whose content was changed (re-signed with the proxy's
  own key, so that it passes the Nostr signature check and reaches the page's
  decryption), then a copy carrying the content of an *earlier* message
  (re-signed: a replay under a new event id), then the event itself, twice;
  and every new subscription first gets every event seen so far (a replay of
  the whole history). ``mode="tamper"``: pages get only the changed copies.
  ``seen`` counts what it forwarded and forged.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

CONFIG = """\
DEBUG: false
relay_name: backgammon test relay
storage:
  sqlalchemy.url: sqlite+aiosqlite:///{db}
  num_concurrent_reqs: 4
  num_concurrent_adds: 1
  validators:
    - nostr_relay.validators.is_not_too_large
    - nostr_relay.validators.is_signed
verification:
  nip05_verification: disabled
gunicorn:
  bind: 127.0.0.1:{port}
  workers: 1
  loglevel: warning
  reload: false
authentication:
  enabled: false
message_timeout: 1800
subscription_limit: 32
max_limit: 6000
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, timeout: float = 30.0) -> bool:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.1)
    return False


def relay_command() -> str | None:
    here = Path(sys.executable).parent / "nostr-relay"
    return str(here) if here.is_file() else shutil.which("nostr-relay")


def start_relay(folder: Path):
    cmd = relay_command()
    if cmd is None:
        raise RuntimeError("nostr-relay is not installed: pip install -r requirements-dev.txt")
    port = free_port()
    config = folder / "relay.yaml"
    config.write_text(CONFIG.format(db=folder / "relay.sqlite3", port=port))
    log = open(folder / "relay.log", "wb")
    proc = subprocess.Popen([cmd, "-c", str(config), "serve"], cwd=folder, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    if not _wait_port(port):
        proc.kill()
        raise RuntimeError(f"nostr-relay did not start: {(folder / 'relay.log').read_text()[-2000:]}")
    return proc, f"ws://127.0.0.1:{port}"


def stop(proc) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


# --------------------------------------------------------------------------- the proxy
def _sign(event: dict, key) -> dict:
    """``event`` (kind, tags, content, created_at) signed by ``key`` (a coincurve PrivateKey), NIP-01."""
    ev = {k: event[k] for k in ("created_at", "kind", "tags", "content")}
    ev["pubkey"] = key.public_key_xonly.format().hex()
    ser = json.dumps([0, ev["pubkey"], ev["created_at"], ev["kind"], ev["tags"], ev["content"]],
                     separators=(",", ":"), ensure_ascii=False)
    ev["id"] = hashlib.sha256(ser.encode()).hexdigest()
    ev["sig"] = key.sign_schnorr(bytes.fromhex(ev["id"])).hex()
    return ev


def _changed(content: str) -> str:
    """The same length of base64url, one character in the middle changed."""
    i = len(content) // 2
    return content[:i] + ("A" if content[i] != "A" else "B") + content[i + 1:]


class Proxy:
    def __init__(self, upstream: str, mode: str = "meddle"):
        from coincurve import PrivateKey

        self.upstream = upstream
        self.mode = mode
        self.key = PrivateKey()
        self.history: list[dict] = []
        self.seen = {"forwarded": 0, "changed": 0, "replayed": 0}
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}"
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="relay-proxy")
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the relay proxy did not start")

    def _run(self):
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._serve())

    async def _serve(self):
        import websockets

        self._stop = asyncio.Event()
        async with websockets.serve(self._client, "127.0.0.1", self.port):
            self._ready.set()
            await self._stop.wait()

    def close(self):
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(5)

    async def _client(self, page):
        import websockets

        async with websockets.connect(self.upstream) as relay:
            async def up():
                async for text in page:
                    msg = json.loads(text)
                    if msg[0] == "REQ" and self.mode == "meddle":
                        for old in list(self.history):      # replay everything seen so far
                            self.seen["replayed"] += 1
                            await page.send(json.dumps(["EVENT", msg[1], old]))
                    await relay.send(text)

            async def down():
                async for text in relay:
                    msg = json.loads(text)
                    if msg[0] != "EVENT":
                        await page.send(text)
                        continue
                    sub, event = msg[1], msg[2]
                    changed = _sign({**event, "content": _changed(event["content"])}, self.key)
                    self.seen["changed"] += 1
                    await page.send(json.dumps(["EVENT", sub, changed]))
                    if self.mode == "tamper":
                        continue
                    if self.history:
                        old = self.history[0]
                        self.seen["replayed"] += 1
                        await page.send(json.dumps(["EVENT", sub, _sign({**event, "content": old["content"]}, self.key)]))
                    self.seen["forwarded"] += 1
                    await page.send(text)
                    await page.send(text)
                    self.history.append(event)

            tasks = [asyncio.ensure_future(up()), asyncio.ensure_future(down())]
            try:
                await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for t in tasks:
                    t.cancel()
