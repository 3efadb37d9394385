"""The relays of a friend game: how the two pages meet there, and the room itself.

``RelayMeeting``: the relay side of the connection (``friend_link.FriendLink``
owns one as ``meet``): joins the room of the invite's secret, says ``hello``,
sends this page's offer to the page that asked, answers an offer, refuses a
third page (``full``), and falls back to the manual links, with a sentence
why, when no relay answers (the rules are ``relay_messages``, pure).

``Relays(urls, secret, on_text, on_status)``: ``await open()`` imports the
JavaScript module (only friend games load it, and it loads the vendored
nostr-tools), derives the room from the secret and connects to every relay at
once; ``send(text)`` seals and publishes a message on all of them;
``on_text(text)`` gets the other page's messages, opened; ``on_status()`` is
called when relays connect or fail (``open``, ``failed``, ``total``,
``rejected``: messages that did not open).
"""

import asyncio
import json

import js
from .browser import create_proxy, js_import, to_js, window

from . import relay_messages as rm
from . import sdp

MODULE = "friend-relay.mjs"
RELAY_WAIT_S = 5.0        # no relay open by then: the links the manual way
OFFER_WAIT_S = 6.0        # the friend's page sent no offer by then: the links the manual way
FULL_RETRIES = 15         # a page with the game, refused: tries again every 2 s (the other page may not yet know
                          # the old channel is gone: a browser notices a vanished peer within about 30 s)
RETRIES = 3               # reconnecting through the relays and an attempt brought no connection: a new offer, this often


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
        module = await js_import(url)
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


