"""The relays of a friend game, from Python: opens ``friend-relay.mjs``'s room.

``Relays(urls, secret, on_text, on_status)``: ``await open()`` imports the
JavaScript module (only friend games load it, and it loads the vendored
nostr-tools), derives the room from the secret and connects to every relay at
once; ``send(text)`` seals and publishes a message on all of them;
``on_text(text)`` gets the other page's messages, opened; ``on_status()`` is
called when relays connect or fail (``open``, ``failed``, ``total``,
``rejected``: messages that did not open).
"""

import json

import js
from pyscript import window
from pyscript.ffi import create_proxy, to_js

try:
    from pyscript import js_import
except ImportError:  # older PyScript
    js_import = None

MODULE = "friend-relay.mjs"


class Relays:
    def __init__(self, urls: list, secret: str, on_text, on_status):
        self.urls = list(urls)
        self.secret = secret
        self.room = None
        self.status = {"open": [], "failed": [], "total": len(self.urls), "received": 0, "rejected": 0, "published": 0}
        self._on_text = on_text
        self._on_status = on_status
        self._proxies = [create_proxy(self._text), create_proxy(self._status)]
        self.closed = False

    @property
    def open_count(self) -> int:
        return len(self.status["open"])

    @property
    def all_failed(self) -> bool:
        return len(set(self.status["failed"])) >= self.status["total"] and not self.status["open"]

    async def open(self):
        url = str(js.URL.new(MODULE, window.location.href).href)
        mods = await js_import(url)
        module = mods[0]
        self.room = await module.openRoom(to_js(self.urls), self.secret, self._proxies[0], self._proxies[1])
        if self.closed:
            self.room.close()

    def _text(self, text):
        if not self.closed:
            self._on_text(str(text))

    def _status(self, text):
        try:
            self.status = json.loads(str(text))
        except ValueError:
            return
        if not self.closed:
            self._on_status()

    async def send(self, text: str) -> int:
        if self.room is None or self.closed:
            return 0
        return int(await self.room.send(text))

    def close(self):
        self.closed = True
        if self.room is not None:
            self.room.close()
