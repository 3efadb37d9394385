"""One-link friend games: the friend joins from the invite link alone, the two
pages meeting on a real Nostr relay started on loopback (PyPI ``nostr-relay``,
see e2e/nostr_relay.py), then playing over WebRTC as in test_friend_game.py.

- two browser contexts connect from the invite link alone (no reply link, no
  code) and play a complete game through the UI, both boards agreeing after
  every play; the time from opening the invite to "connected" is printed;
- a third context opening the same link is told the room is full, and the game
  goes on unchanged; the friend's reload, and the first invite link opened again
  after a closed tab, reconnect through the relay alone; so does a reload whose
  first attempt to reconnect goes nowhere (a new offer replaces it);
- the relay down: both pages say why and the invite/reply links work;
- several relays at once (one down, one behind a meddling proxy, one plain);
  a relay that changes, replays and duplicates messages (a proxy) connects the
  right two pages (their DTLS fingerprints are each other's), and one that only
  delivers changed messages connects nobody: the friend falls back to the reply
  link; a forged play over the channel is refused as today.

The pages run under netlify.toml's policy with the loopback relays added to
``connect-src`` (tools/serve.py's ``connect_src``), as a deployment whose
``relay=`` names other relays needs.
"""

from __future__ import annotations

import json
import time

import pytest

import nostr_relay
import serve
from test_friend_game import (CONNECT_MS, Log, _forge, attrs, connect, hook_state, play_to_end,
                              play_until_black_moves, wait_agree, wait_name, wait_panel)

from engine import Position  # noqa: E402

pytestmark = pytest.mark.skipif(nostr_relay.relay_command() is None, reason="nostr-relay not installed "
                                "(requirements-dev.txt pins it): these tests need a relay")


@pytest.fixture(scope="module")
def relay(tmp_path_factory):
    proc, url = nostr_relay.start_relay(tmp_path_factory.mktemp("relay"))
    yield url
    nostr_relay.stop(proc)


@pytest.fixture(scope="module")
def relay_site(site_dir):
    """The site, with the policy's connect-src allowing loopback relays on any port."""
    server, url = serve.serve_in_thread(site_dir, connect_src=["ws://127.0.0.1:*"])
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture
def people(browser, relay_site, browser_context_args):
    log = Log()
    made = []

    def make(who: str, name: str):
        ctx = browser.new_context(**{**browser_context_args, "base_url": relay_site, "reduced_motion": "reduce"})
        ctx.add_init_script(
            "try { if (!localStorage.getItem('bg.settings')) localStorage.setItem('bg.settings', "
            + json.dumps(json.dumps({"name": name})) + ") } catch (e) {}")
        ctx.on("console", lambda m: log.errors.append(f"{who}: {m.text}") if m.type == "error" else None)
        ctx.on("weberror", lambda e: log.errors.append(f"{who} uncaught: {e.error}"))
        made.append(ctx)
        return ctx

    yield make, log
    for ctx in made:
        ctx.close()


def host_page(make, wait_ready, relay_url, name="Ann"):
    ctx = make("host", name)
    host = ctx.new_page()
    host.goto(f"index.html?mode=friend&ice=none&relay={relay_url}")
    wait_ready(host)
    host.wait_for_selector('[data-testid="invite-link"]', timeout=CONNECT_MS)
    return host, ctx


def invite_of(host) -> str:
    invite = host.get_attribute('[data-testid="invite-link"]', "href")
    assert "#join=" in invite and "&k=" in invite and "relay=ws" in invite
    return invite


def wait_connected(page, *others, timeout=CONNECT_MS):
    """Connected, or fail with what each page's connection went through."""
    try:
        wait_panel(page, "connected", timeout)
    except Exception:
        states = [hook_state(p) for p in (page,) + others]
        pytest.fail("not connected:\n" + "\n".join(json.dumps(st) for st in states))


def join(ctx, invite, wait_ready, host=None):
    """The friend opens the invite link: connected, with no reply link ever shown. Returns (page, seconds)."""
    page = ctx.new_page()
    page.add_init_script("window.__replySeen = false; new MutationObserver(() => { if "
                         "(document.querySelector('[data-testid=\"reply-link\"]')) window.__replySeen = true; })"
                         ".observe(document, {subtree: true, childList: true});")
    t0 = time.monotonic()
    page.goto(invite)
    wait_connected(page, *([host] if host else []))
    took = time.monotonic() - t0
    wait_ready(page)
    assert page.evaluate("window.__replySeen") is False, "a reply link was shown"
    return page, took


