"""The friend panel: what a friend game shows beside the board (DOM only).

Links with Copy / Share / QR, the pasted reply code, the connection's state in
words, names, Resign and the chat box. It reads the connection
(``friend_link.FriendLink``: ``state``, ``note``, ``link``, ``code``,
``problem``) and the game (``FriendUI``: ``ctl``, ``chat_lines``) and decides
nothing: its buttons call the connection or the game. Redrawn only when what
it shows changed, so typing in its fields survives incoming messages.
"""

import asyncio

import js
from .browser import create_proxy, document, to_js, window

from . import qr
from .dom import missing
from .friend_link import ADVICE
from .friend_protocol import ProtocolError
from .modes import cap


def _el(tag, text=None, **attrs):
    el = document.createElement(tag)
    if text is not None:
        el.textContent = text
    for k, v in attrs.items():
        el.setAttribute(k.rstrip("_").replace("_", "-"), str(v))
    return el


class FriendPanel:
    """The friend game's panel and chat box in the page."""

    def __init__(self, ui, conn):
        self.ui = ui
        self.conn = conn
        self._panel_proxies = []
        self._drawn = None
        self._qr_for = None
        self.panel = self._make_panel()

    def remove(self):
        self.panel.remove()
        self.chatbox.remove()

    def copy(self, text: str, what: str):
        status = self.ui.page.status
        try:
            window.navigator.clipboard.writeText(text)
            status.textContent = f"{what} copied: paste it into a message to your friend."
        except Exception:
            status.textContent = f"Select the {what.lower()} and copy it."

    def share(self, text: str, url: str):
        try:
            window.navigator.share(to_js({"title": "Backgammon", "text": text, "url": url}))
        except Exception:
            self.copy(url, "Link")

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
        s = self.ui.ctl.session if self.ui.ctl else None
        return (self.conn.state, self.conn.note, self.conn.link, self.conn.problem, len(self.ui.chat_lines),
                self.conn.meet.relay_state, self.conn.meet.relay_note,
                s and (s.peer_name, s.name, s.is_over, s.game.started, s.stopped, s.game_no, s.me))

    def render(self, force: bool = False):
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
        p.dataset.state = self.conn.state
        self.chatbox.innerHTML = ""
        self.chatbox.hidden = True
        s = self.ui.ctl.session if self.ui.ctl else None
        st = self.conn.state
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
                head.appendChild(self._button("Resign", self.ui.resign))
        if self.conn.note:
            p.appendChild(_el("p", self.conn.note, class_="friend-note", role="status"))
        if self.conn.meet.relay_note and st in ("inviting", "answering", "lost"):
            p.appendChild(_el("p", self.conn.meet.relay_note, class_="friend-note", role="status", data_testid="relay-note"))
        relays = self.conn.meet.relay_state in ("opening", "open")
        if st in ("inviting", "lost") and self.conn.link:
            if st == "lost" or (s and s.game.history):
                p.appendChild(_el("p", "Connection lost — reconnecting through the relays: keep this page open, your "
                                       "friend's page reconnects by itself (or send them this new link); the game continues "
                                       "from the same position." if relays else
                                  "Connection lost — reconnecting. Send your friend this new link "
                                  "(or open the new link they send you); the game continues from the same position.",
                                  class_="friend-lost", role="alert"))
            p.appendChild(_el("h2", "Invite a friend" if not (s and s.game.started) else "Reconnect"))
            if relays:
                p.appendChild(_el("p", "Send this link to your friend (message, mail, or let them scan the QR code): "
                                       "the game starts as soon as they open it. Keep this page open. (If their page shows "
                                       "a reply link instead, open it in this browser or paste it below.)"))
            else:
                p.appendChild(_el("p", "1. Send this link to your friend (message, mail, or let them scan the QR code). "
                                       "2. They open it and send you back a reply link. 3. Open their reply link in a new tab of "
                                       "this browser (keep this tab open) — or paste their reply link or code below."))
            self._link_block(self.conn.link, "invite-link", "Invite link")
            self._paste_block()
            self._qr_block(self.conn.link)
        elif st == "answering":
            p.appendChild(_el("h2", "Send this reply to your friend now"))
            p.appendChild(_el("p", "Send your friend this reply link right away: the game connects as soon as "
                                   "they open it in their browser. It works only while this page stays open."))
            self._link_block(self.conn.link, "reply-link", "Reply link")
            box = _el("p", None, class_="friend-code")
            box.appendChild(_el("span", "Or give them this code to paste: "))
            box.appendChild(_el("code", self.conn.code, data_testid="reply-short-code"))
            p.appendChild(box)
        elif st == "lost":
            p.appendChild(_el("p", "Connection lost — reconnecting: making a new link…", class_="friend-lost", role="alert"))
        elif st == "joining":
            p.appendChild(_el("p", "Joining your friend's game through the relays…", role="status"))
        elif st == "full":
            p.appendChild(_el("h2", "This room is full"))
            p.appendChild(_el("p", self.conn.problem, class_="friend-error", role="alert", data_testid="room-full"))
        elif st == "connecting":
            p.appendChild(_el("p", "Connecting to your friend…", role="status"))
        elif st == "connected":
            if s and s.is_over:
                p.appendChild(_el("p", self.ui.ctl.result_sentence(), class_="friend-over"))
            self._chat_block()
        elif st == "failed":
            p.appendChild(_el("p", self.conn.problem or f"Could not connect to your friend. {ADVICE}", class_="friend-error", role="alert"))
            p.appendChild(self._button("New invite link", lambda: self.conn.later(self.conn.invite(reconnect=True)), primary=True))
        elif st == "stopped":
            p.appendChild(_el("h2", "This game is stopped"))
            p.appendChild(_el("p", (s.stopped if s else "") or "", class_="friend-error", role="alert"))
            p.appendChild(_el("p", "Start a new game from the Game menu (choose “A friend” again for a new invite link)."))
        elif st == "bad-link":
            p.appendChild(_el("p", self.conn.problem, class_="friend-error", role="alert"))
        elif st == "moved":
            p.appendChild(_el("p", "This game continues in another tab of this browser.", class_="friend-note"))
        elif st == "starting":
            p.appendChild(_el("p", "Preparing the connection…", role="status"))
        if self.conn.problem and st not in ("failed", "bad-link", "full"):
            p.appendChild(_el("p", self.conn.problem, class_="friend-error"))

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
        for who, text in self.ui.chat_lines[-6:]:
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
                self.ui.ctl.session.chat(text)
            except ProtocolError as err:
                self.ui.show_problem(f"Could not send that message ({err}).")
                return
            self.ui.chat_lines.append(("You", text))
            self.render()
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
            self.conn.later(self.conn.paste_code(raw))

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

        self.conn.later(draw())

