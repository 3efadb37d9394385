"""Friend games in the browser: WebRTC data channel, invite/reply links, storage.

The browser layer of a game against a friend on another device (the pure
parts are ``friend_session``, ``friend_controller``, ``sdp``, ``fair_dice``,
``qr``). ``app.py`` hands the page to ``FriendUI`` when the URL says
``mode=friend`` or the player picks "A friend" in the New game form.

Connecting, with no server:

1. The host's page creates an ``RTCPeerConnection`` and a data channel,
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

Test hook (``window.bgFriendTest``): ``choose()`` picks a play for this page's
turn and makes its moves through the controller, exactly as clicks would
(Done stays with the UI); ``sendRaw(text, numbered)`` puts raw text on the
data channel (tamper tests); ``state()``.
"""

import asyncio
import json
import time

import js
from pyscript import document, window
from pyscript.ffi import create_proxy, to_js

from engine import other, to_absolute

from . import qr, sdp
from .controller import play_frames
from .dom import missing
from .fallback_player import fallback_choice
from .friend_controller import FriendController
from .friend_protocol import ProtocolError, clean_name
from .friend_session import FriendSession
from .modes import cap

STORE_KEY = "bg.friend"
STORE_VERSION = 1
KEEP_GAMES = 6
CHANNEL = "bg-friend"
DEFAULT_ICE = ["stun:stun.l.google.com:19302", "stun:stun.cloudflare.com:3478"]
GATHER_CAP_S = 4.0
CONNECT_TIMEOUT_S = 25.0
ANSWER_HINT_S = 120.0
STALE_S = 6 * 3600
ADVICE = ("Try a new link; if it still fails, connect both devices to the same Wi-Fi, "
          "or put one of them on a phone's hotspot (some networks block direct connections).")


def _js(obj):
    return to_js(obj)


def _random_bytes(n: int) -> bytes:
    """``n`` bytes from the browser's cryptographic random source."""
    values = js.crypto.getRandomValues(js.Uint8Array.new(n))
    return bytes([int(values[i]) for i in range(n)])


def token_hex(n: int) -> str:
    return "".join("%02x" % b for b in _random_bytes(n))


def _now_s() -> float:
    """Seconds on a monotonic clock (the page's)."""
    return float(js.performance.now()) / 1000


def quote_param(text: str) -> str:
    """A URL parameter's value, with "," and ":" left readable (``ice=stun:a,stun:b``)."""
    return str(js.encodeURIComponent(text)).replace("%2C", ",").replace("%3A", ":")


def ice_servers(param) -> list:
    """``ice`` URL parameter -> list of ICE server URLs."""
    if param is None:
        return list(DEFAULT_ICE)
    param = str(param).strip()
    if param in ("", "none", "0"):
        return []
    out = [u.strip() for u in param.split(",") if u.strip().startswith(("stun:", "stuns:"))]
    return out[:4]


# ------------------------------------------------------------------ storage
def load_store(text) -> dict:
    try:
        data = json.loads(text) if isinstance(text, str) and text else {}
    except ValueError:
        data = {}
    if not isinstance(data, dict) or data.get("v") != STORE_VERSION or not isinstance(data.get("games"), dict):
        return {"v": STORE_VERSION, "games": {}}
    return data


def _el(tag, text=None, **attrs):
    el = document.createElement(tag)
    if text is not None:
        el.textContent = text
    for k, v in attrs.items():
        el.setAttribute(k.rstrip("_").replace("_", "-"), str(v))
    return el


