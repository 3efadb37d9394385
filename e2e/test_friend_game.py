"""Friend games end to end: two browser contexts (two players' browsers) connect
through the invite and reply links exactly as players would, over a real WebRTC
data channel on loopback (no ICE servers: ``ice=none``), and play.

- a complete game through the UI (Roll and Done buttons; the test hook
  ``bgFriendTest.choose()`` only picks the moves, made through the same
  controller calls as clicks); both boards agree after every roll and play;
- names are text, never HTML; each side sees its own home bottom-right;
- tampering from one page (forged illegal play, forged dice, malformed JSON,
  oversized message, a chat with markup, a reveal not matching its
  commitment): refused, reported on both sides, the game goes on or stops;
- reconnecting: one side's tab is closed mid-game, fresh links, same position,
  the game is finished; a reload of a tab restores the game.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parent.parent

from engine import Position, to_absolute  # noqa: E402

from engine import TurnBuilder  # noqa: E402

BOARD = '[data-testid="board"]'
EVIL = '<img src=x onerror="window.pwned=1">'
EVIL_NAME = "<i>Bob</i><img src=x>"   # 21 characters: fits a name
CONNECT_MS = 90_000


# ------------------------------------------------------------------ helpers
class Log:
    def __init__(self):
        self.errors: list[str] = []

    def watch(self, context, who):
        def on_page(page):
            page.on("pageerror", lambda err: self.errors.append(f"{who} uncaught: {err}"))
            page.on("console", lambda m: self.errors.append(f"{who}: {m.text}")
                    if m.type == "error" and "SharedArrayBuffer" not in m.text else None)
        context.on("page", on_page)


@pytest.fixture
def players(browser, base_url, browser_context_args):
    """Two browsers: the host's and the friend's (separate storage, like two devices)."""
    log = Log()
    made = []

    def make(who: str, name: str, motion: str = "reduce"):
        ctx = browser.new_context(**{**browser_context_args, "base_url": base_url,
                                     "reduced_motion": motion})
        ctx.add_init_script(
            "try { if (!localStorage.getItem('bg.settings')) localStorage.setItem('bg.settings', "
            + json.dumps(json.dumps({"name": name})) + ") } catch (e) {}"
        )
        log.watch(ctx, who)
        made.append(ctx)
        return ctx

    yield make, log
    for ctx in made:
        ctx.close()


def attrs(page) -> dict:
    return page.evaluate(
        f"""() => {{ const b = document.querySelector('{BOARD}');
                    const p = document.getElementById('friend-panel');
                    return Object.assign({{}}, b ? b.dataset : {{}}, {{panel: p ? p.dataset.state : null}}); }}"""
    )


def notice(page) -> str:
    """The page's notice (a refused message, say), or "" when none is shown."""
    return page.inner_text("#notice") if page.is_visible("#notice") else ""


def hook_state(page) -> dict:
    return json.loads(page.evaluate("bgFriendTest.state()"))


def ice_state(page) -> list:
    """The page's ICE candidate pairs (which is selected, their states and bytes each
    way): what a failed connection test prints."""
    return page.evaluate("""async () => {
        const pc = bgFriendTest.pc();
        if (!pc) return [];
        const stats = await pc.getStats();
        const byId = {}; stats.forEach(s => { byId[s.id] = s; });
        let selected = null;
        stats.forEach(s => { if (s.type === 'transport') selected = s.selectedCandidatePairId; });
        const addr = id => { const c = byId[id]; return c ? `${c.address}:${c.port}/${c.candidateType}` : id; };
        const out = [];
        stats.forEach(s => { if (s.type === 'candidate-pair') out.push(
            `${s.id === selected ? '*' : ' '} ${addr(s.localCandidateId)} -> ${addr(s.remoteCandidateId)} `
            + `${s.state}${s.nominated ? ' nominated' : ''} sent ${s.bytesSent} recv ${s.bytesReceived}`); });
        return out;
    }""")


def wait_panel(page, state: str, timeout=CONNECT_MS):
    page.wait_for_selector(f'#friend-panel[data-state="{state}"]', state="attached", timeout=timeout)


def wait_reconnecting(page, timeout=CONNECT_MS):
    page.wait_for_function(
        "document.getElementById('friend-panel').textContent.toLowerCase().includes('reconnecting')", timeout=timeout)