def fingerprints(page) -> dict:
    return page.evaluate("""() => { const pc = bgFriendTest.pc();
        const fp = s => (s.match(/a=fingerprint:\\S+ (\\S+)/) || [])[1];
        return {local: fp(pc.localDescription.sdp), remote: fp(pc.remoteDescription.sdp)}; }""")


def assert_fingerprints_paired(host, guest):
    """Each page's peer connection expects the other's DTLS certificate, and no other."""
    h, g = fingerprints(host), fingerprints(guest)
    assert h["local"] and g["local"] and h["local"] != g["local"]
    assert h["remote"] == g["local"] and g["remote"] == h["local"], (h, g)


def assert_paired(host, guest):
    assert_fingerprints_paired(host, guest)
    hs, gs = hook_state(host), hook_state(guest)
    assert hs["peer_tab"] == gs["tab"] and gs["peer_tab"] == hs["tab"], (hs, gs)


def test_the_friend_joins_from_the_invite_alone_and_they_play(people, relay, wait_ready, shoot):
    make, log = people
    host, hctx = host_page(make, wait_ready, relay)
    host.wait_for_function("document.getElementById('friend-panel').textContent.includes('starts as soon as')",
                           timeout=10_000)
    host.wait_for_function("document.getElementById('status').textContent.includes('invite link is ready')",
                           timeout=10_000)
    assert "starts as soon as they open it" in host.inner_text("#status")
    shoot(host, "friend-relay-invite")
    invite = invite_of(host)
    gctx = make("guest", "Bob")
    guest, took = join(gctx, invite, wait_ready, host)
    print(f"\nopening the invite -> connected over the loopback relay: {took:.2f} s "
          f"(of which the page's Python start -> connected: {hook_state(guest)['connected_ms'] / 1000:.2f} s)")
    wait_panel(host, "connected")
    assert_paired(host, guest)
    wait_name(host, "Bob", log)
    wait_name(guest, "Ann", log)
    shoot(guest, "friend-relay-connected")

    # a third browser with the same link: the room is full, nothing changes
    before = wait_agree(host, guest)
    third = make("third", "Eve").new_page()
    third.goto(invite)
    wait_panel(third, "full", 30_000)
    assert "room is full" in third.inner_text("#friend-panel")
    third.wait_for_function("document.getElementById('status').textContent.includes('room is full')", timeout=10_000)
    shoot(third, "friend-relay-full")
    time.sleep(1.0)
    assert hook_state(host)["state"] == "connected" and hook_state(guest)["state"] == "connected"
    assert attrs(host)["positionId"] == before["positionId"] and attrs(guest)["positionId"] == before["positionId"]
    assert_paired(host, guest)
    third.close()

    # a few turns, then the friend reloads: the pages find each other on the relay again
    play_to_end(host, guest, stop_after=6)
    mid = wait_agree(host, guest)
    guest.reload()
    wait_ready(guest)
    t0 = time.monotonic()
    wait_panel(guest, "connected")
    wait_panel(host, "connected")
    print(f"reload -> reconnected over the relay: {time.monotonic() - t0:.2f} s")
    again = wait_agree(host, guest)
    assert (again["positionId"], again["turn"]) == (mid["positionId"], mid["turn"])
    assert_paired(host, guest)

    # the friend closes the tab and opens the very first invite link again: its offer is
    # long gone, but the saved game and the relay bring the pages together
    play_to_end(host, guest, stop_after=2)
    mid = wait_agree(host, guest)
    guest.close()
    host.wait_for_function("document.getElementById('friend-panel').textContent.includes('reconnecting')",
                           timeout=CONNECT_MS)
    guest, took = join(gctx, invite, wait_ready, host)
    print(f"the first invite link again, after a closed tab -> reconnected: {took:.2f} s")
    again = wait_agree(host, guest)
    assert (again["positionId"], again["turn"]) == (mid["positionId"], mid["turn"])
    assert_paired(host, guest)

    # the rest of the game, both boards agreeing after every play
    turns = play_to_end(host, guest)
    assert turns >= 1
    for p in (host, guest):
        p.wait_for_selector('[data-testid="result"]:not([hidden])', timeout=10_000)
    rh = host.evaluate("Object.assign({}, document.querySelector('[data-testid=result]').dataset)")
    rg = guest.evaluate("Object.assign({}, document.querySelector('[data-testid=result]').dataset)")
    assert rh == rg and rh["winner"] in ("white", "black")
    relay_errors = [e for e in log.errors if "third" not in e]
    assert not relay_errors, relay_errors


