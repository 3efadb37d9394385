"""The game page's browser layer: DOM events, storage, the AI worker.

Everything that decides anything lives in pure modules (``controller``,
``render``, ``storage``); this file only wires them to the page. Loaded by
``<script type="py" src="./webui/app.py">`` in ``index.html``.
"""

import asyncio
import datetime
import json
from urllib.parse import parse_qs

import js
from pyodide.ffi import create_proxy
from pyscript import document, window, workers

from webui import autoplay, render, storage
from webui.controller import Controller, Settings, dice_text
from webui.render import View, render_board

SVG_NS = "http://www.w3.org/2000/svg"
WORKER_CONFIG = {
    "interpreter": "./vendor/pyodide-314.0.7/pyodide.mjs",
    "files": {"./py/packages.zip": "./*", "./py/webui.zip": "./*"},
}


def _point_value(raw):
    if raw in ("bar", "off"):
        return raw
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None


def _rows(bottom):
    """Focus order for arrow keys: two visual rows, left to right."""
    top, low = [], []
    for p in range(1, 25):
        x, is_top = render.point_column(bottom, p)
        (top if is_top else low).append((x, p))
    top = [p for _, p in sorted(top)]
    low = [p for _, p in sorted(low)]
    return [top[:6] + ["bar"] + top[6:] + ["off"], low[:6] + ["bar"] + low[6:] + ["off"]]