def connect(host, guest_ctx, host_ctx, *, guest_page=None, paste=False):
    """The host's invite link -> the friend's page -> the reply link opened in the
    host's browser (or, ``paste``, the reply code pasted into the host's page)
    -> connected. Returns the friend's page."""
    host.wait_for_selector('[data-testid="invite-link"]', timeout=CONNECT_MS)
    invite = host.get_attribute('[data-testid="invite-link"]', "href")
    host.evaluate("(u) => { window.__firstInvite = window.__firstInvite || u; }", invite)
    assert "#join=" in invite and "mode=friend" in invite
    guest = guest_page or guest_ctx.new_page()
    guest.goto(invite)
    guest.wait_for_selector('[data-testid="reply-link"]', timeout=CONNECT_MS)
    reply = guest.get_attribute('[data-testid="reply-link"]', "href")
    assert "reply.html#r=" in reply
    assert guest.locator("text=Send this reply to your friend now").count() == 1
    if paste:
        code = guest.inner_text('[data-testid="reply-short-code"]')
        assert reply.endswith(code)
        host.fill('[data-testid="reply-code"]', code)
        host.click('.friend-paste button[type="submit"]')
    else:
        tab = host_ctx.new_page()
        tab.goto(reply)
        tab.wait_for_function("document.getElementById('reply-status').dataset.state === 'connected'", timeout=CONNECT_MS)
        assert "Connected" in tab.inner_text("#reply-status")
        tab.close()
    wait_panel(host, "connected")
    wait_panel(guest, "connected")
    return guest


def settled(page) -> bool:
    a = attrs(page)
    return a.get("phase") in ("roll", "move", "remote", "over", "stopped")


def wait_agree(host, guest, timeout=30.0) -> dict:
    """Both boards show the same position, turn and dice, neither is mid-exchange, and
    both pages have taken the other's greeting (``agreed``: not just the same saved game)."""
    t0 = time.monotonic()
    while True:
        a, b = attrs(host), attrs(guest)
        same = all(a.get(k) == b.get(k) for k in ("positionId", "turn", "dice"))
        calm = a.get("phase") not in ("rolling", "opening") and b.get("phase") not in ("rolling", "opening")
        mover_ready = True
        if same and calm:
            pages = {"white": (host, a), "black": (guest, b)}
            p, pa = pages[a["turn"]]
            other = b if p is host else a
            mover_ready = pa["phase"] in ("roll", "move", "over", "stopped") and other["phase"] in ("remote", "over", "stopped")
        if same and calm and mover_ready and all(hook_state(p).get("agreed") for p in (host, guest)):
            return a
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"boards disagree or stuck:\nhost {a}\nguest {b}\n"
                                 f"host notice {notice(host)!r}\nguest notice {notice(guest)!r}\n"
                                 f"host state {hook_state(host)} {ice_state(host)}\nguest state {hook_state(guest)} {ice_state(guest)}")
        time.sleep(0.05)


def play_by_clicks(p) -> None:
    """Make this page's moves by clicking points on the board; the highlighted
    destinations must be exactly the engine's."""
    a = attrs(p)
    turn = a["turn"]
    d1, d2 = (int(x) for x in a["dice"].split(","))
    ref = TurnBuilder(Position.from_id(a["positionId"], turn=turn), (d1, d2))
    while not p.is_enabled("#done"):
        src = sorted(ref.sources(), reverse=True)[0]
        p.click(f'{BOARD} [data-point="{to_absolute(turn, src)}"]')
        lit = p.eval_on_selector_all(f'{BOARD} [data-legal="true"]', "els => els.map(e => e.dataset.point)")
        assert set(lit) == {str(to_absolute(turn, d)) for d in ref.destinations(src)}
        dst = sorted(ref.destinations(src), reverse=True)[0]
        p.click(f'{BOARD} [data-point="{to_absolute(turn, dst)}"]')
        ref.move(src, dst)


