"""An axe-core audit (npm ``axe-core``, pinned in package.json's devDependencies,
injected here only: the site never ships it) of the game page, the rules page
and the friend panel: no serious or critical violation."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_game_play import wait_settled

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture
def browser_context_args(browser_context_args):
    """No service worker: it would answer the audit's own script request before Playwright's route."""
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture
def axe(page, base_url):
    """axe-core served from the site's own origin (the pages' CSP allows only 'self' scripts)."""
    assert AXE.is_file(), f"axe-core is needed for this test (npm ci): {AXE} not found"
    body = AXE.read_bytes()
    page.route(base_url.rstrip("/") + "/__test__/axe.min.js",
               lambda route, request: route.fulfill(status=200, body=body, content_type="text/javascript"))
    return base_url.rstrip("/") + "/__test__/axe.min.js"


def audit(page, axe) -> list[str]:
    """Serious and critical violations as readable lines (empty: none)."""
    page.add_script_tag(url=axe)
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary).slice(0, 5)}));
    }""")
    return [f"{v['impact']} {v['id']} ({v['help']}): {v['nodes']}" for v in result
            if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_game_page_has_no_serious_violation(page, axe, wait_ready, scheme):
    page.emulate_media(reduced_motion="reduce", color_scheme=scheme)
    page.goto("index.html?mode=ai&level=1&color=white&seed=4")
    wait_ready(page)
    if wait_settled(page) == "roll":
        page.get_by_role("button", name="Roll").click()
    wait_settled(page)
    assert audit(page, axe) == []


def test_game_page_with_hints_and_review_has_no_serious_violation(page, axe, wait_ready):
    page.emulate_media(reduced_motion="reduce")
    page.goto("index.html?mode=local&seed=2")
    wait_ready(page)
    page.wait_for_selector('body[data-ai="ready"]', timeout=180_000)
    while wait_settled(page) != "move":
        page.get_by_role("button", name="Roll").click()
    page.get_by_role("button", name="Hint").click()
    page.wait_for_function("() => document.getElementById('hints').dataset.depth === 'deep'", timeout=60_000)
    assert audit(page, axe) == []


def test_rules_page_has_no_serious_violation(page, axe, wait_ready):
    page.goto("rules.html")
    wait_ready(page)
    assert audit(page, axe) == []


def test_friend_panel_has_no_serious_violation(page, axe, wait_ready):
    page.goto("index.html?mode=friend&ice=none")
    wait_ready(page)
    page.wait_for_selector('[data-testid="invite-link"]', timeout=60_000)
    assert audit(page, axe) == []