class App:
    def __init__(self):
        self.ctl = None
        self.board = document.getElementById("board")
        self.status = document.getElementById("status")
        self.notice = document.getElementById("notice")
        self.reduced = bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
        self.worker = None
        self.ai_task = None
        self.update_task = None
        self.animating = False
        self.drag = None
        self.kb = False              # keyboard focus is on the board
        self.rendering = False
        self.problems = []
        self.settings_store = {}
        self.leaderboard = []
        self._proxies = []
        self.recent = []             # the last messages shown in the status line
        self.friend = None           # a game against a friend: friend_app.FriendUI

    # ------------------------------------------------------------ storage
    def _get(self, key):
        try:
            value = window.localStorage.getItem(key)
            return value if isinstance(value, str) else None  # JS null is not None in Pyodide
        except Exception:
            return None

    def _set(self, key, value):
        try:
            window.localStorage.setItem(key, value)
        except Exception:
            pass

    def _set_aside(self, key):
        raw = self._get(key)
        if raw is not None:
            self._set(key + ".bad", raw)
        try:
            window.localStorage.removeItem(key)
        except Exception:
            pass

    def save(self):
        if self.friend is not None:  # friend games keep their own storage (bg.friend)
            self.friend.save()
            return
        if self.ctl and self.ctl.game:
            try:
                self._set(storage.GAME_KEY, json.dumps(self.ctl.to_dict()))
            except Exception as err:  # never let saving break play
                js.console.warn(f"could not save the game: {err}")

    def save_settings(self):
        self._set(storage.SETTINGS_KEY, json.dumps(self.settings_store))

    # ------------------------------------------------------------- start
    def start(self):
        self.settings_store, problem = storage.load_settings(self._get(storage.SETTINGS_KEY))
        if problem:
            self.problems.append(problem)
            self._set_aside(storage.SETTINGS_KEY)
        self.leaderboard, problem = storage.load_leaderboard(self._get(storage.LEADERBOARD_KEY))
        if problem:
            self.problems.append(problem)
            self._set_aside(storage.LEADERBOARD_KEY)

        params = {k: v[0] for k, v in parse_qs(str(window.location.search).lstrip("?")).items()}
        saved, problem = storage.load_game(self._get(storage.GAME_KEY), Controller.from_dict)
        if problem:
            self.problems.append(problem)
            self._set_aside(storage.GAME_KEY)

        base = Settings.from_params({k: str(v) for k, v in self.settings_store.items() if k in ("mode", "level", "color")})
        wanted = Settings.from_params(params, base) if params.get("mode") else None
        if params.get("mode") == "friend":
            from webui import friend_app
            self.friend = friend_app.FriendUI(self, params)
            self.ctl = self.friend.ctl
        elif saved is not None and (wanted is None or saved.settings == wanted):
            self.ctl = saved
            self.ctl.say(("Game restored. " + self.ctl.message).strip())
        else:
            self.ctl = Controller()
            self.ctl.new_game(wanted or base)
        self.fill_form()
        self.bind()
        self.render_leaderboard()
        self.update()
        self.save()
        if self.problems:
            self.show_notice(" ".join(self.problems))
        document.body.dataset.ready = "true"
        if self.friend is None:  # friend games need no AI: keep the CPU for the page
            self.start_worker()
        self.kick_ai()

    def start_worker(self):
        """Add the AI's PyScript worker now that the page is playable."""
        if document.querySelector('script[worker][name="ai"]'):
            return
        script = document.createElement("script")
        script.setAttribute("type", "py")
        script.setAttribute("worker", "")
        script.setAttribute("name", "ai")
        script.setAttribute("src", "./webui/ai_worker.py")
        script.setAttribute("config", json.dumps(WORKER_CONFIG))
        document.body.appendChild(script)

    def show_notice(self, text):
        self.notice.textContent = text
        self.notice.hidden = False

    # ------------------------------------------------------------ binding
    def on(self, el, event, fn):
        proxy = create_proxy(fn)
        self._proxies.append(proxy)
        el.addEventListener(event, proxy)

    def bind(self):
        self.on(self.board, "pointerdown", self.on_down)
        self.on(self.board, "pointermove", self.on_move)
        self.on(self.board, "pointerup", self.on_up)
        self.on(self.board, "pointercancel", self.on_cancel)
        self.on(self.board, "focusin", self.on_focusin)
        self.on(self.board, "focusout", self.on_focusout)
        self.on(document, "keydown", self.on_key)
        self.on(document.getElementById("roll"), "click", lambda e: self.do_roll())
        self.on(document.getElementById("undo"), "click", lambda e: self.do_undo())
        self.on(document.getElementById("done"), "click", lambda e: self.do_done())
        self.on(document.getElementById("hint"), "click", lambda e: asyncio.ensure_future(self.do_hint()))
        self.on(document.getElementById("newgame"), "submit", self.on_new_game)
        self.on(document.getElementById("opt-mode"), "change", lambda e: self.sync_form())
        self.on(document.getElementById("rematch"), "click", lambda e: self.rematch())
        self.on(document.getElementById("live"), "click", lambda e: self.go_live())
        self.on(document.getElementById("copy-id"), "click", lambda e: asyncio.ensure_future(self.copy_id()))
        self.on(document.getElementById("history"), "click", self.on_history)
        self.on(document.getElementById("opt-name"), "change", self.on_name)

    # -------------------------------------------------------------- form
    def fill_form(self):
        s = self.ctl.settings
        document.getElementById("opt-mode").value = s.mode
        document.getElementById("opt-level").value = str(s.level)
        document.getElementById("opt-color").value = s.color
        document.getElementById("opt-name").value = str(self.settings_store.get("name", ""))
        self.sync_form()

    def sync_form(self):
        form = document.getElementById("newgame")
        local = document.getElementById("opt-mode").value == "local"
        form.classList.toggle("local", local)

    def on_name(self, event):
        self.settings_store["name"] = str(document.getElementById("opt-name").value).strip()[:24]
        self.save_settings()

    def on_new_game(self, event):
        event.preventDefault()
        if str(document.getElementById("opt-mode").value) == "friend":
            from webui import friend_app
            return friend_app.start_from_form(self)
        settings = Settings(
            mode=str(document.getElementById("opt-mode").value),
            level=int(document.getElementById("opt-level").value),
            color=str(document.getElementById("opt-color").value),
            seed=None,
        )
        self.settings_store.update({"mode": settings.mode, "level": settings.level, "color": settings.color})
        self.on_name(None)
        self.new_game(settings)
        try:
            query = "&".join(f"{k}={v}" for k, v in settings.params().items())
            window.history.replaceState(None, "", f"?{query}")
        except Exception:
            pass

    def new_game(self, settings):
        self.cancel_ai()
        if self.friend is not None:
            self.friend.close()
            self.friend = None
        self.ctl = Controller()
        self.ctl.new_game(settings)
        self.ctl.auto = None
        self.update()
        self.save()
        # a new version of the site waits for a new game, never swaps mid-game
        sw = getattr(window, "bgServiceWorker", None)
        try:
            if sw is not None and sw.updateReady:
                self.status.textContent = "Updating to the new version of the site…"
                self.update_task = asyncio.ensure_future(self.apply_update(sw, self.ctl))
                return
        except Exception:
            pass
        self.kick_ai()

    async def apply_update(self, sw, ctl):
        """Swap to the waiting version of the site (the page reloads), once the
        AI's worker has finished loading. Asked to activate, Chromium stops the
        old service worker; a request through it after that (the worker still
        fetching Pyodide) starts it again, and the new version then waits until
        the old one idles out: 30 s, or 5 minutes with DevTools open."""
        if document.querySelector('script[worker][name="ai"]'):
            try:
                await asyncio.wait_for(self.get_worker(), 90)
            except Exception:
                pass  # no worker: nothing of it is loading either
        try:
            if ctl is self.ctl and sw.applyUpdate():
                return
        except Exception:
            pass
        if ctl is self.ctl:
            self.kick_ai()

    def rematch(self):
        if self.friend is not None:
            return self.friend.rematch()
        s = self.ctl.settings
        seed = None if s.seed is None else s.seed + 1
        self.new_game(Settings(s.mode, s.level, s.color, seed))

    # ------------------------------------------------------------ render
    def update(self, position=None, view=None):
        """Redraw the board and every control from the controller."""
        ctl = self.ctl
        if position is None:
            position, view = ctl.view(animate=not self.reduced)
        self.rendering = True
        had_focus = self.kb
        self.board.innerHTML = render_board(position, view)
        self.rendering = False
        if had_focus and ctl.focus is not None:
            el = self.board.querySelector(f'[data-point="{ctl.focus}"]')
            if el:
                el.focus()
        self.board.dataset.positionId = view.position_id or position.id
        busy = self.animating or ctl.phase == "ai"
        live = ctl.viewing is None
        self._enable("roll", live and ctl.phase == "roll" and not busy)
        self._enable("undo", live and ctl.human_to_move and bool(ctl.builder and ctl.builder.steps))
        self._enable("done", live and ctl.can_done)
        self._enable("hint", live and ctl.human_to_move)
        self._enable("new-game", True)
        self._enable("copy-id", True)
        document.getElementById("pos-id").textContent = view.position_id or position.id
        said = ctl.take_announcements()
        if said:
            # keep the last few messages together, so a forfeit or an automatic
            # play stays readable while the computer rolls and thinks
            self.recent = (self.recent + said)[-2:]
            self.status.textContent = " ".join(self.recent)
        self.render_history()
        self.render_result()
        document.body.classList.toggle("viewing", not live)
        document.getElementById("live").hidden = live

    def _enable(self, el_id, on):
        document.getElementById(el_id).disabled = not on

    def render_history(self):
        ol = document.getElementById("history")
        items = []
        for i, e in enumerate(self.ctl.history()):
            text = e.notation or "(no legal move)"
            cur = ' aria-current="true"' if self.ctl.viewing == i else ""
            items.append(
                f'<li><button type="button" data-index="{i}"{cur} '
                f'title="Show the position before this move">{e.color.capitalize()} {dice_text(e.dice)}: {text}</button></li>'
            )
        html = "".join(items)
        if ol.innerHTML != html:
            ol.innerHTML = html
            ol.scrollTop = ol.scrollHeight

    def render_result(self):
        box = document.getElementById("result")
        res = self.ctl.result()
        if not res:
            box.hidden = True
            return
        box.dataset.winner = res["winner"]
        box.dataset.kind = res["kind"]
        box.dataset.points = res["points"]
        s = self.ctl.settings
        if s.mode == "ai":
            who = "You win" if res["winner"] == s.color else "The computer wins"
        else:
            who = f"{res['winner'].capitalize()} wins"
        kind = {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon"}[res["kind"]]
        pts = res["points"]
        extra = f" (level {s.level}: × {s.level}/3)" if s.mode == "ai" else ""
        document.getElementById("result-text").textContent = f"{who} with {kind}: {pts} point{'' if pts == '1' else 's'}{extra}."
        if self.friend is not None:
            document.getElementById("result-text").textContent = self.ctl.result_sentence()
        box.hidden = False
        self.record_result(res)

    def record_result(self, res):
        name = str(self.settings_store.get("name") or "Player")
        entry = self.ctl.leaderboard_entry(name, datetime.date.today().isoformat())
        if entry is None:
            return
        self.leaderboard = storage.add_entry(self.leaderboard, **entry)
        self._set(storage.LEADERBOARD_KEY, storage.dump_leaderboard(self.leaderboard))
        self.save()
        self.render_leaderboard()

    def render_leaderboard(self):
        body = document.querySelector("#leaderboard tbody")
        if not self.leaderboard:
            body.innerHTML = '<tr><td colspan="6">No wins yet.</td></tr>'
            return
        rows = []
        for i, e in enumerate(self.leaderboard[:20]):
            name = str(e["name"]).replace("&", "&amp;").replace("<", "&lt;")
            rows.append(
                f"<tr><td>{i + 1}</td><td>{name}</td><td>{e['date']}</td><td>{e['level']}</td>"
                f"<td>{e['kind']}</td><td>{e['points']}</td></tr>"
            )
        body.innerHTML = "".join(rows)

    # ------------------------------------------------------------ actions
    def after_action(self):
        self.save()
        if self.ctl.auto is not None and not self.reduced:
            said = list(self.ctl.announcements)
            self.status.textContent = " ".join(said[-3:])
            asyncio.ensure_future(self.show_auto_play(self.ctl))
            return
        self.ctl.auto = None
        self.update()
        self.kick_ai()

    def do_roll(self):
        if self.ctl.phase == "roll" and self.ctl.viewing is None and not self.animating:
            self.ctl.roll()
            self.after_action()

    def do_undo(self):
        if self.ctl.undo():
            self.after_action()

    def do_done(self):
        if self.ctl.done():
            self.after_action()

    async def do_hint(self):
        ctl = self.ctl
        if not ctl.human_to_move:
            return
        self.status.textContent = "Thinking about a hint…"
        pos = ctl.game.position
        d1, d2 = ctl.game.dice
        try:
            worker = await self.get_worker()
            ranked = json.loads(str(await worker.hint(pos.id, pos.turn, d1, d2)))
        except Exception as err:
            self.status.textContent = f"No hint available ({err.__class__.__name__})."
            return
        if ranked and ctl is self.ctl and ctl.human_to_move:
            try:
                ctl.set_hint(ranked[0][0])
            except ValueError:
                pass
            self.update()
            self.status.textContent = f"Hint: the computer would play {ranked[0][0]}."

    def go_live(self):
        self.ctl.view_history(None)
        self.ctl.say("Back to the game.")
        self.update()

    def on_history(self, event):
        btn = event.target.closest("button[data-index]")
        if not btn:
            return
        i = int(btn.dataset.index)
        self.ctl.view_history(i)
        e = self.ctl.history()[i]
        self.ctl.say(f"Showing the position before move {i + 1} ({e.color} {dice_text(e.dice)}: {e.notation or 'no move'}). Read-only.")
        self.update()

    async def copy_id(self):
        pid = str(document.getElementById("pos-id").textContent)
        try:
            await window.navigator.clipboard.writeText(pid)
            self.status.textContent = f"Position ID {pid} copied."
        except Exception:
            self.status.textContent = f"Position ID: {pid} (select it to copy)."

    # ---------------------------------------------------------- pointer
    def _target(self, event):
        el = event.target.closest("[data-point]") if event.target else None
        return _point_value(el.dataset.point) if el else None

    def _svg_xy(self, event):
        svg = self.board.querySelector("svg")
        pt = svg.createSVGPoint()
        pt.x, pt.y = event.clientX, event.clientY
        p = pt.matrixTransform(svg.getScreenCTM().inverse())
        return p.x, p.y

    def on_down(self, event):
        ctl = self.ctl
        if self.animating or ctl.viewing is not None or not ctl.human_to_move:
            return
        if event.button not in (0, None) and event.pointerType == "mouse":
            return
        pt = self._target(event)
        if pt is None:
            return
        if ctl.picked is not None and pt in ctl.legal:
            ctl.click(pt)
            self.after_action()
            return
        putdown = pt == ctl.picked
        if not putdown:
            result = ctl.click(pt)
            self.update()
            if result != "pick":
                return
        self.drag = {"x": event.clientX, "y": event.clientY, "src": pt, "moved": False, "putdown": putdown, "ghost": None}
        try:
            self.board.setPointerCapture(event.pointerId)
        except Exception:
            pass

    def on_move(self, event):
        d = self.drag
        if not d:
            return
        if not d["moved"] and abs(event.clientX - d["x"]) + abs(event.clientY - d["y"]) < 8:
            return
        d["moved"] = True
        event.preventDefault()
        x, y = self._svg_xy(event)
        if d["ghost"] is None or not d["ghost"].isConnected:
            svg = self.board.querySelector("svg")
            g = document.createElementNS(SVG_NS, "circle")
            g.setAttribute("r", str(render.R - 2))
            g.setAttribute("class", "drag-ghost")
            colour = self.ctl.turn
            g.setAttribute("fill", "url(#b-cw)" if colour == "white" else "url(#b-cb)")
            g.setAttribute("stroke", "#5ec8ff")
            g.setAttribute("stroke-width", "3")
            svg.appendChild(g)
            d["ghost"] = g
            document.body.classList.add("dragging")
        d["ghost"].setAttribute("cx", str(x))
        d["ghost"].setAttribute("cy", str(y))

    def on_up(self, event):
        d, self.drag = self.drag, None
        document.body.classList.remove("dragging")
        if not d:
            return
        ctl = self.ctl
        if d["moved"]:
            x, y = self._svg_xy(event)
            bottom = self.board.querySelector("svg").dataset.bottom or "white"
            over = render.hit_test(str(bottom), x, y)
            if over is not None and over in ctl.legal:
                ctl.click(over)
                self.after_action()
                return
            self.update()  # back where it was, still picked up
            return
        if d["putdown"]:
            ctl.click(d["src"])
            self.update()

    def on_cancel(self, event):
        self.drag = None
        document.body.classList.remove("dragging")
        self.update()

    # --------------------------------------------------------- keyboard
    def on_focusin(self, event):
        pt = self._target(event)
        if pt is not None:
            self.kb = True
            if self.ctl.focus != pt:
                self.ctl.focus = pt
                self.update()

    def on_focusout(self, event):
        if self.rendering:
            return
        rel = event.relatedTarget
        if rel is None or not self.board.contains(rel):
            self.kb = False
            if self.ctl.focus is not None:
                self.ctl.focus = None
                self.rendering = True
                position, view = self.ctl.view(animate=False)
                self.board.innerHTML = render_board(position, view)
                self.rendering = False

    def on_key(self, event):
        tag = str(event.target.tagName).lower() if event.target and event.target.tagName else ""
        if tag in ("input", "select", "textarea") or event.ctrlKey or event.metaKey or event.altKey:
            return
        key = str(event.key)
        ctl = self.ctl
        if key in ("u", "U"):
            self.do_undo()
        elif key in ("d", "D"):
            self.do_done()
        elif key in ("r", "R"):
            self.do_roll()
        elif key == "Escape":
            if ctl.viewing is not None:
                self.go_live()
            elif ctl.picked is not None:
                ctl.click(ctl.picked)
                self.update()
        elif self.kb and key in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"):
            event.preventDefault()
            bottom = str(self.board.querySelector("svg").dataset.bottom or "white")
            rows = _rows(bottom)
            cur = ctl.focus if ctl.focus is not None else rows[1][-2]
            if cur in ("bar", "off"):
                r = getattr(self, "_last_row", 1)
            else:
                r = 0 if cur in rows[0] else 1
            c = rows[r].index(cur)
            if key == "ArrowLeft":
                c = max(0, c - 1)
            elif key == "ArrowRight":
                c = min(len(rows[r]) - 1, c + 1)
            elif key == "ArrowUp":
                r = 0
            else:
                r = 1
            self._last_row = r
            ctl.focus = rows[r][c]
            self.update()
        elif self.kb and key in ("Enter", " ") and ctl.focus is not None:
            event.preventDefault()
            if ctl.human_to_move and ctl.viewing is None:
                ctl.click(ctl.focus)
                self.after_action()

    # --------------------------------------------------------------- AI
    async def get_worker(self):
        if self.worker is None:
            self.worker = await workers["ai"]
        return self.worker

    async def animate(self, ctl, frames, pos, dice, opening=None):
        """Show a play step by step, each checker gliding to its point."""
        s = ctl.settings
        bottom = s.color if s.mode == "ai" else pos.turn
        self.animating = True
        try:
            for f in frames:
                if ctl is not self.ctl:
                    return
                if ctl.viewing is None:
                    v = View(bottom=bottom, dice=dice, dice_left=f.dice_left, me=s.color if s.mode == "ai" else None,
                             moved=f.moved, turn=pos.turn, position_id=pos.id, opening=opening,
                             extra={"phase": "animating"})
                    self.rendering = True
                    self.board.innerHTML = render_board(f.position, v)
                    self.rendering = False
                await asyncio.sleep(0.42)
        finally:
            self.animating = False

    async def show_auto_play(self, ctl):
        """A forced play was made for the player: let them see it, then go on."""
        pos, dice, frames = ctl.auto[:3]
        ctl.auto = None
        await self.animate(ctl, frames, pos, dice)
        if ctl is self.ctl:
            self.update()
            self.kick_ai()

    async def ai_notation(self, pos, d1, d2, s):
        """The computer's play, from its worker; if the worker cannot answer,
        a simple legal-move player on this thread keeps the game going."""
        try:
            worker = await asyncio.wait_for(self.get_worker(), 90)
            return str(await worker.choose(pos.id, pos.turn, d1, d2, s.level, s.seed if s.seed is not None else ""))
        except asyncio.CancelledError:
            raise
        except Exception as err:
            js.console.warn(f"AI worker unavailable ({err!r}); using the simple player")
            return autoplay.choose(pos.id, pos.turn, d1, d2, s.level, s.seed)

    def kick_ai(self):
        if self.ctl.phase == "ai" and (self.ai_task is None or self.ai_task.done()):
            self.ai_task = asyncio.ensure_future(self.ai_loop(self.ctl))

    def cancel_ai(self):
        if self.ai_task is not None and not self.ai_task.done():
            self.ai_task.cancel()
        self.ai_task = None
        self.animating = False

    async def ai_loop(self, ctl):
        pause = 0 if self.reduced else 0.35
        try:
            while ctl is self.ctl and ctl.phase == "ai":
                if ctl.ai_needs_roll():
                    await asyncio.sleep(pause)
                    ctl.ai_roll()
                    self.update()
                    self.save()
                self.status.textContent = " ".join(self.recent[-2:] + [f"The computer is thinking about {dice_text(ctl.game.dice)}…"])
                pos = ctl.game.position
                d1, d2 = ctl.game.dice
                s = ctl.settings
                notation = await self.ai_notation(pos, d1, d2, s)
                if ctl is not self.ctl:
                    return
                await asyncio.sleep(pause)
                opening = ctl.opening
                frames = ctl.ai_play(notation)
                self.save()
                if frames and not self.reduced:
                    await self.animate(ctl, frames, pos, (d1, d2), opening)
                self.update()
        except asyncio.CancelledError:
            raise
        except Exception as err:
            self.animating = False
            js.console.error(f"AI turn failed: {err!r}")
            self.status.textContent = f"The computer could not move ({err.__class__.__name__}). Start a new game."
        finally:
            self.animating = False


app = App()
app.start()