def take_turn(host, guest, *, clicks=False) -> str:
    """The player on turn rolls (UI button) and plays (hook picks, or clicks on
    the board; Done button)."""
    a = wait_agree(host, guest)
    if a["phase"] == "over" or a.get("panel") == "stopped":
        return "over"
    p = host if a["turn"] == "white" else guest
    pa = attrs(p)
    if pa["phase"] == "roll":
        p.click("#roll")
        wait_agree(host, guest)
        pa = attrs(p)
    if pa["phase"] == "move":
        # the board offers exactly the engine's legal sources/destinations: spot-check one pick
        if clicks:
            play_by_clicks(p)
        else:
            p.evaluate("bgFriendTest.choose()")
        assert p.is_enabled("#done")
        p.click("#done")
    return "played"


def play_to_end(host, guest, max_turns=400, *, stop_after=None, clicks=0) -> int:
    n = 0
    while n < max_turns:
        if take_turn(host, guest, clicks=n < clicks) == "over":
            return n
        n += 1
        a, b = wait_agree(host, guest), attrs(guest)
        assert a["positionId"] == b["positionId"], (a, b)
        if stop_after is not None and n >= stop_after:
            return n
    raise AssertionError("the game did not end")


def play_until_black_moves(host, guest, tries=60) -> None:
    """Play on until the friend (Black) is to move with the dice on the table."""
    for _ in range(tries):
        a = wait_agree(host, guest)
        if a["turn"] == "black" and attrs(guest)["phase"] == "move":
            return
        if a["turn"] == "black" and attrs(guest)["phase"] == "roll":
            guest.click("#roll")
            continue
        take_turn(host, guest)
    pytest.fail("black never had a move to make with these seeded dice")


def wait_name(page, name: str, log=None) -> None:
    """Wait (up to 15 s) until the friend's name shown starts with ``name``;
    if it never does, fail with what the friend panel and status said."""
    try:
        page.wait_for_function(
            "n => { const e = document.querySelector('[data-testid=\"friend-name\"]');"
            " return !!e && e.innerText.startsWith(n); }", arg=name, timeout=15_000)
    except PlaywrightTimeout:
        shown = page.evaluate("""() => ['#friend-panel', '#status', '#notice'].map(
            s => { const e = document.querySelector(s); return s + ': ' + (e ? e.innerText : '(none)'); })""")
        pytest.fail(f"the friend's name {name!r} was not shown within 15 s; the page showed {shown}; "
                    f"its state: {hook_state(page)}; its ICE pairs: {ice_state(page)}; page errors: {log.errors if log else '(not watched)'}")


def start_pair(players, wait_ready, host_name="Ann", guest_name="Bob", host_motion="reduce"):
    make, log = players
    hctx, gctx = make("host", host_name, host_motion), make("guest", guest_name)
    host = hctx.new_page()
    host.goto("index.html?mode=friend&ice=none&relay=none")   # the links only (the relays: test_friend_relay.py)
    wait_ready(host)
    guest = connect(host, gctx, hctx)
    wait_ready(guest)
    return host, guest, hctx, gctx, log


