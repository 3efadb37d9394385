"""The rules page: diagrams drawn before Python starts, and a live board."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_game_play import legal_points  # noqa: E402

from engine import Position, to_absolute  # noqa: E402

from engine import TurnBuilder  # noqa: E402


def block_python(page):
    """No Python loader, no interpreters, no Python files: only what the HTML itself carries."""
    page.route("**/boot.mjs", lambda route: route.abort())
    page.route("**/vendor/**", lambda route: route.abort())
    page.route("**/*.py", lambda route: route.abort())
    page.route("**/py/*.zip", lambda route: route.abort())


def test_rules_boards_show_before_python(page, shoot, screenshot_dir):
    block_python(page)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto("rules.html")
    diagrams = page.locator('svg[data-testid="diagram"]')
    assert diagrams.count() >= 9
    for i in range(diagrams.count()):
        d = diagrams.nth(i)
        assert d.locator("[data-point]").count() == 26
        box = d.bounding_box()
        assert box and box["width"] > 200 and box["height"] > 100
    # the diagrams show what the text says: the bar entry lights 4 and 10, bearing off lights the tray
    assert set(page.eval_on_selector_all('.bg-board[data-picked="bar"][data-dice="6,4"] [data-legal="true"]',
                                         "els => els.map(e => e.dataset.point)")) == {"4", "10"}
    assert page.locator('.bg-board[data-dice="6,5"] [data-point="off"][data-legal="true"]').count() == 1
    assert page.locator('svg[data-testid="board"]').count() == 1  # the live board, pre-drawn too
    # every rule of the brief has its board (tests/test_rules_diagrams.py checks each against the engine)
    for rule in ("opening", "both-dice", "higher-die", "no-move", "single", "gammon", "backgammon",
                 "bear-off-hit", "bear-off-hit-after"):
        fig = page.locator(f'.bg-board[data-rule="{rule}"]')
        assert fig.locator('svg[data-testid="diagram"]').count() == 1, rule
        assert fig.bounding_box()["height"] > 100, rule
        fig.locator("xpath=..").screenshot(path=str(screenshot_dir / f"rules-{rule}.png"))
    assert page.locator('.bg-board[data-rule="opening"] .die').count() == 2
    assert page.locator('.bg-board[data-rule="no-move"] [data-legal="true"]').count() == 0
    assert page.evaluate("() => document.body.dataset.ready") == "false"
    shoot(page, "rules-desktop-1366", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    shoot(page, "rules-phone-390")


def test_game_board_shows_before_python(page, shoot):
    block_python(page)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("index.html")
    board = page.locator('svg[data-testid="board"]')
    assert board.get_attribute("data-position-id") == "4HPwATDgc/ABMA"
    assert board.locator("[data-point]").count() == 26
    assert page.get_by_role("button", name="Roll").is_disabled()
    assert "Loading" in page.get_by_role("status").text_content()
    shoot(page, "game-phone-390-loading")


def test_game_says_when_python_cannot_load(page):
    """MicroPython's files cannot be fetched (a broken connection mid-load): the
    status line says so and what to do, instead of 'Loading...' forever; the
    board drawn by the build stays."""
    page.route("**/vendor/micropython-*/**", lambda route: route.abort())
    page.goto("index.html")
    status = page.get_by_role("status")
    status.filter(has_text="could not start").wait_for(timeout=20_000)
    assert "Reload" in status.text_content()
    assert page.evaluate("() => document.body.dataset.failed") == "python"
    assert page.evaluate("() => document.body.dataset.ready") == "false"
    assert page.locator('svg[data-testid="board"] [data-point]').count() == 26


def test_rules_live_board(page, wait_ready, page_log):
    page.goto("rules.html")
    wait_ready(page)
    board = page.locator('svg[data-testid="board"]')
    if board.get_attribute("data-phase") == "roll":
        page.get_by_role("button", name="Roll").click()
    a = page.evaluate("() => Object.assign({}, document.querySelector('[data-testid=board]').dataset)")
    if a["phase"] != "move":  # a forced opening played itself
        return
    turn = a["turn"]
    d1, d2 = (int(x) for x in a["dice"].split(","))
    ref = TurnBuilder(Position.from_id(a["positionId"], turn=turn), (d1, d2))
    src = sorted(ref.sources(), reverse=True)[0]
    page.locator(f'[data-testid=board] [data-point="{to_absolute(turn, src)}"]').click()
    assert legal_points(page) == {str(to_absolute(turn, d)) for d in ref.destinations(src)}
    assert page_log.problems() == []
