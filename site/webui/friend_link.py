"""The connection of a friend game: WebRTC data channel, links, tabs, reconnecting.

``FriendLink`` owns the ``RTCPeerConnection`` and its data channel, the invite
and reply links (``sdp`` codes), the ``BroadcastChannel`` hand-off with
``reply.js`` and the other tabs of this browser, pasted codes and reconnecting
after a lost channel; its ``meet`` (``friend_relay.RelayMeeting``) is the
relay side: the two pages meeting on Nostr relays, the invite link alone. It shows nothing itself: the panel (``friend_panel``)
draws its ``state``, ``note``, ``link``, ``code`` and ``problem``, and the game
(``friend_app.FriendUI``) gets the channel's messages through ``on_text``.

Connecting, with no server:

1. The host's page creates an ``RTCPeerConnection`` and a data channel
   (negotiated, ``friend_params.DATA_CHANNEL``: the friend's page makes the same one),
   gathers ICE candidates (non-trickle, at most ``GATHER_CAP_S``) and shows the
   invite link ``index.html?mode=friend#join=<offer code>``
   (``data-testid="invite-link"``) with Copy, Share and a QR code.
2. The friend opens it: their page answers at once and shows the reply link
   ``reply.html#r=<answer code>`` (``data-testid="reply-link"``) and the code.
3. The host opens the reply link in any tab of the same browser: ``reply.js``
   hands the code to this page over ``BroadcastChannel("bg-friend")``; or the
   host pastes the code into ``data-testid="reply-code"``.

ICE servers: the ``ice`` URL parameter (``ice=none`` for none, as the tests
do, or a comma-separated list of ``stun:`` URLs); default ``DEFAULT_ICE``.
"""

import asyncio
import json
import time

import js
from .browser import create_proxy, to_js, window

from . import relay_messages as rm
from . import sdp
from .dom import missing
from .friend_params import DATA_CHANNEL, DATA_CHANNEL_LABEL, ice_servers, relay_urls, turn_server
from .friend_relay import RelayMeeting

CHANNEL = "bg-friend"
GATHER_CAP_S = 4.0
CONNECT_TIMEOUT_S = 25.0
RETRY_AFTER_S = 12.0      # reconnecting through the relays: an answered offer and no connection by then: a new offer
ANSWER_HINT_S = 120.0
STALE_S = 6 * 3600
ANSWER_WAIT_S = 8.0       # an answer sent through the relays and no connection by then: the reply link
#: A channel open and the friend's greeting not here by then: the connection is
#: stalled (seen once in CI: Chromium kept one page's greeting in its send buffer,
#: ``bufferedAmount`` 160, for 30 s on an open channel and a connected SCTP
#: association), so it is dropped and made again, as after a lost connection.
GREETING_WAIT_S = 10.0
TURN_ADVICE = ("Where STUN alone cannot connect two networks (some mobile carriers, strict firewalls), "
               "add a TURN server to the link: turn=URL,username,credential.")
ADVICE = ("Try a new link; if it still fails, connect both devices to the same Wi-Fi, "
          "or put one of them on a phone's hotspot (some networks block direct connections). " + TURN_ADVICE)


def _js(obj):
    return to_js(obj)


def random_bytes(n: int) -> bytes:
    """``n`` bytes from the browser's cryptographic random source."""
    values = js.crypto.getRandomValues(js.Uint8Array.new(n))
    return bytes([int(values[i]) for i in range(n)])


def token_hex(n: int) -> str:
    return "".join("%02x" % b for b in random_bytes(n))


def now_s() -> float:
    """Seconds on a monotonic clock (the page's)."""
    return float(js.performance.now()) / 1000


def quote_param(text: str) -> str:
    """A URL parameter's value, with "," and ":" left readable (``ice=stun:a,stun:b``)."""
    return str(js.encodeURIComponent(text)).replace("%2C", ",").replace("%3A", ":")