# ------------------------------------------------------------------ tests
def test_complete_friend_game_through_the_links(players, wait_ready, shoot):
    host, guest, hctx, gctx, log = start_pair(players, wait_ready, "Ann", EVIL_NAME)
    # colours, orientation (own home bottom-right), names as text
    ha, ga = attrs(host), attrs(guest)
    assert ha["me"] == "white" and ga["me"] == "black"
    assert ha["bottom"] == "white" and ga["bottom"] == "black"   # own home bottom-right
    # the names arrive over the data channel, possibly just after "connected"
    wait_name(host, EVIL_NAME, log)
    assert host.locator('[data-testid="friend-name"]').inner_text().startswith(EVIL_NAME)
    assert host.evaluate("document.querySelectorAll('#friend-panel img, #friend-panel i').length") == 0
    wait_name(guest, "Ann", log)
    assert guest.locator('[data-testid="friend-name"]').inner_text().startswith("Ann")
    assert host.evaluate("window.pwned") is None
    # the opening roll came from the fair exchange and both agree on it
    a = wait_agree(host, guest)
    assert a["dice"] and hook_state(host)["dice"] == hook_state(guest)["dice"]
    shoot(host, "friend-host-start")
    shoot(guest, "friend-guest-start")
    turns = play_to_end(host, guest, clicks=6)   # the first turns by clicking points, then the hook
    assert turns > 10
    for p in (host, guest):
        p.wait_for_selector('[data-testid="result"]:not([hidden])', timeout=10_000)
    rh = host.evaluate("Object.assign({}, document.querySelector('[data-testid=result]').dataset)")
    rg = guest.evaluate("Object.assign({}, document.querySelector('[data-testid=result]').dataset)")
    assert rh == rg and rh["winner"] in ("white", "black") and rh["kind"] in ("single", "gammon", "backgammon")
    winner_page = host if rh["winner"] == "white" else guest
    assert "You win" in winner_page.inner_text("#result-text")
    assert "no leaderboard points" in host.inner_text("#result-text")
    # no leaderboard points for friend games
    for p in (host, guest):
        assert "No wins yet" in p.inner_text("#leaderboard")
    shoot(host, "friend-host-over")
    assert host.evaluate("window.pwned") is None and guest.evaluate("window.pwned") is None
    # a rematch needs both players; then a new fair opening roll
    host.click("#rematch")
    guest.wait_for_function("document.getElementById('status').textContent.includes('wants a rematch')", timeout=10_000)
    guest.click("#rematch")
    a = wait_agree(host, guest)
    assert hook_state(host)["game_no"] == hook_state(guest)["game_no"] == 2
    assert a["dice"] and not host.is_visible('[data-testid="result"]')
    # resigning (after a confirmation) gives the friend the game, shown on both sides
    host.once("dialog", lambda d: d.accept())
    host.click("#friend-panel >> text=Resign")
    for p in (host, guest):
        p.wait_for_selector('[data-testid="result"]:not([hidden])', timeout=10_000)
        assert "by resignation" in p.inner_text("#result-text")
    assert guest.get_attribute('[data-testid="result"]', "data-winner") == "black"
    assert "You win" in guest.inner_text("#result-text")
    assert not log.errors, log.errors


def _forge(page, msg: dict, numbered=True) -> None:
    seq = hook_state(page)["next_seq"]
    page.evaluate("([t, n]) => bgFriendTest.sendRaw(t, n)", [json.dumps({"v": 1, "seq": seq, **msg}), numbered])


