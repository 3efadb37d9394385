"""An axe-core audit (``axe_audit``) of the game page (light and dark, with the
hint list), the rules page and the friend panel: no serious or critical
violation. (The post-game review is audited in test_review.py.)"""

from __future__ import annotations

import pytest

from axe_audit import serious_violations
from test_game_play import wait_settled


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_game_page_has_no_serious_violation(page, wait_ready, scheme):
    page.emulate_media(reduced_motion="reduce", color_scheme=scheme)
    page.goto("index.html?mode=ai&level=1&color=white&seed=4")
    wait_ready(page)
    if wait_settled(page) == "roll":
        page.get_by_role("button", name="Roll").click()
    wait_settled(page)
    assert serious_violations(page) == []


def test_game_page_with_hints_and_review_has_no_serious_violation(page, wait_ready):
    page.emulate_media(reduced_motion="reduce")
    page.goto("index.html?mode=local&seed=2")
    wait_ready(page)
    page.wait_for_selector('body[data-ai="ready"]', timeout=180_000)
    while wait_settled(page) != "move":
        page.get_by_role("button", name="Roll").click()
    page.get_by_role("button", name="Hint").click()
    page.wait_for_function("() => document.getElementById('hints').dataset.depth === 'deep'", timeout=60_000)
    assert serious_violations(page) == []


def test_rules_page_has_no_serious_violation(page, wait_ready):
    page.goto("rules.html")
    wait_ready(page)
    assert serious_violations(page) == []


def test_friend_panel_has_no_serious_violation(page, wait_ready):
    page.goto("index.html?mode=friend&ice=none")
    wait_ready(page)
    page.wait_for_selector('[data-testid="invite-link"]', timeout=60_000)
    assert serious_violations(page) == []