class FriendLink:
    """The data channel to the friend, and how it is set up and set up again.

    ``ui`` is the friend game (``FriendUI``): ``ui.ctl`` (its session is
    connected and disconnected here), ``ui.changed()`` (redraw the panel),
    ``ui.page``, ``ui.save()``, ``ui.on_text(text)`` (a message from the
    friend), ``ui.moved_away()`` and ``ui.lost(was_connected)``.
    """

    def __init__(self, ui, params: dict):
        self.ui = ui
        self.params = params
        self.ice = ice_servers(params.get("ice"))
        self.turn = None
        try:
            self.turn = turn_server(params.get("turn"))
        except ValueError as err:
            self.note = f"The TURN server was left out: {err}."
        self.offer_fp = ""             # our pending offer's DTLS fingerprint (hex)
        self.t_open = now_s()
        self.connected_ms = None       # from this page's start to its first open channel
        self.tab = token_hex(4)
        self.pc = None
        self.dc = None
        self.gen = 0
        self.nonce = None
        self.note = ""
        self.state = "starting"       # inviting | answering | connecting | connected | lost | failed | stopped | bad-link | moved
        self.link = ""                 # the invite or reply link on show
        self.code = ""
        self.problem = ""
        self.moved = False
        self._proxies = []
        self._ack_id = None
        self.received = self.dropped = 0  # data-channel messages, and those of an older connection
        self.stalled = 0                  # connections dropped because the friend's greeting never came
        self.sent = self.unsent = 0       # messages sent, and those dropped because no channel was open
        self.trace = []                   # (ms, event): the last 40 connection set-up events, for diagnostics
        self.meet = RelayMeeting(self, relay_urls(params.get("relay")))
        self.bc = None
        try:
            self.bc = js.BroadcastChannel.new(CHANNEL)
            self.bc.onmessage = self.proxy(self._on_broadcast)
        except Exception:
            self.bc = None

    @property
    def session(self):
        return self.ui.ctl.session

    def proxy(self, fn):
        p = create_proxy(fn)
        self._proxies.append(p)
        return p

    def later(self, coro):
        return asyncio.create_task(self._guarded(coro))

    async def _guarded(self, coro):
        """Run a connection step; a failure is shown to the player, never lost."""
        try:
            await coro
        except asyncio.CancelledError:
            raise
        except Exception as err:
            js.console.error(f"friend connection: {err!r}")
            self.state = "failed"
            self.problem = f"Could not set up the connection ({type(err).__name__}: {str(err)[:120]}). {ADVICE}"
            self.ui.changed()

    def query(self, room=None, me=None) -> str:
        """``?mode=friend`` (with this game's room and side when given) and the ICE parameter."""
        q = "?mode=friend"
        if room:
            q += f"&room={room}&as={me}"
        for name in ("ice", "relay", "turn"):
            if name in self.params:
                q += f"&{name}=" + quote_param(str(self.params[name]))
        return q

    def set_url(self):
        s = self.session
        try:
            window.history.replaceState(None, "", self.query(s.room, s.me))
        except Exception:
            pass

    def invite_signal(self, code: str):
        """The offer of an invite link's code; ``sdp.SignalError`` (a reason) when unusable."""
        sig = sdp.decode(code)
        if sig.kind != "offer":
            raise sdp.SignalError("it is a reply link, not an invite: open it in the browser that made the invite")
        return sig

    def bad_link(self, err):
        self.problem = f"This invite link cannot be used: {err}. Ask your friend for a new link."
        self.state = "bad-link"

    def note_age(self, sig):
        age = time.time() - sig.created
        if age > STALE_S:
            self.note = (f"This invite link is {int(age // 3600)} hours old. If it does not connect, "
                         "ask your friend for a new one (an invite works only while their page stays open).")

    # ------------------------------------------------------------ tabs
    def claim(self):
        if self.bc is not None:
            s = self.session
            self.bc.postMessage(_js({"type": "claim", "room": s.room, "me": s.me, "tab": self.tab}))

    def _on_broadcast(self, event):
        try:
            m = json.loads(str(js.JSON.stringify(event.data)))
        except Exception:
            return
        if not isinstance(m, dict):
            return
        s = self.session if self.ui.ctl else None
        if m.get("type") == "claim" and s and m.get("room") == s.room and m.get("me") == s.me and m.get("tab") != self.tab:
            self.moved = True
            self.close_pc()
            self.meet.close()
            self.state = "moved"
            self.ui.moved_away()
        elif m.get("type") == "answer" and isinstance(m.get("code"), str):
            self.later(self._answer_from_tab(m.get("code"), m.get("id")))

    async def _answer_from_tab(self, code, req_id):
        self._ack_id = req_id
        ok, text, mine = await self.accept_answer(code)
        if mine and self.bc is not None:
            self.bc.postMessage(_js({"type": "answer-ack", "id": req_id, "ok": ok, "text": text}))
            if ok and self.state == "connected":
                self.bc.postMessage(_js({"type": "connected", "id": req_id}))

    # ------------------------------------------------------------ WebRTC
    def close_pc(self):
        self.gen += 1
        for obj in (self.dc, self.pc):
            try:
                if obj is not None:
                    obj.close()
            except Exception:
                pass
        self.dc = self.pc = None
        if self.ui.ctl is not None and self.session.connected:
            self.session.disconnect()

    def _new_pc(self):
        self.close_pc()
        cfg = {"iceServers": [{"urls": u} for u in self.ice] + ([self.turn] if self.turn else [])}
        pc = js.RTCPeerConnection.new(_js(cfg))
        self.pc = pc
        gen = self.gen
        self.trace_event(f"new pc g{gen}")
        pc.onconnectionstatechange = self.proxy(lambda e: self._on_pc_state(gen))
        return pc, gen

    async def _gather(self, pc):
        t0 = now_s()
        while str(pc.iceGatheringState) != "complete" and now_s() - t0 < GATHER_CAP_S:
            await asyncio.sleep(0.05)

    @staticmethod
    def _channel(pc):
        """The game's data channel (``friend_params.DATA_CHANNEL``: negotiated,
        made the same way by both pages before they connect)."""
        return pc.createDataChannel(DATA_CHANNEL_LABEL, _js(dict(DATA_CHANNEL)))

    def _wire(self, dc, gen):
        self.trace_event(f"wire g{gen}/{self.gen} {dc.readyState}")
        dc.onopen = self.proxy(lambda e: self._on_open(dc, gen))
        dc.onmessage = self.proxy(lambda e: self._on_message(e.data, gen, dc))
        dc.onclose = self.proxy(lambda e: self._on_close(gen))
        if str(dc.readyState) == "open":
            self._on_open(dc, gen)

    def _base(self, page: str) -> str:
        return str(js.URL.new(page, window.location.href).href).split("?")[0].split("#")[0]

    async def invite(self, reconnect: bool = False):
        """Host side (or whoever makes the new link to reconnect): offer + invite link."""
        if self.moved:
            return
        self.link = ""
        pc, gen = self._new_pc()
        self._wire(self._channel(pc), gen)
        await pc.setLocalDescription(await pc.createOffer())
        await self._gather(pc)
        if gen != self.gen:
            return
        s = self.session
        self.nonce = int.from_bytes(random_bytes(2), "big")
        sig = sdp.minimise(str(pc.localDescription.sdp), "offer").copy(
            room=s.room, nonce=self.nonce, created=int(time.time()), role=s.me)
        self.code = sdp.encode(sig)
        self.offer_fp = _hex(sig.fingerprint)
        self.meet.offered_to = None
        self.link = self._base("index.html") + self.query() + "#join=" + self.code
        if self.meet.secret:
            self.link += "&k=" + self.meet.secret
        self.state = "inviting"
        self.problem = ""
        self.meet.offer_ready()
        if not sig.candidates:
            self.problem = "This device found no network address to offer: check that it is online."
        self.ui.changed()
        self.ui.page.update()
        self.ui.save()

    async def answer(self, sig, relay_to=None):
        """Answer an offer: sent back through the relays to page ``relay_to``, or
        (none, or no connection soon after) shown as the reply link."""
        pc, gen = self._new_pc()
        self._wire(self._channel(pc), gen)
        await pc.setRemoteDescription(_js({"type": "offer", "sdp": sdp.rebuild(sig)}))
        await pc.setLocalDescription(await pc.createAnswer())
        await self._gather(pc)
        if gen != self.gen:
            return
        s = self.session
        asig = sdp.minimise(str(pc.localDescription.sdp), "answer").copy(
            room=sig.room, nonce=sig.nonce, created=int(time.time()), role=s.me)
        self.code = sdp.encode(asig)
        self.link = self._base("reply.html") + "#r=" + self.code
        if relay_to is not None:
            self.state = "connecting"
            self.meet.send(rm.make("answer", self.tab, s.me, s.room, relay_to, code=self.code, bind=_hex(sig.fingerprint)))
            self.ui.changed()
            await asyncio.sleep(ANSWER_WAIT_S)
            if gen != self.gen or self.state != "connecting":
                return
            if self.meet.retry():      # reconnecting: a new offer replaces this attempt
                return
            self.meet.relay_note = (f"The relays brought no connection within {int(ANSWER_WAIT_S)} s, so connect "
                               "the manual way: send your friend this reply link.")
        self.state = "answering"
        self.ui.changed()
        self.ui.page.update()
        self.ui.save()
        await asyncio.sleep(ANSWER_HINT_S)
        if gen == self.gen and self.state == "answering":
            self.note = ("Still waiting for your friend to open your reply link. If their page was closed or "
                         "they made a newer link, ask them for a new invite link.")
            self.ui.changed()

    async def accept_answer(self, code) -> tuple:
        """Apply a reply code; (ok, text for the player, whether it was for this page)."""
        try:
            sig = sdp.decode(code)
        except sdp.SignalError as err:
            return False, f"That reply code cannot be used: {err}.", False
        s = self.session
        if sig.kind != "answer":
            return False, "That is an invite link, not a reply: send it to your friend instead.", False
        if sig.room != s.room or sig.role == s.me:
            return False, "That reply belongs to another game.", False
        if sig.nonce != self.nonce or self.pc is None:
            return False, "That reply is for an older invite link: send your friend the newest link and use their new reply.", True
        if self.state != "inviting" or str(self.pc.signalingState) != "have-local-offer":
            return False, "This invite has already been answered: make a new link to connect again.", True
        gen = self.gen
        self.state = "connecting"      # before awaiting: the channel may open before this coroutine resumes
        self.later(self._watch_connect(gen))
        try:
            await self.pc.setRemoteDescription(_js({"type": "answer", "sdp": sdp.rebuild(sig)}))
        except Exception as err:
            self.state = "inviting"
            return False, f"Your browser refused that reply ({str(err)[:100]}): make a new link.", True
        if self.state == "connecting":
            self.ui.changed()
        return True, "Connecting…", True

    async def paste_code(self, code: str):
        ok, text, _ = await self.accept_answer(code)
        if not ok:
            self.problem = text
        self.ui.changed()

    async def _watch_connect(self, gen):
        t0 = now_s()
        limit = RETRY_AFTER_S if self.meet.can_retry() else CONNECT_TIMEOUT_S
        while now_s() - t0 < limit:
            await asyncio.sleep(0.25)
            if gen != self.gen or self.state != "connecting":
                return
        if self.meet.retry():
            return
        self.state = "failed"
        self.problem = f"Could not connect to your friend: the devices could not reach each other. {ADVICE}"
        self.ui.changed()

    def _on_pc_state(self, gen):
        if gen != self.gen or self.pc is None:
            return
        st = str(self.pc.connectionState)
        self.trace_event(f"pc {st}")
        if st == "disconnected" and self.state == "connected":
            self.note = "Connection interrupted: reconnecting…"
            self.ui.changed()
        elif st == "connected" and self.note.startswith("Connection interrupted"):
            self.note = ""
            self.ui.changed()
        elif st == "failed":
            if self.state == "connected":
                self._on_close(gen)
            elif self.state in ("connecting", "answering"):
                self.state = "failed"
                self.problem = f"Could not connect to your friend. {ADVICE}"
                self.ui.changed()

    def _on_open(self, dc, gen):
        self.trace_event(f"open g{gen}/{self.gen} {dc.readyState} mine={self.dc is not None}")
        if gen != self.gen or self.dc is not None:
            return
        self.dc = dc
        self.state = "connected"
        if self.connected_ms is None:
            self.connected_ms = self.elapsed_ms()
        self.note = ""
        self.problem = ""
        self.meet.on_connected()
        self.session.connect(self.send)
        self.later(self._watch_greeting(gen))
        if self.bc is not None and self._ack_id:
            self.bc.postMessage(_js({"type": "connected", "id": self._ack_id}))
        self.ui.changed()
        self.ui.page.update()
        self.ui.save()

    def send(self, text: str):
        if self.dc is not None and str(self.dc.readyState) == "open":
            self.dc.send(text)
            self.sent += 1
        else:
            self.unsent += 1
            self.trace_event(f"unsent {self.dc.readyState if self.dc is not None else None}")

    def elapsed_ms(self) -> int:
        """Milliseconds since this page's connection began."""
        return int((now_s() - self.t_open) * 1000)

    def trace_event(self, event: str):
        """Remember a connection event (the last 40) for the test hook's state."""
        self.trace.append((int(now_s() * 1000) % 10_000_000, event))
        if len(self.trace) > 40:
            del self.trace[0]

    def _on_message(self, data, gen, dc=None):
        self.received += 1
        if self.received <= 3:
            self.trace_event(f"message g{gen}/{self.gen} {str(data)[:12]}")
        if gen != self.gen:
            self.dropped += 1
            return
        if self.dc is None and dc is not None and str(dc.readyState) == "open":
            # the friend's greeting overtook this channel's open event: open it
            # first, or the session (not yet connected) would refuse the greeting
            self._on_open(dc, gen)
        self.ui.on_text(data if isinstance(data, str) else None)

    async def _watch_greeting(self, gen):
        """The friend's greeting must follow an open channel within ``GREETING_WAIT_S``;
        if it does not, drop this connection and make a new one (the friend's page
        sees the channel close and does the same)."""
        await asyncio.sleep(GREETING_WAIT_S)
        s = self.session
        if gen != self.gen or self.state != "connected" or s.peer_hello is not None or s.stopped:
            return
        self.trace_event(f"no greeting g{gen}: reconnecting")
        self.stalled += 1
        self.close_pc()
        self._lost("connected")

    def _on_close(self, gen):
        self.trace_event(f"close g{gen}/{self.gen}")
        if gen != self.gen:
            return
        was = self.state
        self.session.disconnect()
        self.dc = None
        self._lost(was)

    def _lost(self, was: str):
        """The channel is gone (``was``: the state before): reconnect, unless the game is over or moved."""
        if self.moved:
            return
        if self.session.stopped:
            self.state = "stopped"
            self.ui.changed()
            return
        self.state = "lost"
        self.link = ""
        self.ui.lost(was == "connected")
        self.later(self.invite(reconnect=True))

    def close(self):
        """Leave the friend game: no connection, no relays, no reconnecting."""
        self.close_pc()
        self.moved = True
        self.meet.close()

    def state_for_test(self) -> dict:
        """The connection's part of the test hook's ``state()``."""
        pc, dc = self.pc, self.dc
        return {"state": self.state, "received": self.received, "dropped": self.dropped,
                "dc": str(dc.readyState) if dc is not None else None,
                "pc": str(pc.connectionState) if pc is not None else None,
                "sent": self.sent, "unsent": self.unsent,
                "buffered": int(dc.bufferedAmount) if dc is not None else None,
                "sctp": str(pc.sctp.state) if pc is not None and not missing(pc.sctp) else None,
                "trace": list(self.trace), "problem": self.problem,
                "relay": self.meet.relay_state, "tab": self.tab, "peer_tab": self.meet.peer_tab,
                "relays": self.meet.relays.status if self.meet.relays is not None else None,
                "relay_ignored": self.meet.relay_ignored, "stalled": self.stalled,
                "connected_ms": self.connected_ms}


def _hex(data: bytes) -> str:
    return "".join("%02x" % b for b in data)