class RelayMeeting:
    """The relay side of a friend game's connection ``link`` (a ``FriendLink``)."""

    def __init__(self, link, urls: list):
        self.link = link
        self.relay_list = list(urls)
        self.secret = None             # the room's secret (the invite's k=): the relays' topic and key
        self.relays = None
        self.relay_state = "off"       # off | opening | open | down
        self.relay_note = ""           # why the links work the manual way, when they do
        self.peer_tab = None           # the page we connect with through the relays
        self.offered_to = None         # the page our pending offer was sent to
        self.waiting = None            # a page that said hello while our offer was being made
        self.link_sig = None           # guest: the offer in the invite link, for the manual way
        self.has_saved = False         # this page had the game saved (a refused hello is tried again)
        self.full_tries = 0
        self.retries = 0               # new offers made because an attempt to reconnect brought no connection
        self.answered = set()          # (page, nonce) of every offer answered: never answered twice
        self.relay_ignored = 0         # relay messages that opened but were not for this page

    def close(self):
        if self.relays is not None:
            self.relays.close()
            self.relays = None
            self.relay_state = "off"

    def start(self, secret, saved: bool = False) -> bool:
        """Meet the friend's page on the relays (no relays, or no secret: the links only)."""
        self.secret = secret
        self.has_saved = saved
        if not secret or not self.relay_list:
            self.relay_state = "off"
            return False
        self.relay_state = "opening"
        self.relays = Relays(self.relay_list, secret, self._on_relay_text, self._on_relay_status)
        self.link.later(self._open_relays())
        self.link.later(self._relay_deadline())
        return True

    async def _open_relays(self):
        relays = self.relays
        try:
            await relays.open()
        except Exception as err:
            js.console.warn(f"friend relays: {err!r}")
            self._relays_down("the relay code could not be loaded")

    async def _relay_deadline(self):
        await asyncio.sleep(RELAY_WAIT_S)
        if self.relay_state == "opening":
            self._relays_down(f"none answered within {int(RELAY_WAIT_S)} s")

    def _manual_why(self, why: str) -> str:
        if self.link.state == "joining":
            return (f"The relays could not be reached ({why}: offline, or a network that blocks them), so connect "
                    "the manual way: send your friend the reply link below.")
        return (f"The relays could not be reached ({why}: offline, or a network that blocks them), so this link "
                "works the manual way: your friend opens it and sends you back a reply link.")

    def _relays_down(self, why: str):
        if self.relay_state in ("down", "off"):
            return
        self.relay_state = "down"
        self.relay_note = self._manual_why(why)
        self.link.trace_event(f"relays down: {why}")
        if self.link.state == "joining":
            self._fallback()
        self.link.ui.changed()

    def _on_relay_status(self):
        r = self.relays
        if r is None:
            return
        if r.open_count and self.relay_state in ("opening", "down"):
            self.relay_state = "open"
            self.link.trace_event(f"relays open {r.open_count}/{r.status['total']} at {self.link.elapsed_ms()} ms")
            if self.link.state != "answering":
                self.relay_note = ""
            self._hello()
            self.link.ui.changed()
        elif r.all_failed and self.relay_state == "opening":
            self._relays_down("every relay refused the connection")
        elif not r.open_count and self.relay_state == "open":
            self._relays_down("every relay closed the connection")

    def send(self, text: str):
        if self.relays is not None and self.relay_state == "open":
            self.link.later(self.relays.send(text))

    def _hello(self):
        if self.relay_state != "open" or self.link.moved or self.link.state in ("full", "stopped", "bad-link"):
            return
        s = self.link.session
        self.send(rm.make("hello", self.link.tab, s.me, s.room, saved=self._knows_game()))
        if self.link.state == "joining":
            self.link.later(self._offer_deadline(self.full_tries))

    def _knows_game(self) -> bool:
        """This page has this game: saved here, it has met the friend, or it has had a
        channel open to the friend's page (a connection dropped before the friend's
        greeting came: ``GREETING_WAIT_S``)."""
        return self.has_saved or self.link.session.peer_name is not None or self.link.connected_ms is not None

    async def _offer_deadline(self, tries: int):
        await asyncio.sleep(OFFER_WAIT_S)
        if self.link.state == "joining" and self.full_tries == tries:
            self.relay_note = (f"Your friend's page did not answer through the relays within {int(OFFER_WAIT_S)} s "
                               "(it must stay open), so connect the manual way: send your friend the reply link below.")
            self._fallback()

    def _fallback(self):
        """Guest: the invite link's own offer, answered the manual way (the reply link)."""
        if self.link_sig is not None and self.link.state == "joining":
            self.link.state = "starting"
            self.link.later(self.link.answer(self.link_sig))
            self.link.ui.changed()

    def offer_ready(self):
        """Our new offer is made: send it to a page that asked, or say hello."""
        if self.relay_state != "open":
            return
        if self.waiting:
            tab, self.waiting = self.waiting, None
            self._send_offer(tab)
        else:
            self._hello()

    def _send_offer(self, tab: str):
        s = self.link.session
        self.offered_to = tab
        self.send(rm.make("offer", self.link.tab, s.me, s.room, tab, code=self.link.code))

    def _on_relay_text(self, text):
        if self.link.moved or self.link.ui.ctl is None:
            return
        s = self.link.session
        try:
            msg = rm.parse(text, s.room, s.me, self.link.tab)
        except rm.RelayMessageError as err:
            self.relay_ignored += 1
            self.link.trace_event(f"relay: {err}")
            return
        kind, sender = msg["t"], msg["from"]
        self.link.trace_event(f"relay {kind} from {sender}")
        if kind == "hello":
            ready = self.link.state == "inviting" and self.link.pc is not None and str(self.link.pc.signalingState) == "have-local-offer"
            what = rm.on_hello(self.link.state, sender, self.peer_tab, ready, s.peer_name is not None, msg["saved"])
            if what == "full":
                self.send(rm.make("full", self.link.tab, s.me, s.room, sender))
            elif what == "offer":
                self._send_offer(sender)
            elif what == "wait":
                self.waiting = sender
        elif kind == "offer":
            try:
                sig = sdp.decode(msg["code"])
            except sdp.SignalError:
                return
            if sig.kind != "offer" or sig.room != s.room or sig.role == s.me:
                return
            fresh = (sender, sig.nonce) not in self.answered
            if not rm.take_offer(s.me, self.link.state, sender, self.offered_to, self.peer_tab, fresh):
                return
            self.answered.add((sender, sig.nonce))
            self.peer_tab = sender
            self.relay_note = ""
            self.link.state = "connecting"
            self.link.later(self.link.answer(sig, relay_to=sender))
        elif kind == "answer":
            if sender != self.offered_to or msg["bind"] != self.link.offer_fp:
                self.link.trace_event("relay answer to another offer: ignored")
                return
            self.link.later(self._relay_answer(sender, msg["code"]))
        elif kind == "full" and self.link.state not in ("connected", "connecting"):
            if self._knows_game() and self.full_tries < FULL_RETRIES:
                self.full_tries += 1        # the friend's page may not yet know the old channel is gone
                self.link.later(self._hello_later(2.0))
                return
            self.link.close_pc()
            self.link.state = "full"
            self.link.link = ""
            self.link.problem = ("This game is already on between two other players, so this link cannot join it: "
                            "the room is full. Ask your friend for a new invite link to play.")
            self.link.ui.ctl.say("The room is full: this game is already on between two other players.")
            self.link.ui.changed()
            self.link.ui.page.update()

    def on_connected(self):
        """The channel opened: a later lost connection gets its retries afresh."""
        self.retries = 0

    def can_retry(self) -> bool:
        """Whether an attempt that brings no connection is made again through the relays."""
        return (self.relay_state == "open" and self._knows_game() and self.peer_tab is not None
                and self.retries < RETRIES and not self.link.moved)

    def retry(self) -> bool:
        """Reconnecting, and this attempt brought no connection (or only half of one: one
        side's channel open, the other's gone): make a new offer and send it to the
        same page, which takes it in place of the attempt (``rm.take_offer``)."""
        if not self.can_retry():
            return False
        self.retries += 1
        self.waiting = self.peer_tab
        self.link.trace_event(f"retry {self.retries} through the relays")
        self.link.later(self.link.invite(reconnect=True))
        return True

    async def _hello_later(self, delay: float):
        await asyncio.sleep(delay)
        if self.link.state in ("joining", "inviting", "answering", "lost"):
            self._hello()

    async def _relay_answer(self, sender: str, code: str):
        ok, text, _ = await self.link.accept_answer(code)
        self.link.trace_event(f"relay answer: {text}")
        if ok:
            self.peer_tab = sender

