"""A game against a friend on another device: the game page's friend game.

``app.py`` hands the page to ``FriendUI`` when the URL says ``mode=friend`` or
the player picks "A friend" in the New game form. ``FriendUI`` answers the
same calls as ``app.DeviceGame`` (``ctl``, ``save``, ``rematch``, ``close``,
``result_text``, ``go_on``) and wires three pieces together:

- ``friend_link.FriendLink``: the connection (WebRTC data channel, invite and
  reply links, relays, tabs, reconnecting);
- ``friend_panel.FriendPanel``: what the page shows of it (DOM);
- ``friend_controller.FriendController``: the game flow over the protocol
  session (pure, tested without a browser);

plus the saved games (``localStorage["bg.friend"]``) and the test hook.

Test hook (``window.bgFriendTest``): ``choose()`` picks a play for this page's
turn and makes its moves through the controller, exactly as clicks would
(Done stays with the UI); ``sendRaw(text, numbered)`` puts raw text on the
data channel (tamper tests); ``state()``; ``pc()``.
"""

import json
import time

import js
from .browser import document, to_js, window

from engine import other, to_absolute

from . import sdp
from .controller import play_frames
from .fallback_player import fallback_choice
from .friend_controller import FriendController
from .friend_link import FriendLink, random_bytes, token_hex
from .friend_params import is_secret, parse_fragment
from .friend_panel import FriendPanel
from .friend_protocol import ProtocolError, clean_name
from .friend_session import FriendSession

STORE_KEY = "bg.friend"
STORE_VERSION = 1
KEEP_GAMES = 6


def load_store(text) -> dict:
    try:
        data = json.loads(text) if isinstance(text, str) and text else {}
    except ValueError:
        data = {}
    if not isinstance(data, dict) or data.get("v") != STORE_VERSION or not isinstance(data.get("games"), dict):
        return {"v": STORE_VERSION, "games": {}}
    return data


