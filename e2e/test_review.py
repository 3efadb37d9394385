"""The post-game review through the UI: a full game against level 1, then the
AI reviews each of the player's decisions in its worker (progress, Cancel),
marks errors and blunders by gnubg's thresholds, sums up the error rate with
gnubg's rating words, and a chosen decision shows both plays on a board."""

from __future__ import annotations

import json
import time

from axe_audit import serious_violations
from webui.advice import rating, verdict
from webui.analysis import review_decision
from test_game_play import play_game


def saved_history(page):
    saved = json.loads(page.evaluate("() => localStorage.getItem('bg.game')"))
    return saved["game"]["history"]


def test_full_review_of_a_finished_game(page, wait_ready, page_log, shoot, capsys):
    page.emulate_media(reduced_motion="reduce")
    page.set_viewport_size({"width": 1366, "height": 1000})
    page.goto("index.html?mode=ai&level=1&color=white&seed=31")
    wait_ready(page)
    play_game(page)
    page.wait_for_selector('body[data-ai="ready"]', timeout=180_000)
    history = saved_history(page)
    mine = [i for i, (color, _d, notation, _b, _a) in enumerate(history) if color == "white" and notation]
    assert len(mine) >= 10
    box = page.get_by_test_id("review")
    rows = page.locator("#review-list button[data-index]")

    # start, see progress, cancel: it stops where it was
    page.get_by_test_id("review-start").click()
    assert box.is_visible() and box.get_attribute("data-state") == "running"
    page.wait_for_function("() => document.querySelectorAll('#review-list button').length >= 2", timeout=120_000)
    assert int(page.get_by_test_id("review-progress").evaluate("p => p.value")) >= 2
    assert "Reviewing decision" in page.locator("#review-progress-text").text_content()
    shoot(page, "review-running", full_page=True)
    page.get_by_test_id("review-cancel").click()
    assert box.get_attribute("data-state") == "stopped"
    stopped_at = rows.count()
    page.wait_for_timeout(1500)
    assert rows.count() == stopped_at < len(mine)   # nothing more came in after Cancel
    assert "Review stopped after" in page.locator("#review-progress-text").text_content()

    # the whole review
    started = time.monotonic()
    page.get_by_test_id("review-start").click()
    page.wait_for_function("() => document.getElementById('review').dataset.state === 'done'", timeout=600_000)
    took = time.monotonic() - started
    with capsys.disabled():
        print(f"\nreview of {len(mine)} decisions: {took:.1f} s ({took / len(mine):.2f} s a decision)")
    assert rows.count() == len(mine)
    assert [int(rows.nth(i).get_attribute("data-index")) for i in range(rows.count())] == mine
    losses = []
    for i in range(rows.count()):
        loss = float(rows.nth(i).get_attribute("data-loss"))
        v = rows.nth(i).get_attribute("data-verdict")
        assert v == (verdict(loss) or ("forced" if v == "forced" else "good")), (i, loss, v)
        if v != "forced":
            losses.append(loss)
    # the worker's verdict is the AI's: recomputed here for the worst decision
    worst = max(range(rows.count()), key=lambda i: float(rows.nth(i).get_attribute("data-loss")))
    index = int(rows.nth(worst).get_attribute("data-index"))
    color, dice, notation, before, _after = history[index]
    judged = review_decision(before, color, dice[0], dice[1], notation)
    assert abs(judged["loss"] - float(rows.nth(worst).get_attribute("data-loss"))) < 1e-3
    summary = page.get_by_test_id("review-summary").text_content()
    rate = sum(losses) / len(losses)
    assert f"{len(losses)} decision" in summary and f"Rating: {rating(rate)}" in summary and "mEMG" in summary
    blunders = sum(1 for x in losses if verdict(x) == "blunder")
    errors = sum(1 for x in losses if verdict(x) == "error")
    assert f"{blunders} blunder" in summary and f"{errors} error" in summary

    # the worst decision is shown with both plays; choosing another shows that one
    board = page.locator('[data-testid="review-board"]')
    assert rows.nth(worst).get_attribute("aria-pressed") == "true"
    caption = page.get_by_test_id("review-caption").text_content()
    assert f"Move {index + 1}" in caption
    if judged["loss"] > 0 and judged["best"] != notation:
        assert "played" in caption and "best" in caption
        assert board.locator("g.played line").count() >= 1 and board.locator("g.hint line").count() >= 1
    shoot(page, "review-done", full_page=True)
    assert serious_violations(page) == []
    page.set_viewport_size({"width": 390, "height": 844})
    box.scroll_into_view_if_needed()
    shoot(page, "review-phone-390", full_page=True)
    page.set_viewport_size({"width": 1366, "height": 1000})
    first = rows.nth(0)
    first.click()
    assert first.get_attribute("aria-pressed") == "true"
    assert board.get_attribute("data-position-id") == history[mine[0]][3]
    assert f"Move {mine[0] + 1}" in page.get_by_test_id("review-caption").text_content()
    # a new game closes the review
    page.get_by_role("button", name="Rematch").click()
    assert not box.is_visible()
    assert page_log.problems() == []