def test_tampering_is_refused_and_reported(players, wait_ready, shoot):
    # the host's browser shows the friend's plays animated (no reduced motion)
    host, guest, hctx, gctx, log = start_pair(players, wait_ready, host_motion="no-preference")
    play_until_black_moves(host, guest)
    before = attrs(host)
    st = hook_state(host)
    d1, d2 = st["dice"]
    pos = Position.from_id(before["positionId"], turn="black")
    turn = st["turns"]

    # 1. a forged illegal play
    _forge(guest, {"t": "play", "game": 1, "turn": turn, "dice": [d1, d2], "move": "24/1", "pos": pos.swap().id})
    host.wait_for_function("document.getElementById('notice').textContent.includes('not legal')", timeout=10_000)
    assert attrs(host)["positionId"] == before["positionId"]
    guest.wait_for_function("document.getElementById('notice').textContent.includes('refused a message')", timeout=10_000)

    # 2. a forged dice value (a legal play for dice that were not rolled)
    fake = (6, 6) if sorted((d1, d2)) != [6, 6] else (5, 5)
    plays = pos.legal_plays(*fake)
    if plays:
        _forge(guest, {"t": "play", "game": 1, "turn": turn, "dice": list(fake), "move": plays[0].notation,
                       "pos": plays[0].next.id})
        host.wait_for_function("document.getElementById('notice').textContent.includes('fair roll was')", timeout=10_000)
        assert attrs(host)["positionId"] == before["positionId"]

    # 3. malformed JSON, 4. an oversized message, 5. markup in a chat line
    guest.evaluate("bgFriendTest.sendRaw('{\"v\": 1, \"t\": \"play\", oops', false)")
    host.wait_for_function("document.getElementById('notice').textContent.includes('not valid JSON')", timeout=10_000)
    guest.evaluate("([t]) => bgFriendTest.sendRaw(t, false)", [json.dumps({"v": 1, "t": "chat", "seq": 1, "text": "x" * 5000})])
    host.wait_for_function("document.getElementById('notice').textContent.includes('2048')", timeout=10_000)
    _forge(guest, {"t": "chat", "text": EVIL})
    host.wait_for_function(f"document.getElementById('status').textContent.includes({json.dumps(EVIL)})", timeout=10_000)
    assert EVIL in host.inner_text('[data-testid="chat-log"]')
    # the chat box sends plain text the other way
    host.fill('[data-testid="chat-input"]', "nice try <b>Bob</b>")
    host.press('[data-testid="chat-input"]', "Enter")
    guest.wait_for_function("document.querySelector('[data-testid=chat-log]').textContent.includes('nice try <b>Bob</b>')", timeout=10_000)
    assert guest.evaluate("document.querySelectorAll('#friend-chat b').length") == 1  # only our own "Ann: " label
    assert host.evaluate("document.querySelectorAll('img').length") == 0
    assert host.evaluate("window.pwned") is None
    assert attrs(host)["positionId"] == before["positionId"] and hook_state(host)["stopped"] is None
    shoot(host, "friend-tamper-refused")

    # the game goes on: the friend's real play is accepted
    guest.evaluate("bgFriendTest.choose()")
    guest.click("#done")
    host.wait_for_function("document.querySelector('[data-testid=board]').dataset.phase === 'animating'", timeout=10_000)
    a = wait_agree(host, guest)
    assert a["turn"] == "white"

    # 6. a dice secret that does not match its commitment stops the game
    for _ in range(60):
        a = wait_agree(host, guest)
        if a["turn"] == "black" and attrs(guest)["phase"] == "roll":
            break
        take_turn(host, guest)
    st = hook_state(guest)
    roll = st["turns"]
    secret, other = "11" * 32, "22" * 32
    import hashlib

    commit = hashlib.sha256(bytes.fromhex(secret)).hexdigest()
    _forge(guest, {"t": "commit", "game": 1, "roll": roll, "hash": commit})
    host.wait_for_function("JSON.parse(bgFriendTest.state()).phase === 'remote'", timeout=10_000)
    time.sleep(0.5)  # the host answers with its commitment and secret
    _forge(guest, {"t": "reveal", "game": 1, "roll": roll, "secret": other})
    wait_panel(host, "stopped", 10_000)
    assert "does not match" in host.inner_text("#friend-panel")
    guest.wait_for_function("document.getElementById('notice').textContent.includes('does not match')", timeout=10_000)
    assert attrs(host)["positionId"] == a["positionId"] and attrs(host)["dice"] == ""
    shoot(host, "friend-tamper-stopped")
    assert host.evaluate("window.pwned") is None


def test_reconnect_with_fresh_links_and_reload(players, wait_ready, shoot):
    host, guest, hctx, gctx, log = start_pair(players, wait_ready)
    first_invite = host.evaluate("window.__firstInvite")
    play_to_end(host, guest, stop_after=8)
    before = wait_agree(host, guest)
    turns = hook_state(host)["turns"]

    # the friend's tab is closed mid-game: the host sees "reconnecting" and a fresh invite
    guest.close()
    wait_reconnecting(host)
    host.wait_for_selector('[data-testid="invite-link"]', timeout=CONNECT_MS)
    # the friend opens the fresh link in a new tab: the saved game is picked up
    guest = connect(host, gctx, hctx)
    after = wait_agree(host, guest)
    assert (after["positionId"], after["turn"]) == (before["positionId"], before["turn"])
    assert hook_state(guest)["turns"] == turns and hook_state(guest)["me"] == "black"
    play_to_end(host, guest, stop_after=4)

    # the host reloads its tab: the game is restored from storage, and a new pair of links reconnects
    mid = wait_agree(host, guest)
    host.reload()
    wait_ready(host)
    assert attrs(host)["positionId"] == mid["positionId"]
    wait_reconnecting(guest)
    host.wait_for_selector('[data-testid="invite-link"]', timeout=CONNECT_MS)
    # a stale reply (to an invite made before the reload) is refused with an explanation
    old = gctx.new_page()
    old.goto(first_invite)
    old.wait_for_selector('[data-testid="reply-link"]', timeout=CONNECT_MS)
    stale_reply = old.get_attribute('[data-testid="reply-link"]', "href")
    old.close()
    tab = hctx.new_page()
    tab.goto(stale_reply)
    tab.wait_for_function("document.getElementById('reply-status').dataset.state === 'refused'", timeout=CONNECT_MS)
    assert "older invite link" in tab.inner_text("#reply-status")
    tab.close()
    # the new pair of links, with the reply code pasted by hand this time
    guest = connect(host, gctx, hctx, guest_page=guest, paste=True)
    again = wait_agree(host, guest)
    assert again["positionId"] == mid["positionId"]
    shoot(host, "friend-reconnected")
    play_to_end(host, guest)
    for p in (host, guest):
        p.wait_for_selector('[data-testid="result"]:not([hidden])', timeout=10_000)