class FriendUI:
    """A game against a friend on another device, for the game page (``app.GamePage``)."""

    friend = True

    def __init__(self, page, params: dict):
        self.page = page
        self.params = params
        self.ctl = None
        self.chat_lines = []           # [(who, text)]: this connection's chat, plain text
        self.conn = FriendLink(self, params)
        self.panel = FriendPanel(self, self.conn)
        document.body.classList.add("friend-game")
        self._install_test_hook()
        self.ctl = self._start()

    # ------------------------------------------------------------ set-up
    def _name(self) -> str:
        return clean_name(self.page.store.name(), "")

    def _start(self) -> FriendController:
        frag = str(window.location.hash or "")
        if frag.startswith("#join="):
            code, secret = parse_fragment(frag)
            return self._start_guest(code, secret)
        room = str(self.params.get("room") or "")
        me = str(self.params.get("as") or "")
        saved, secret = self._load(room, me) if room and me in ("white", "black") else (None, None)
        conn = self.conn
        if saved is not None:
            self.ctl = saved
            saved.say("Friend game restored. Reconnecting: send your friend the new link below, or open theirs.")
            conn.claim()
            conn.meet.start(secret, saved=True)
            conn.later(conn.invite(reconnect=True))
            return saved
        self.ctl = FriendController(FriendSession("white", token_hex(6), self._name()))
        self.ctl.say("Making an invite link for your friend…")
        conn.set_url()
        conn.claim()
        conn.meet.start(sdp.b64url_encode(random_bytes(16)))
        conn.later(conn.invite())
        return self.ctl

    def _start_guest(self, code: str, secret=None) -> FriendController:
        conn = self.conn
        try:
            sig = conn.invite_signal(code)
        except sdp.SignalError as err:
            conn.bad_link(err)
            self.ctl = FriendController(FriendSession("black", "000000000000", self._name()))
            self.ctl.say(conn.problem)
            self.changed()
            return self.ctl
        me = other(sig.role)
        ctl, saved_secret = self._load(sig.room, me)
        had = ctl is not None
        if ctl is None:
            ctl = FriendController(FriendSession(me, sig.room, self._name()))
            ctl.say("Joining your friend's game…")
        else:
            ctl.say("Reconnecting to your friend's game…")
        self.ctl = ctl
        conn.set_url()
        conn.claim()
        if conn.meet.start(secret or saved_secret, saved=had):
            conn.meet.link_sig = sig          # the manual way, if the relays do not bring the friend's page
            conn.state = "joining"
        else:
            conn.note_age(sig)
            conn.later(conn.answer(sig))
        return ctl

    # ------------------------------------------------------------ storage
    def _store(self) -> dict:
        try:
            return load_store(window.localStorage.getItem(STORE_KEY))
        except Exception:
            return {"v": STORE_VERSION, "games": {}}

    def _load(self, room: str, me: str):
        """(the saved game of ``room`` played as ``me``, its relay secret); (None, None) when none."""
        entry = self._store()["games"].get(f"{room}.{me}")
        if not entry:
            return None, None
        key = entry.get("key")
        try:
            return FriendController.from_dict(entry["ctl"]), (key if is_secret(key) else None)
        except Exception as err:
            self.page.show_notice(f"Your saved friend game could not be restored ({str(err)[:100]}); a new one was started.")
            return None, None

    def save(self):
        s = self.ctl.session if self.ctl is not None else None
        if self.conn.moved or s is None or self.conn.state in ("bad-link", "full"):
            return
        if self.conn.state == "joining" and s.peer_name is None:
            return          # nothing to keep yet (and a third browser refused keeps nothing)
        store = self._store()
        entry = {"saved": time.time(), "ctl": self.ctl.to_dict()}
        if self.conn.meet.secret:
            entry["key"] = self.conn.meet.secret
        store["games"][f"{s.room}.{s.me}"] = entry
        games = sorted(store["games"].items(), key=lambda kv: -float(kv[1].get("saved", 0) if isinstance(kv[1], dict) else 0))
        store["games"] = dict(games[:KEEP_GAMES])
        try:
            window.localStorage.setItem(STORE_KEY, json.dumps(store))
        except Exception as err:
            js.console.warn(f"could not save the friend game: {err}")

    # ------------------------------------------------------------ the connection's calls
    def changed(self):
        """The connection's state changed: redraw the panel (and the status line while
        the first invite waits for the friend)."""
        self._invite_status()
        self.panel.render()

    def _invite_status(self):
        """Once the invite link is made, the status line stops saying it is being made."""
        ctl, conn = self.ctl, self.conn
        if ctl is None or ctl.session.peer_name is not None or conn.state != "inviting" or not conn.link:
            return
        if conn.meet.relay_state in ("open", "opening"):
            text = "Your invite link is ready: send it to your friend. The game starts as soon as they open it."
        else:
            text = "Your invite link is ready: send it to your friend, then open the reply link they send back."
        if ctl.message != text:
            ctl.say(text)
            self.page.update()

    def render_panel(self, force: bool = False):
        self.panel.render(force)

    def moved_away(self):
        """Another tab of this browser took this game over."""
        self.ctl.sync()
        self.changed()
        self.page.update()

    def lost(self, was_connected: bool):
        """The channel closed: the connection makes a new link to reconnect."""
        self.ctl.sync()
        if was_connected:
            self.ctl.say(f"Connection to {self.ctl.session.peer_name or 'your friend'} lost: reconnecting…")
        self.page.update()
        self.save()

    def on_text(self, text):
        """A message from the friend (``None``: not text): apply it, show what it did."""
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
        if ctl.session.stopped and self.conn.state != "stopped":
            self.conn.state = "stopped"
            ctl.sync()
        self.changed()
        self.save()
        played = [e for e in events if e.kind == "play" and e.data.get("notation")]
        if played and ctl.game is game and not self.page.view.reduced and len(game.history) > before[2]:
            try:
                pos, dice = before[0], tuple(before[1])
                frames = play_frames(pos, dice, pos.parse_play(game.history[before[2]].notation, *dice))
                self._animation = self.conn.later(self._animate(frames, pos, dice))
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

    # ------------------------------------------------------------ the page's calls
    def close(self):
        """Leave the friend game (a New game of another kind)."""
        self.conn.close()
        document.body.classList.remove("friend-game")
        self.panel.remove()

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
            out = self.conn.state_for_test()
            out.update({"phase": self.ctl.phase, "me": s.me, "room": s.room,
                        "game_no": s.game_no, "turns": len(s.game.history), "next_seq": s.next_seq(),
                        "stopped": s.stopped, "peer": s.peer_name, "dice": list(s.game.dice or ()),
                        "agreed": s.agreed})
            return json.dumps(out)

        proxy = self.conn.proxy
        hook = {"choose": proxy(choose), "sendRaw": proxy(send_raw), "state": proxy(state),
                "pc": proxy(lambda: self.conn.pc)}
        window.bgFriendTest = to_js(hook)