class FriendUI:
    """A game against a friend on another device, for the game page (``app.GamePage``)."""

    friend = True

    def __init__(self, page, params: dict):
        self.page = page
        self.params = params
        self.ice = ice_servers(params.get("ice"))
        self.tab = token_hex(4)
        self.pc = None
        self.dc = None
        self.gen = 0
        self.nonce = None
        self.state = "starting"       # inviting | answering | connecting | connected | lost | failed | stopped | bad-link | moved
        self.note = ""
        self.link = ""                 # the invite or reply link on show
        self.code = ""
        self.problem = ""
        self.moved = False
        self._proxies = []
        self._qr_for = None
        self._ack_id = None
        self.chat_lines = []           # [(who, text)]: this connection's chat, plain text
        self.received = self.dropped = 0  # data-channel messages, and those of an older connection
        self.sent = self.unsent = 0       # messages sent, and those dropped because no channel was open
        self.trace = []                   # (ms, event): the last 40 connection set-up events, for diagnostics
        self._panel_proxies = []
        self._drawn = None
        self.panel = self._make_panel()
        document.body.classList.add("friend-game")
        self.bc = None
        try:
            self.bc = js.BroadcastChannel.new(CHANNEL)
            self.bc.onmessage = self._proxy(self._on_broadcast)
        except Exception:
            self.bc = None
        self._install_test_hook()
        self.ctl = self._start()

    # ------------------------------------------------------------ set-up
    def _proxy(self, fn):
        p = create_proxy(fn)
        self._proxies.append(p)
        return p

    def _name(self) -> str:
        return clean_name(self.page.store.name(), "")

    def _start(self) -> FriendController:
        frag = str(window.location.hash or "")
        code = None
        if frag.startswith("#join="):
            code = frag[len("#join="):]
        if code is not None:
            return self._start_guest(code)
        room = str(self.params.get("room") or "")
        me = str(self.params.get("as") or "")
        saved = self._load(room, me) if room and me in ("white", "black") else None
        if saved is not None:
            ctl = saved
            self.ctl = ctl
            ctl.say("Friend game restored. Reconnecting: send your friend the new link below, or open theirs.")
            self._claim()
            self._later(self.invite(reconnect=True))
            return ctl
        session = FriendSession("white", token_hex(6), self._name())
        ctl = FriendController(session)
        self.ctl = ctl
        ctl.say("Making an invite link for your friend…")
        self._set_url()
        self._claim()
        self._later(self.invite())
        return ctl

    def _start_guest(self, code: str) -> FriendController:
        try:
            sig = sdp.decode(code)
            if sig.kind != "offer":
                raise sdp.SignalError("it is a reply link, not an invite: open it in the browser that made the invite")
        except sdp.SignalError as err:
            self.problem = f"This invite link cannot be used: {err}. Ask your friend for a new link."
            self.state = "bad-link"
            ctl = FriendController(FriendSession("black", "000000000000", self._name()))
            self.ctl = ctl
            ctl.say(self.problem)
            self.render_panel()
            return ctl
        me = other(sig.role)
        ctl = self._load(sig.room, me)
        if ctl is None:
            ctl = FriendController(FriendSession(me, sig.room, self._name()))
            ctl.say("Joining your friend's game…")
        else:
            ctl.say("Reconnecting to your friend's game…")
        self.ctl = ctl
        age = time.time() - sig.created
        if age > STALE_S:
            self.note = (f"This invite link is {int(age // 3600)} hours old. If it does not connect, "
                         "ask your friend for a new one (an invite works only while their page stays open).")
        self._set_url()
        self._claim()
        self._later(self.answer(sig))
        return ctl

    def _later(self, coro):
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
            self.render_panel()

    def _set_url(self):
        s = self.ctl.session
        q = f"?mode=friend&room={s.room}&as={s.me}"
        if "ice" in self.params:
            q += "&ice=" + quote_param(str(self.params["ice"]))
        try:
            window.history.replaceState(None, "", q)
        except Exception:
            pass

    # ------------------------------------------------------------ storage
    def _store(self) -> dict:
        try:
            return load_store(window.localStorage.getItem(STORE_KEY))
        except Exception:
            return {"v": STORE_VERSION, "games": {}}

    def _load(self, room: str, me: str):
        entry = self._store()["games"].get(f"{room}.{me}")
        if not entry:
            return None
        try:
            return FriendController.from_dict(entry["ctl"])
        except Exception as err:
            self.page.show_notice(f"Your saved friend game could not be restored ({str(err)[:100]}); a new one was started.")
            return None

    def save(self):
        if self.moved or self.ctl is None or self.state == "bad-link":
            return
        s = self.ctl.session
        store = self._store()
        store["games"][f"{s.room}.{s.me}"] = {"saved": time.time(), "ctl": self.ctl.to_dict()}
        games = sorted(store["games"].items(), key=lambda kv: -float(kv[1].get("saved", 0) if isinstance(kv[1], dict) else 0))
        store["games"] = dict(games[:KEEP_GAMES])
        try:
            window.localStorage.setItem(STORE_KEY, json.dumps(store))
        except Exception as err:
            js.console.warn(f"could not save the friend game: {err}")

    # ------------------------------------------------------------ tabs
    def _claim(self):
        if self.bc is not None:
            s = self.ctl.session
            self.bc.postMessage(_js({"type": "claim", "room": s.room, "me": s.me, "tab": self.tab}))

    def _on_broadcast(self, event):
        try:
            m = json.loads(str(js.JSON.stringify(event.data)))
        except Exception:
            return
        if not isinstance(m, dict):
            return
        s = self.ctl.session if self.ctl else None
        if m.get("type") == "claim" and s and m.get("room") == s.room and m.get("me") == s.me and m.get("tab") != self.tab:
            self.moved = True
            self._close_pc()
            self.state = "moved"
            self.ctl.sync()
            self.render_panel()
            self.page.update()
        elif m.get("type") == "answer" and isinstance(m.get("code"), str):
            self._later(self._answer_from_tab(m.get("code"), m.get("id")))

    async def _answer_from_tab(self, code, req_id):
        self._ack_id = req_id
        ok, text, mine = await self.accept_answer(code)
        if mine and self.bc is not None:
            self.bc.postMessage(_js({"type": "answer-ack", "id": req_id, "ok": ok, "text": text}))
            if ok and self.state == "connected":
                self.bc.postMessage(_js({"type": "connected", "id": req_id}))

    # ------------------------------------------------------------ WebRTC
    def _close_pc(self):
        self.gen += 1
        for obj in (self.dc, self.pc):
            try:
                if obj is not None:
                    obj.close()
            except Exception:
                pass
        self.dc = self.pc = None
        if self.ctl is not None and self.ctl.session.connected:
            self.ctl.session.disconnect()

    def _new_pc(self):
        self._close_pc()
        cfg = {"iceServers": [{"urls": u} for u in self.ice]}
        pc = js.RTCPeerConnection.new(_js(cfg))
        self.pc = pc
        gen = self.gen
        self._note(f"new pc g{gen}")
        pc.onconnectionstatechange = self._proxy(lambda e: self._on_pc_state(gen))
        return pc, gen

    async def _gather(self, pc):
        t0 = _now_s()
        while str(pc.iceGatheringState) != "complete" and _now_s() - t0 < GATHER_CAP_S:
            await asyncio.sleep(0.05)

    def _wire(self, dc, gen):
        self._note(f"wire g{gen}/{self.gen} {dc.readyState}")
        dc.onopen = self._proxy(lambda e: self._on_open(dc, gen))
        dc.onmessage = self._proxy(lambda e: self._on_message(e.data, gen, dc))
        dc.onclose = self._proxy(lambda e: self._on_close(gen))
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
        dc = pc.createDataChannel("backgammon", _js({"ordered": True}))
        self._wire(dc, gen)
        await pc.setLocalDescription(await pc.createOffer())
        await self._gather(pc)
        if gen != self.gen:
            return
        s = self.ctl.session
        self.nonce = int.from_bytes(_random_bytes(2), "big")
        sig = sdp.minimise(str(pc.localDescription.sdp), "offer").copy(
            room=s.room, nonce=self.nonce, created=int(time.time()), role=s.me)
        self.code = sdp.encode(sig)
        q = "?mode=friend"
        if "ice" in self.params:
            q += "&ice=" + quote_param(str(self.params["ice"]))
        self.link = self._base("index.html") + q + "#join=" + self.code
        self.state = "inviting"
        self.problem = ""
        if not sig.candidates:
            self.problem = "This device found no network address to offer: check that it is online."
        self.render_panel()
        self.page.update()
        self.save()

    async def answer(self, sig):
        """Guest side: answer the invite at once and show the reply link."""
        pc, gen = self._new_pc()
        pc.ondatachannel = self._proxy(lambda e: self._wire(e.channel, gen))
        await pc.setRemoteDescription(_js({"type": "offer", "sdp": sdp.rebuild(sig)}))
        await pc.setLocalDescription(await pc.createAnswer())
        await self._gather(pc)
        if gen != self.gen:
            return
        s = self.ctl.session
        asig = sdp.minimise(str(pc.localDescription.sdp), "answer").copy(
            room=sig.room, nonce=sig.nonce, created=int(time.time()), role=s.me)
        self.code = sdp.encode(asig)
        self.link = self._base("reply.html") + "#r=" + self.code
        self.state = "answering"
        self.render_panel()
        self.page.update()
        self.save()
        await asyncio.sleep(ANSWER_HINT_S)
        if gen == self.gen and self.state == "answering":
            self.note = ("Still waiting for your friend to open your reply link. If their page was closed or "
                         "they made a newer link, ask them for a new invite link.")
            self.render_panel()

    async def accept_answer(self, code) -> tuple:
        """Apply a reply code; (ok, text for the player, whether it was for this page)."""
        try:
            sig = sdp.decode(code)
        except sdp.SignalError as err:
            return False, f"That reply code cannot be used: {err}.", False
        s = self.ctl.session
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
        self._later(self._watch_connect(gen))
        try:
            await self.pc.setRemoteDescription(_js({"type": "answer", "sdp": sdp.rebuild(sig)}))
        except Exception as err:
            self.state = "inviting"
            return False, f"Your browser refused that reply ({str(err)[:100]}): make a new link.", True
        if self.state == "connecting":
            self.render_panel()
        return True, "Connecting…", True

    async def _watch_connect(self, gen):
        t0 = _now_s()
        while _now_s() - t0 < CONNECT_TIMEOUT_S:
            await asyncio.sleep(0.25)
            if gen != self.gen or self.state != "connecting":
                return
        self.state = "failed"
        self.problem = f"Could not connect to your friend: the devices could not reach each other. {ADVICE}"
        self.render_panel()

    def _on_pc_state(self, gen):
        if gen != self.gen or self.pc is None:
            return
        st = str(self.pc.connectionState)
        self._note(f"pc {st}")
        if st == "disconnected" and self.state == "connected":
            self.note = "Connection interrupted: reconnecting…"
            self.render_panel()
        elif st == "connected" and self.note.startswith("Connection interrupted"):
            self.note = ""
            self.render_panel()
        elif st == "failed":
            if self.state == "connected":
                self._on_close(gen)
            elif self.state in ("connecting", "answering"):
                self.state = "failed"
                self.problem = f"Could not connect to your friend. {ADVICE}"
                self.render_panel()

    def _on_open(self, dc, gen):
        self._note(f"open g{gen}/{self.gen} {dc.readyState} mine={self.dc is not None}")
        if gen != self.gen or self.dc is not None:
            return
        self.dc = dc
        self.state = "connected"
        self.note = ""
        self.problem = ""
        self.ctl.session.connect(self._send)
        if self.bc is not None and getattr(self, "_ack_id", None):
            self.bc.postMessage(_js({"type": "connected", "id": self._ack_id}))
        self.render_panel()
        self.page.update()
        self.save()

    def _send(self, text: str):
        if self.dc is not None and str(self.dc.readyState) == "open":
            self.dc.send(text)
            self.sent += 1
        else:
            self.unsent += 1
            self._note(f"unsent {self.dc.readyState if self.dc is not None else None}")

    def _note(self, event: str):
        """Remember a connection event (the last 40) for the test hook's state."""
        self.trace.append((int(_now_s() * 1000) % 10_000_000, event))
        if len(self.trace) > 40:
            del self.trace[0]

    def _on_message(self, data, gen, dc=None):
        self.received += 1
        if self.received <= 3:
            self._note(f"message g{gen}/{self.gen} {str(data)[:12]}")
        if gen != self.gen:
            self.dropped += 1
            return
        if self.dc is None and dc is not None and str(dc.readyState) == "open":
            # the friend's greeting overtook this channel's open event: open it
            # first, or the session (not yet connected) would refuse the greeting
            self._on_open(dc, gen)
        text = data if isinstance(data, str) else None
        ctl = self.ctl
        game = ctl.game
        before = (game.position, game.dice, len(game.history))
        events = []
        try:
            events = ctl.receive(text if text is not None else b"")
        except ProtocolError as err:
            self.show_problem(str(err))
        except Exception as err:  # a bug must not take the page down
            js.console.error(f"friend message: {err!r}")
            self.show_problem(f"A message from your friend's game could not be handled ({type(err).__name__}).")
        for e in events:
            if e.kind == "chat":
                self.chat_lines.append((ctl.peer_name, e.text))
        while ctl.alerts:
            self.show_problem(ctl.alerts.pop(0))
        if ctl.session.stopped and self.state != "stopped":
            self.state = "stopped"
            ctl.sync()
        self.render_panel()
        self.save()
        played = [e for e in events if e.kind == "play" and e.data.get("notation")]
        if played and ctl.game is game and not self.page.view.reduced and len(game.history) > before[2]:
            try:
                pos, dice = before[0], tuple(before[1])
                frames = play_frames(pos, dice, pos.parse_play(game.history[before[2]].notation, *dice))
                self._animation = self._later(self._animate(frames, pos, dice))
                return
            except Exception as err:
                js.console.warn(f"could not animate the friend's play: {err!r}")
        if not self.page.view.animating:
            self.page.update()

    async def _animate(self, frames, pos, dice):
        """Show the friend's play step by step (the board is read-only meanwhile)."""
        me, ctl = self.ctl.me, self.ctl
        try:
            await self.page.view.animate(frames, pos, dice, me, me=me, still=lambda: ctl is self.page.ctl,
                                         visible=lambda: ctl.viewing is None)
        finally:
            if ctl is self.page.ctl:
                self.page.update()

    def _on_close(self, gen):
        self._note(f"close g{gen}/{self.gen}")
        if gen != self.gen:
            return
        was = self.state
        self.ctl.session.disconnect()
        self.dc = None
        if self.moved:
            return
        if self.ctl.session.stopped:
            self.state = "stopped"
            self.render_panel()
            return
        self.state = "lost"
        self.link = ""
        self.ctl.sync()
        if was == "connected":
            self.ctl.say(f"Connection to {self.ctl.peer_name} lost: reconnecting…")
        self.page.update()
        self.save()
        self._later(self.invite(reconnect=True))

    def close(self):
        """Leave the friend game (a New game of another kind)."""
        self._close_pc()
        self.moved = True
        document.body.classList.remove("friend-game")
        self.panel.remove()
        self.chatbox.remove()

    # ------------------------------------------------------------ the page's calls
    def result_text(self):
        return self.ctl.result_sentence()

    def go_on(self):
        """Nothing to start: the friend's turns arrive as messages."""

    # ------------------------------------------------------------ actions
    def rematch(self):
        try:
            self.ctl.rematch()
        except ValueError as err:
            self.show_problem(str(err))
        self.page.update()
        self.save()

    def resign(self):
        if self.ctl.session.is_over:
            return
        if not window.confirm("Resign this game? Your friend wins what the position shows."):
            return
        try:
            self.ctl.resign()
        except ValueError as err:
            self.show_problem(str(err))
        self.page.update()
        self.save()

    def show_problem(self, text: str):
        """A refused message or action: the page's notice (role=alert), not the connection panel."""
        self.page.show_notice(text)

    def copy(self, text: str, what: str):
        try:
            window.navigator.clipboard.writeText(text)
            self.page.status.textContent = f"{what} copied: paste it into a message to your friend."
        except Exception:
            self.page.status.textContent = f"Select the {what.lower()} and copy it."

    def share(self, text: str, url: str):
        try:
            window.navigator.share(_js({"title": "Backgammon", "text": text, "url": url}))
        except Exception:
            self.copy(url, "Link")

    async def paste_code(self, code: str):
        ok, text, _ = await self.accept_answer(code)
        if not ok:
            self.problem = text
        self.render_panel()

    # ------------------------------------------------------------ panel
    def _make_panel(self):
        panel = document.getElementById("friend-panel")
        if missing(panel):
            panel = _el("section", id="friend-panel", class_="friend-panel card", aria_label="Friend game")
            area = document.querySelector(".board-area")
            area.insertBefore(panel, area.firstChild)
        panel.hidden = False
        chat = document.getElementById("friend-chat")
        if missing(chat):  # the chat sits under the turn controls: on a phone, below the board
            chat = _el("section", id="friend-chat", class_="friend-chatbox card", aria_label="Chat with your friend")
            chat.hidden = True
            under = document.querySelector(".bar-under")
            if missing(under):
                document.querySelector(".board-area").appendChild(chat)
            else:
                under.parentNode.insertBefore(chat, under.nextSibling)
        self.chatbox = chat
        return panel

    def _button(self, label, fn, primary=False, testid=None):
        b = _el("button", label, type="button")
        if primary:
            b.className = "primary"
        if testid:
            b.dataset.testid = testid
        b.addEventListener("click", self._panel_proxy(lambda e: fn()))
        return b

    def _panel_proxy(self, fn):
        """A proxy for an element of the panel: destroyed when the panel is redrawn."""
        p = create_proxy(fn)
        self._panel_proxies.append(p)
        return p

    def _signature(self):
        s = self.ctl.session if self.ctl else None
        return (self.state, self.note, self.link, self.problem, len(self.chat_lines),
                s and (s.peer_name, s.name, s.is_over, s.game.started, s.stopped, s.game_no, s.me))

    def render_panel(self, force: bool = False):
        """Redraw the panel when what it shows changed (typing in its fields survives messages)."""
        sig = self._signature()
        if not force and sig == self._drawn:
            return
        self._drawn = sig
        for proxy in self._panel_proxies:
            try:
                proxy.destroy()
            except Exception:
                pass
        self._panel_proxies = []
        p = self.panel
        p.innerHTML = ""
        p.dataset.state = self.state
        self.chatbox.innerHTML = ""
        self.chatbox.hidden = True
        s = self.ctl.session if self.ctl else None
        st = self.state
        head = _el("div", None, class_="friend-head")
        p.appendChild(head)
        if s is not None and st != "bad-link":
            me = _el("span", None, class_=f"friend-me chip {s.me}")
            me.textContent = f"You: {cap(s.me)}" + (f" ({s.name})" if s.name else "")
            head.appendChild(me)
            peer = _el("span", None, class_=f"friend-peer chip {s.peer}", data_testid="friend-name")
            peer.textContent = f"{s.peer_name or 'Your friend'}: {cap(s.peer)}"
            head.appendChild(peer)
            dot = _el("span", {"connected": "connected", "connecting": "connecting…", "stopped": "game stopped"}.get(st, "not connected"),
                      class_=f"friend-conn {'on' if st == 'connected' else 'off'}")
            head.appendChild(dot)
            if st == "connected" and not s.is_over and s.game.started:
                head.appendChild(self._button("Resign", self.resign))
        if self.note:
            p.appendChild(_el("p", self.note, class_="friend-note", role="status"))
        if st in ("inviting", "lost") and self.link:
            if st == "lost" or (s and s.game.history):
                p.appendChild(_el("p", "Connection lost — reconnecting. Send your friend this new link "
                                       "(or open the new link they send you); the game continues from the same position.",
                                  class_="friend-lost", role="alert"))
            p.appendChild(_el("h2", "Invite a friend" if not (s and s.game.started) else "Reconnect"))
            p.appendChild(_el("p", "1. Send this link to your friend (message, mail, or let them scan the QR code). "
                                   "2. They open it and send you back a reply link. 3. Open their reply link in a new tab of "
                                   "this browser (keep this tab open) — or paste their reply link or code below."))
            self._link_block(self.link, "invite-link", "Invite link")
            self._paste_block()
            self._qr_block(self.link)
        elif st == "answering":
            p.appendChild(_el("h2", "Send this reply to your friend now"))
            p.appendChild(_el("p", "Send your friend this reply link right away: the game connects as soon as "
                                   "they open it in their browser. It works only while this page stays open."))
            self._link_block(self.link, "reply-link", "Reply link")
            box = _el("p", None, class_="friend-code")
            box.appendChild(_el("span", "Or give them this code to paste: "))
            box.appendChild(_el("code", self.code, data_testid="reply-short-code"))
            p.appendChild(box)
        elif st == "lost":
            p.appendChild(_el("p", "Connection lost — reconnecting: making a new link…", class_="friend-lost", role="alert"))
        elif st == "connecting":
            p.appendChild(_el("p", "Connecting to your friend…", role="status"))
        elif st == "connected":
            if s and s.is_over:
                p.appendChild(_el("p", self.ctl.result_sentence(), class_="friend-over"))
            self._chat_block()
        elif st == "failed":
            p.appendChild(_el("p", self.problem or f"Could not connect to your friend. {ADVICE}", class_="friend-error", role="alert"))
            p.appendChild(self._button("New invite link", lambda: self._later(self.invite(reconnect=True)), primary=True))
        elif st == "stopped":
            p.appendChild(_el("h2", "This game is stopped"))
            p.appendChild(_el("p", (s.stopped if s else "") or "", class_="friend-error", role="alert"))
            p.appendChild(_el("p", "Start a new game from the Game menu (choose “A friend” again for a new invite link)."))
        elif st == "bad-link":
            p.appendChild(_el("p", self.problem, class_="friend-error", role="alert"))
        elif st == "moved":
            p.appendChild(_el("p", "This game continues in another tab of this browser.", class_="friend-note"))
        elif st == "starting":
            p.appendChild(_el("p", "Preparing the connection…", role="status"))
        if self.problem and st not in ("failed", "bad-link"):
            p.appendChild(_el("p", self.problem, class_="friend-error"))

    def _link_block(self, link, testid, what):
        row = _el("div", None, class_="friend-link")
        a = _el("a", link, href=link, data_testid=testid, target="_blank", rel="noopener")
        row.appendChild(a)
        tools = _el("div", None, class_="friend-tools")
        tools.appendChild(self._button(f"Copy {what.lower()}", lambda: self.copy(link, what), primary=True))
        if js.Reflect.has(window.navigator, "share"):
            text = "Play backgammon with me: open this link." if testid == "invite-link" else "My reply: open this link to connect."
            tools.appendChild(self._button("Share…", lambda: self.share(text, link)))
        row.appendChild(tools)
        self.panel.appendChild(row)

    def _chat_block(self):
        log = _el("ol", None, class_="friend-chat", aria_label="Chat", data_testid="chat-log")
        for who, text in self.chat_lines[-6:]:
            li = _el("li")
            li.appendChild(_el("b", f"{who}: "))
            li.appendChild(document.createTextNode(text))
            log.appendChild(li)
        self.chatbox.hidden = False
        self.chatbox.appendChild(log)
        form = _el("form", None, class_="friend-paste friend-say")
        inp = _el("input", None, type="text", maxlength="200", data_testid="chat-input", autocomplete="off",
                  aria_label="Message to your friend", placeholder="Say something to your friend")
        form.appendChild(inp)
        form.appendChild(_el("button", "Send", type="submit"))

        def submit(e):
            e.preventDefault()
            text = " ".join(str(inp.value).split())[:200]
            if not text:
                return
            try:
                self.ctl.session.chat(text)
            except ProtocolError as err:
                self.show_problem(f"Could not send that message ({err}).")
                return
            self.chat_lines.append(("You", text))
            self.render_panel()
            box = document.querySelector('[data-testid="chat-input"]')
            if not missing(box):
                box.focus()

        form.addEventListener("submit", self._panel_proxy(submit))
        self.chatbox.appendChild(form)

    def _paste_block(self):
        form = _el("form", None, class_="friend-paste")
        label = _el("label", "Reply code: ")
        inp = _el("input", None, type="text", data_testid="reply-code", autocomplete="off", spellcheck="false",
                  placeholder="paste your friend's reply code or link")
        label.appendChild(inp)
        form.appendChild(label)
        form.appendChild(_el("button", "Connect", type="submit"))

        def submit(e):
            e.preventDefault()
            raw = str(inp.value).strip()
            if "#r=" in raw:
                raw = raw.split("#r=", 1)[1]
            self._later(self.paste_code(raw))

        form.addEventListener("submit", self._panel_proxy(submit))
        self.panel.appendChild(form)

    def _qr_block(self, link):
        box = _el("div", None, class_="friend-qr", data_testid="invite-qr")
        self.panel.appendChild(box)
        if self._qr_for and self._qr_for[0] == link:
            box.innerHTML = self._qr_for[1]
            return

        async def draw():
            await asyncio.sleep(0.05)
            picture = qr.svg(link, "L", label="QR code of the invite link")
            self._qr_for = (link, picture)
            if box.isConnected:
                box.innerHTML = picture

        self._later(draw())

    # ------------------------------------------------------------ test hook
    def _install_test_hook(self):
        def choose():
            """Make this page's moves for a chosen play through the controller (like clicks)."""
            ctl = self.ctl
            if not ctl.human_to_move:
                return ""
            notation = fallback_choice(ctl.game.position, *ctl.game.dice)
            play = ctl.game.position.parse_play(notation, *ctl.game.dice) if notation else None
            if play is not None:
                for st in play.steps:
                    if ctl.can_done and not ctl.builder.can_move:
                        break
                    src, dst = to_absolute(ctl.turn, st.src), to_absolute(ctl.turn, st.dst)
                    ctl.click(src)
                    if dst not in ctl.legal:
                        ctl.click(src)
                        break
                    ctl.click(dst)
            while not ctl.can_done:  # finish with the first legal steps if the path differed
                srcs = sorted(ctl.sources(), key=str)
                if not srcs:
                    break
                ctl.click(srcs[0])
                ctl.click(sorted(ctl.legal, key=str)[0])
            self.page.update()
            self.save()
            return notation or ""

        def send_raw(text, numbered=False):
            self.ctl.session.send_raw(str(text), numbered=bool(numbered))
            return True

        def state():
            s = self.ctl.session
            return json.dumps({"state": self.state, "phase": self.ctl.phase, "me": s.me, "room": s.room,
                               "game_no": s.game_no, "turns": len(s.game.history), "next_seq": s.next_seq(),
                               "stopped": s.stopped, "peer": s.peer_name, "dice": list(s.game.dice or ()),
                               "agreed": s.agreed, "received": self.received, "dropped": self.dropped,
                               "dc": str(self.dc.readyState) if self.dc is not None else None,
                               "pc": str(self.pc.connectionState) if self.pc is not None else None,
                               "sent": self.sent, "unsent": self.unsent,
                               "buffered": int(self.dc.bufferedAmount) if self.dc is not None else None,
                               "sctp": str(self.pc.sctp.state) if self.pc is not None and not missing(self.pc.sctp) else None,
                               "trace": list(self.trace), "problem": self.problem})

        hook = {"choose": self._proxy(choose), "sendRaw": self._proxy(send_raw), "state": self._proxy(state),
                "pc": self._proxy(lambda: self.pc)}
        window.bgFriendTest = _js(hook)

