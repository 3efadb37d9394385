"""Offline and installable: after one visit the site works with the network off,
and a new deploy waits until the page lets it take over.

- One visit precaches the whole build (every file of precache-manifest.json);
  then, offline, a reload still boots Python and a game against the AI goes on
  for a few turns (played through the DOM contract of docs/contracts.md), other pages
  and deep links load, and .wasm comes back as application/wasm.
- A new deploy is installed in the background but does not take over the open
  page (no version swap in the middle of a game) until the page calls
  ``bgServiceWorker.applyUpdate()`` (site/sw-register.js).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parent.parent

import build_site  # noqa: E402
import serve  # noqa: E402

AI_GAME = "index.html?mode=ai&level=1&color=white&seed=11"
TURN_TIMEOUT_MS = 60_000

BOARD = '[data-testid="board"]'


# ----------------------------------------------------------------- playing through the DOM


def _board(page) -> dict:
    return page.evaluate(
        f"""() => {{
            const b = document.querySelector('{BOARD}');
            return b ? {{...b.dataset}} : null;
        }}"""
    )


def _wait_my_turn(page) -> None:
    page.wait_for_function(
        f"""() => {{
            const b = document.querySelector('{BOARD}');
            const over = document.querySelector('[data-testid="result"]:not([hidden])');
            return over || (b && b.dataset.me && b.dataset.turn === b.dataset.me);
        }}""",
        timeout=TURN_TIMEOUT_MS,
        polling=100,
    )


def _legal(page) -> list[str]:
    return page.eval_on_selector_all('[data-legal="true"]', "els => els.map(e => e.dataset.point)")


def _my_points(page, me: str) -> list[str]:
    """Points (and the bar) whose aria-label says they hold my checkers."""
    labels = page.eval_on_selector_all(
        f"{BOARD} [data-point]", "els => els.map(e => [e.dataset.point, e.getAttribute('aria-label') || ''])"
    )
    return [p for p, label in labels if p != "off" and re.search(rf"\b[1-9]\d* {me} checker", label)]


def _click_point(page, point: str) -> None:
    page.locator(f'{BOARD} [data-point="{point}"]').first.click()


def play_my_turn(page) -> bool:
    """Roll and play one whole turn by clicking, through the DOM contract.
    Returns False when the game is over."""
    _wait_my_turn(page)
    if page.locator('[data-testid="result"]:not([hidden])').count():
        return False
    me = _board(page)["me"]
    roll = page.get_by_role("button", name="Roll", exact=True)
    # (the dice of a roll that just passed may still be on the board, data-held: it is still time to roll)
    if _board(page).get("phase") == "roll" and roll.is_enabled():
        roll.click()
        page.wait_for_function(
            f"() => {{ const b = document.querySelector('{BOARD}'); return (b.dataset.dice && !b.dataset.held) || b.dataset.turn !== '{me}'; }}",
            timeout=TURN_TIMEOUT_MS,
        )
    done = page.get_by_role("button", name="Done", exact=True)
    for _ in range(12):  # at most four steps, with retries for blocked checkers
        board = _board(page)
        if board["turn"] != me:
            return True  # forced or forfeited turn, played automatically
        if done.is_enabled():
            done.click()
            return True
        moved = False
        for src in _my_points(page, me):
            _click_point(page, src)
            legal = _legal(page)
            if legal:
                _click_point(page, legal[0])
                moved = True
                break
            _click_point(page, src)  # nothing to do with this checker: put it down
        if not moved:
            page.wait_for_timeout(200)  # an automatic step may be on its way
    raise AssertionError(f"could not complete a turn; board {_board(page)}")


# ----------------------------------------------------------------- tests


def test_offline_reload_still_plays_the_ai(context, page, page_log, wait_ready, wait_service_worker,
                                           site_dir, shoot):
    page.goto(AI_GAME)
    wait_ready(page)
    version = wait_service_worker(page)
    manifest = json.loads((site_dir / "precache-manifest.json").read_text())
    assert version == manifest["version"]

    # Everything the build produced is in the cache, not only what this page used.
    missing = page.evaluate(
        """async (files) => {
            const cache = await caches.open("bg-" + await (async () => {
                for (const n of await caches.keys()) if (n.startsWith("bg-")) return n.slice(3);
            })());
            const out = [];
            for (const f of files) if (!(await cache.match(new URL(f, location.href).href))) out.push(f);
            return out;
        }""",
        list(manifest["files"]),
    )
    assert missing == []

    context.set_offline(True)
    page.reload()
    wait_ready(page)
    assert page.locator(BOARD).is_visible()
    assert _board(page).get("me") == "white"
    for _ in range(2):
        if not play_my_turn(page):
            break
    _wait_my_turn(page)  # the AI (in its worker) answered, offline
    shoot(page, "offline-ai-game")

    wasm_type = page.evaluate(
        """async () => (await fetch("vendor/" + [...performance.getEntriesByType("resource")]
              .map(e => e.name).find(n => n.endsWith(".wasm")).split("/vendor/")[1]))
              .headers.get("content-type")"""
    )
    assert wasm_type == "application/wasm"

    # Other pages and URLs, all from the cache: "./" and "rules" (Netlify's
    # pretty URL) are stored as index.html and rules.html.
    for url, file in (("./", "index.html"), ("index.html?mode=local&seed=3", "index.html"),
                      ("rules.html", "rules.html"), ("rules", "rules.html"), ("bare.html", "bare.html")):
        if (site_dir / file).is_file():
            assert page.goto(url).ok, url
            wait_ready(page)
    assert page_log.external == [] and page_log.csp == []


@pytest.fixture
def deploy(tmp_path, site_dir):
    """A private copy of the built site on its own server, to deploy v2 onto."""
    root = tmp_path / "site"
    shutil.copytree(site_dir, root)
    server, url = serve.serve_in_thread(root)
    yield root, url
    server.shutdown()
    server.server_close()


def test_new_deploy_waits_until_the_page_lets_it(page, page_log, wait_ready, wait_service_worker, deploy):
    root, url = deploy
    page.goto(url + "index.html")
    wait_ready(page)
    v1 = wait_service_worker(page)

    # Deploy v2: one page changes, the manifest and sw.js are rebuilt.
    (root / "bare.html").write_text((root / "bare.html").read_text() + "<!-- v2 -->\n")
    shutil.copy2(ROOT / "site" / "sw.js", root / "sw.js")
    v2 = build_site.write_manifest(root)["version"]
    assert v2 != v1

    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.wait_for_function("window.bgServiceWorker && window.bgServiceWorker.updateReady", timeout=60_000)
    # Installed, not active: the open page (maybe mid-game) keeps v1, even across reloads.
    assert page.evaluate("window.bgServiceWorker.version()") == v1
    page.reload()
    wait_ready(page)
    assert page.evaluate("window.bgServiceWorker.version()") == v1
    assert "v2" not in page.evaluate("fetch('bare.html').then(r => r.text())")

    # The page decides: a new game is where a waiting version takes over. The
    # page reloads on v2 once its AI worker has loaded (site/webui/app.py,
    # apply_update: activating while the worker still fetches through the old
    # service worker stalls Chromium's activation, 5 minutes under DevTools).
    # Clicked right after the reload, with that worker still loading.
    # (A mark on the old page tells a real reload from the new game's
    # history.replaceState, which Playwright also counts as a navigation.)
    page.evaluate("window.oldPage = true")
    page.get_by_role("button", name="New game").click()
    confirm = page.get_by_test_id("confirm")
    if confirm.is_visible():  # the computer has moved already: the page asks before ending that game
        confirm.get_by_role("button", name="Start a new game").click()
    try:
        page.wait_for_function("!window.oldPage && document.body && document.body.dataset.ready === 'true'",
                               timeout=60_000, polling=250)
    except PlaywrightTimeout:
        state = page.evaluate("""navigator.serviceWorker.getRegistration().then(r => ({
            active: r.active && r.active.state, waiting: r.waiting && r.waiting.state,
            installing: r.installing && r.installing.state,
            controlled: !!navigator.serviceWorker.controller}))""")
        pytest.fail(f"New game did not reload the page on the new version within 60 s; registration: "
                    f"{state}; page problems: {page_log.problems()}")
    wait_ready(page)
    assert page.evaluate("window.bgServiceWorker.version()") == v2
    assert "v2" in page.evaluate("fetch('bare.html').then(r => r.text())")
    assert page.evaluate("caches.keys()") == [f"bg-{v2}"]
    assert page_log.external == [] and page_log.csp == []