DROP_ANSWERS = """n => { window.__dropped = 0; window.__toDrop = n;
    const apply = RTCPeerConnection.prototype.setRemoteDescription;
    RTCPeerConnection.prototype.setRemoteDescription = function (d) {
      if (d && d.type === 'answer' && window.__toDrop > 0) {
        window.__toDrop -= 1; window.__dropped += 1; return Promise.resolve(); }
      return apply.apply(this, arguments); }; }"""


def test_a_reconnect_attempt_that_brings_no_connection_is_made_again(people, relay, wait_ready):
    """The friend reloads and the first attempt to reconnect goes nowhere (the host's browser
    swallows the answer: both pages wait on an attempt that cannot connect). The page that
    answered makes a new offer through the relays, the host takes it in place of the stuck
    attempt, and the game goes on: no reply link, no dead end."""
    make, log = people
    host, hctx = host_page(make, wait_ready, relay)
    gctx = make("guest", "Bob")
    guest, _ = join(gctx, invite_of(host), wait_ready, host)
    wait_panel(host, "connected")
    wait_name(host, "Bob", log)
    play_to_end(host, guest, stop_after=2)
    mid = wait_agree(host, guest)
    host.evaluate(DROP_ANSWERS, 1)
    guest.reload()
    wait_ready(guest)
    t0 = time.monotonic()
    wait_connected(guest, host)
    wait_connected(host, guest)
    took = time.monotonic() - t0
    print(f"\nreload, the first attempt swallowed -> reconnected by a new offer: {took:.2f} s")
    assert host.evaluate("window.__dropped") == 1
    hs, gs = hook_state(host), hook_state(guest)
    retried = [e for _, e in hs["trace"] + gs["trace"] if e.startswith("retry ")]
    assert retried, (hs["trace"], gs["trace"])
    again = wait_agree(host, guest)
    assert (again["positionId"], again["turn"]) == (mid["positionId"], mid["turn"])
    assert_paired(host, guest)
    assert guest.query_selector('[data-testid="reply-link"]') is None
    play_to_end(host, guest, stop_after=2)
    assert not log.errors, log.errors


SWALLOW_GREETING = """window.__swallowed = 0;
    const send = RTCDataChannel.prototype.send;
    RTCDataChannel.prototype.send = function (data) {
      if (window.__swallowed === 0 && typeof data === 'string' && data.includes('"t":"hello"')) {
        window.__swallowed = 1; return; }
      return send.apply(this, arguments); };"""


def test_a_connection_whose_greeting_never_comes_is_made_again(people, relay, wait_ready):
    """The channel opens but the friend's greeting never arrives (the friend's browser swallows
    it, as Chromium once kept one in its send buffer for 30 s in CI): within
    GREETING_WAIT_S the host drops the stalled connection, both pages meet on the relay
    again, greet, and play: no reply link, no dead end."""
    make, log = people
    host, hctx = host_page(make, wait_ready, relay)
    gctx = make("guest", "Bob")
    gctx.add_init_script(SWALLOW_GREETING)
    t0 = time.monotonic()
    guest, _ = join(gctx, invite_of(host), wait_ready, host)
    assert guest.evaluate("window.__swallowed") == 1
    host.wait_for_function("JSON.parse(bgFriendTest.state()).stalled === 1", timeout=CONNECT_MS)
    wait_connected(host, guest)
    wait_connected(guest, host)
    wait_name(host, "Bob", log)
    took = time.monotonic() - t0
    print(f"\nthe greeting swallowed -> dropped and reconnected: {took:.2f} s")
    hs, gs = hook_state(host), hook_state(guest)
    assert any(e.startswith("no greeting") for _, e in hs["trace"]), hs["trace"]
    assert gs["stalled"] == 0 and hs["agreed"] and gs["agreed"]
    assert_paired(host, guest)
    assert guest.query_selector('[data-testid="reply-link"]') is None
    play_to_end(host, guest, stop_after=2)
    assert not log.errors, log.errors


