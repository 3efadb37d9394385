"""A game in progress survives a reload exactly; bad stored data is reported, not fatal."""

from __future__ import annotations

import json

from test_game_play import BOARD, board_attrs, play_turn_ui, point, wait_settled  # noqa: E402

from engine import Position, to_absolute  # noqa: E402

from engine import TurnBuilder  # noqa: E402


def labels(page) -> dict:
    return dict(page.eval_on_selector_all(f"{BOARD} [data-point]", "els => els.map(e => [e.dataset.point, e.getAttribute('aria-label')])"))


def test_reload_mid_turn_resumes_exactly(page, wait_ready, page_log):
    page.emulate_media(reduced_motion="reduce")
    page.goto("index.html?mode=local&seed=5")
    wait_ready(page)
    for _ in range(3):  # a few turns in
        if wait_settled(page) == "roll":
            page.get_by_role("button", name="Roll").click()
        else:
            play_turn_ui(page)
    while wait_settled(page) != "move":
        page.get_by_role("button", name="Roll").click()
    a = board_attrs(page)
    turn = a["turn"]
    d1, d2 = (int(x) for x in a["dice"].split(","))
    ref = TurnBuilder(Position.from_id(a["positionId"], turn=turn), (d1, d2))
    src = sorted(ref.sources(), reverse=True)[0]
    dst = min(ref.destinations(src), key=lambda d: len(ref.destinations(src)[d]))
    point(page, to_absolute(turn, src)).click()
    point(page, to_absolute(turn, dst)).click()
    before = labels(page)
    history = page.locator("#history li").all_text_contents()
    page.reload()
    wait_ready(page)
    b = board_attrs(page)
    for key in ("positionId", "turn", "dice", "phase", "bottom"):
        assert b[key] == a[key], key
    assert labels(page) == before  # the step taken before the reload is still there
    assert page.locator("#history li").all_text_contents() == history
    assert "restored" in page.get_by_role("status").text_content().lower()
    page.get_by_role("button", name="Undo", exact=True).click()
    assert labels(page) != before
    # and the rest of the turn plays on
    play_turn_ui(page)
    assert page_log.problems() == []


def test_bad_stored_data_is_reported_not_fatal(page, wait_ready, page_log, shoot):
    page.emulate_media(reduced_motion="reduce")
    page.goto("index.html?mode=local&seed=1")
    wait_ready(page)
    entry = {"name": "Ann", "date": "2026-11-29", "level": 5, "kind": "gammon", "points": "10/3"}
    page.evaluate(
        """([lb]) => { localStorage.setItem('bg.game', '{"v": 1, "settings": {"mode": "local"'); // truncated
                       localStorage.setItem('bg.leaderboard', lb); }""",
        [json.dumps({"v": 1, "entries": [entry]})],
    )
    page.goto("index.html")
    wait_ready(page)
    notice = page.get_by_role("alert")
    assert notice.is_visible()
    assert "could not be restored" in notice.text_content()
    assert "leaderboard" in notice.text_content().lower()
    # nothing else lost: the leaderboard is intact, and a new game plays
    assert "Ann" in page.locator("#leaderboard").text_content()
    assert "10/3" in page.locator("#leaderboard").text_content()
    assert wait_settled(page) in ("roll", "move")
    assert page.evaluate("() => localStorage.getItem('bg.game.bad')").startswith('{"v": 1')
    shoot(page, "bad-storage-notice")

    # a saved game from another version is reported the same way
    page.evaluate("() => localStorage.setItem('bg.game', JSON.stringify({v: 0, game: {}}))")
    page.reload()
    wait_ready(page)
    assert "another version" in page.get_by_role("alert").text_content()
    assert "Ann" in page.locator("#leaderboard").text_content()
    assert page_log.problems() == []


def test_new_game_button_and_url(page, wait_ready, page_log):
    page.emulate_media(reduced_motion="reduce")
    page.goto("index.html?mode=local&seed=2")
    wait_ready(page)
    page.select_option("#opt-mode", "ai")
    page.select_option("#opt-level", "2")
    page.select_option("#opt-color", "black")
    page.get_by_role("button", name="New game").click()
    assert "mode=ai" in page.url and "level=2" in page.url and "color=black" in page.url
    phase = wait_settled(page)
    a = board_attrs(page)
    assert a["me"] == "black" and a["bottom"] == "black"
    assert phase in ("roll", "move")
    assert page_log.problems() == []