def test_invite_from_the_form_and_a_connection_that_cannot_be_made(players, wait_ready):
    """"A friend, on another device" in the New game form makes an invite (with the
    default public STUN servers, unreachable here: gathering is capped); a reply
    whose addresses cannot be reached ends in a clear explanation and a way on."""
    from webui import sdp
    from webui.friend_params import parse_fragment

    make, log = players
    ctx = make("host", "Ann")
    host = ctx.new_page()
    host.goto("index.html")
    wait_ready(host)
    host.select_option("#opt-mode", "friend")
    host.click("#new-game")
    host.wait_for_selector('[data-testid="invite-link"]', timeout=CONNECT_MS)
    invite = host.get_attribute('[data-testid="invite-link"]', "href")
    assert "mode=friend" in host.url and "room=" in host.url
    code, secret = parse_fragment(invite.split("#", 1)[1])   # the offer, and the relays' secret
    assert secret is not None
    offer = sdp.decode(code)
    assert offer.kind == "offer" and offer.role == "white"
    host.wait_for_selector('[data-testid="invite-qr"] svg', timeout=10_000)
    # a well-formed reply from addresses nobody answers at (TEST-NET-1)
    reply = sdp.Signal("answer", "abcd", "p" * 24, bytes(32), "active",
                       (sdp.Candidate("192.0.2.1", 9),), room=offer.room, nonce=offer.nonce,
                       created=offer.created, role="black")
    # a damaged code first: refused with a reason, nothing else happens
    host.fill('[data-testid="reply-code"]', "not-a-code!")
    host.click('.friend-paste button[type="submit"]')
    host.wait_for_function("document.getElementById('friend-panel').textContent.includes('cannot be used')", timeout=10_000)
    host.fill('[data-testid="reply-code"]', sdp.encode(reply))
    host.click('.friend-paste button[type="submit"]')
    wait_panel(host, "failed", 60_000)
    text = host.inner_text("#friend-panel")
    assert "Could not connect" in text and "same Wi-Fi" in text and "hotspot" in text
    host.click("text=New invite link")
    host.wait_for_selector('[data-testid="invite-link"]', timeout=CONNECT_MS)
    assert host.get_attribute('[data-testid="invite-link"]', "href") != invite
    # leaving for a game against the computer closes the friend game
    host.select_option("#opt-mode", "ai")
    host.click("#new-game")
    host.wait_for_selector("#friend-panel", state="detached", timeout=10_000)
    assert attrs(host).get("me") == "white" and "friend-game" not in host.get_attribute("body", "class")


def test_the_reply_tab_stays_connected_when_the_ack_comes_last(players):
    """The game tab may post "connected" before its "answer-ack" (the channel can open
    before the coroutine that applied the reply resumes; CI saw it): the reply tab
    keeps saying Connected, not "Connecting…"."""
    make, _ = players
    ctx = make("host", "Ann")
    game = ctx.new_page()          # stands in for the game tab: answers on the same channel
    game.goto("reply.html")        # any page of the site, for its origin
    game.evaluate("""() => { window.__bc = new BroadcastChannel('bg-friend');
        window.__bc.onmessage = (e) => { if (e.data && e.data.type === 'answer') {
            window.__bc.postMessage({type: 'connected', id: e.data.id});
            window.__bc.postMessage({type: 'answer-ack', id: e.data.id, ok: true, text: ''}); } }; }""")
    tab = ctx.new_page()
    tab.goto("reply.html#r=" + "A" * 40)
    tab.wait_for_function("document.getElementById('reply-status').dataset.state === 'connected'", timeout=10_000)
    tab.wait_for_timeout(500)      # the ack has long arrived
    assert tab.get_attribute("#reply-status", "data-state") == "connected"
    assert "Connected" in tab.inner_text("#reply-status")