def test_relay_down_falls_back_to_the_links(people, wait_ready):
    make, log = people
    dead = f"ws://127.0.0.1:{nostr_relay.free_port()}"      # nothing listens there
    host, hctx = host_page(make, wait_ready, dead)
    host.wait_for_selector('[data-testid="relay-note"]', timeout=15_000)
    note = host.inner_text('[data-testid="relay-note"]')
    assert "relays could not be reached" in note and "reply link" in note
    assert "2. They open it and send you back a reply link" in host.inner_text("#friend-panel")
    host.wait_for_function("document.getElementById('status').textContent.includes('reply link they send back')",
                           timeout=10_000)
    gctx = make("guest", "Bob")
    gctx.add_init_script("window.__relayNote = ''; new MutationObserver(() => { const n = document.querySelector("
                         "'[data-testid=\"relay-note\"]'); if (n) window.__relayNote = n.textContent; })"
                         ".observe(document, {subtree: true, childList: true});")
    guest = connect(host, gctx, hctx)          # the invite, the reply link opened in the host's browser
    assert "relays could not be reached" in guest.evaluate("window.__relayNote")   # shown with the reply link
    assert hook_state(guest)["relay"] == "down" and hook_state(host)["relay"] == "down"
    wait_ready(guest)
    play_to_end(host, guest, stop_after=2)


def test_a_meddling_relay_connects_the_right_pages_only(people, relay, wait_ready):
    make, log = people
    proxy = nostr_relay.Proxy(relay, "meddle")
    dead = f"ws://127.0.0.1:{nostr_relay.free_port()}"
    try:
        # three relays at once: the meddling proxy, the real relay behind it (every genuine
        # message arrives twice, by both ways, and counts once) and one that is down
        host, hctx = host_page(make, wait_ready, f"{proxy.url},{relay},{dead}")
        guest, took = join(make("guest", "Bob"), invite_of(host), wait_ready, host)
        print(f"\nopening the invite -> connected through the meddling proxy: {took:.2f} s; proxy {proxy.seen}")
        wait_panel(host, "connected")
        assert_paired(host, guest)
        assert proxy.seen["changed"] > 0 and proxy.seen["replayed"] > 0
        # changed messages fail to open on the page they reach (none was taken: the pages are
        # paired with each other above). Not every changed message is opened: one addressed to
        # another page, or arriving once a page has connected and stopped listening, is
        # dropped unopened (in one CI run 10 of 12 were opened and refused), so the count is
        # at most the proxy's and never zero.
        deadline = time.monotonic() + 5
        while True:
            rejected = hook_state(host)["relays"]["rejected"] + hook_state(guest)["relays"]["rejected"]
            if rejected == proxy.seen["changed"] or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert 0 < rejected <= proxy.seen["changed"], (rejected, proxy.seen)
        for p in (host, guest):
            status = hook_state(p)["relays"]
            assert len(status["open"]) == 2 and [u.rstrip("/") for u in status["failed"]] == [dead], status
        # a forged play over the channel is refused as today
        play_until_black_moves(host, guest)
        before = attrs(host)
        st = hook_state(host)
        pos = Position.from_id(before["positionId"], turn="black")
        _forge(guest, {"t": "play", "game": 1, "turn": st["turns"], "dice": st["dice"], "move": "24/1",
                       "pos": pos.swap().id})
        host.wait_for_function("document.getElementById('notice').textContent.includes('not legal')", timeout=10_000)
        assert attrs(host)["positionId"] == before["positionId"]
    finally:
        proxy.close()


def test_a_relay_that_changes_every_message_connects_nobody(people, relay, wait_ready):
    make, log = people
    proxy = nostr_relay.Proxy(relay, "tamper")
    try:
        host, hctx = host_page(make, wait_ready, proxy.url)
        gctx = make("guest", "Bob")
        guest = gctx.new_page()
        guest.goto(invite_of(host))
        guest.wait_for_selector('[data-testid="reply-link"]', timeout=CONNECT_MS)
        assert "did not answer through the relays" in guest.inner_text('[data-testid="relay-note"]')
        assert hook_state(host)["state"] == "inviting" and hook_state(host)["peer_tab"] is None
        assert hook_state(host)["relays"]["rejected"] > 0 and hook_state(guest)["relays"]["rejected"] > 0
        assert hook_state(guest)["relays"]["received"] == 0 and hook_state(host)["relays"]["received"] == 0
        # the manual way still connects them
        tab = hctx.new_page()
        tab.goto(guest.get_attribute('[data-testid="reply-link"]', "href"))
        wait_panel(host, "connected")
        wait_panel(guest, "connected")
        assert_fingerprints_paired(host, guest)
    finally:
        proxy.close()
