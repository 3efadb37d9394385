"""Hint with alternatives, through the UI: the best 3-5 plays with equity and
chances, in the board's numbers, the chosen one drawn on the board; a quick
answer first, then the lookahead's."""

from __future__ import annotations

from engine import Position, TurnBuilder
from test_game_play import BOARD, board_attrs, wait_settled
from webui.board_numbers import board_notation


def test_hint_lists_the_best_plays_in_board_numbers(page, wait_ready, page_log, shoot, capsys):
    page.emulate_media(reduced_motion="reduce")
    page.set_viewport_size({"width": 1366, "height": 1000})
    page.goto("index.html?mode=ai&level=1&color=black&seed=5")
    wait_ready(page)
    page.wait_for_selector('body[data-ai="ready"]', timeout=180_000)
    timings = []
    looked = 0
    for turn in range(2):
        while wait_settled(page) != "move" or board_attrs(page)["turn"] != "black":
            if board_attrs(page)["phase"] == "roll":
                page.get_by_role("button", name="Roll").click()
        a = board_attrs(page)
        pos = Position.from_id(a["positionId"], turn="black")
        d1, d2 = (int(x) for x in a["dice"].split(","))
        page.get_by_role("button", name="Hint").click()
        box = page.get_by_test_id("hint-list")
        page.wait_for_function("() => document.getElementById('hints').dataset.depth === 'deep'", timeout=60_000)
        timings.append((int(box.get_attribute("data-quick-ms")), int(box.get_attribute("data-deep-ms"))))
        rows = box.locator("button[data-notation]")
        n = rows.count()
        legal = {p.result for p in pos.legal_plays(d1, d2)}
        assert min(3, len(legal)) <= n <= 5
        shown = [rows.nth(i).locator(".hint-play").text_content() for i in range(n)]
        equities = [float(rows.nth(i).locator(".hint-eq").text_content().replace("−", "-")) for i in range(n)]
        assert equities == sorted(equities, reverse=True)
        for i, text in enumerate(shown):
            # what people read is in board numbers: back to Black's own numbers it is a legal play,
            # the same one the row shows on the board
            play = pos.parse_play(board_notation(text, "black"), d1, d2)
            assert play.result in legal
            assert rows.nth(i).get_attribute("data-notation") == play.notation
            assert "win " in rows.nth(i).locator(".hint-chances").text_content()
        # level 5's look: its closest plays two rolls ahead, the rest one; every row says which
        if "up to two rolls ahead" in page.locator("#hints-note").text_content():
            looked += 1
            assert rows.nth(0).locator(".hint-chances").text_content().endswith("(2 rolls ahead)")
            assert all(rows.nth(i).locator(".hint-chances").text_content().endswith(("ahead)", "glance)"))
                       for i in range(n))
        assert rows.nth(0).get_attribute("aria-pressed") == "true"
        arrows = _arrows(page)
        assert arrows == _expected_arrows(pos, rows.nth(0).get_attribute("data-notation"), d1, d2)
        status = page.get_by_role("status").text_content()
        assert f"would play {shown[0]}" in status
        if n > 1:
            rows.nth(1).click()
            assert rows.nth(1).get_attribute("aria-pressed") == "true"
            assert _arrows(page) == _expected_arrows(pos, rows.nth(1).get_attribute("data-notation"), d1, d2)
        if turn == 0:
            shoot(page, "hint-list", full_page=True)
            page.set_viewport_size({"width": 390, "height": 844})
            box.scroll_into_view_if_needed()
            shoot(page, "hint-list-phone-390")
            for i in range(n):   # each row is a tap target of at least 44 CSS px
                assert rows.nth(i).bounding_box()["height"] >= 44
            page.set_viewport_size({"width": 1366, "height": 1000})
        # play the hinted move through the board and go on: the list goes with the turn
        ref = TurnBuilder(pos, (d1, d2))
        for st in pos.parse_play(rows.nth(0).get_attribute("data-notation"), d1, d2).steps:
            page.locator(f'{BOARD} [data-point="{_abs(st.src)}"]').click()
            page.locator(f'{BOARD} [data-point="{_abs(st.dst)}"]').click()
            ref.move(st.src, st.dst)
        page.get_by_role("button", name="Done").click()
        page.wait_for_function("() => document.getElementById('hints').hidden")
    with capsys.disabled():
        print(f"\nhint timings after the click (quick, deep) in ms: {timings}")
    assert all(q <= d for q, d in timings)
    assert looked  # this seeded game's first turn is one where level 5 looks two rolls ahead
    assert page_log.problems() == []


def _abs(n):
    """Black's own point n as the board's (data-point)."""
    return "bar" if n == 25 else "off" if n == 0 else 25 - n


def _arrows(page):
    return page.eval_on_selector_all(f"{BOARD} g.hint line", "ls => ls.length")


def _expected_arrows(pos, notation, d1, d2):
    return len(pos.parse_play(notation, d1, d2).steps)


def test_first_hint_right_after_the_page_loads(page, wait_ready, page_log, capsys):
    """An impatient player: Hint pressed as soon as the board is playable, while the AI's
    worker may still be loading. The list comes once it is up; the wait is said meanwhile."""
    page.emulate_media(reduced_motion="reduce")
    page.goto("index.html?mode=local&seed=9")
    wait_ready(page)
    while wait_settled(page) != "move":
        page.get_by_role("button", name="Roll").click()
    was = page.evaluate("() => document.body.dataset.ai")
    page.get_by_role("button", name="Hint").click()
    page.wait_for_function("() => ['book', 'quick', 'deep'].includes(document.getElementById('hints').dataset.depth)",
                           timeout=180_000)
    box = page.get_by_test_id("hint-list")
    book = box.get_attribute("data-book-ms")
    page.wait_for_function("() => document.getElementById('hints').dataset.depth === 'deep'", timeout=180_000)
    quick = int(box.get_attribute("data-quick-ms"))
    with capsys.disabled():
        print(f"\nfirst hint right after load (AI worker {was} at the click): opening book {book} ms, "
              f"full list {quick} ms")
    if was == "loading":
        # the opening turn is in the book: its play is there at once, before the worker
        assert book is not None and int(book) < quick
    assert page.get_by_test_id("hint-list").locator("button[data-notation]").count() >= 1
    assert page_log.problems() == []
