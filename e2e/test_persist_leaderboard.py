"""A win against the computer goes on the local leaderboard, once, and stays there.

The game is played in the test process (same engine, same choices as the
UI-driving helper, a deliberately poor computer side) up to the start of the
winning turn; that saved game is put
in the browser's storage, the page resumes it, and the last turn is played
through the UI.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "site"), str(Path(__file__).resolve().parent)]

from test_game_play import board_attrs, play_turn_ui, wait_settled  # noqa: E402

from engine import to_absolute  # noqa: E402
from webui.controller import Controller, Settings  # noqa: E402

from engine import TurnBuilder  # noqa: E402


def ui_like_turn(c: Controller) -> None:
    """What play_turn_ui does: farthest-back source, farthest destination."""
    turn = c.turn
    ref = TurnBuilder(c.game.position, tuple(c.game.dice))
    while not ref.is_complete:
        src = sorted(ref.sources(), reverse=True)[0]
        dst = sorted(ref.destinations(src), reverse=True)[0]
        c.click(to_absolute(turn, src))
        c.click(to_absolute(turn, dst))
        ref.move(src, dst)
    assert c.done()


def saved_game_before_a_win() -> dict:
    for seed in range(1, 80):
        c = Controller()
        c.new_game(Settings("ai", 1, "white", seed))
        snapshot = None
        for _ in range(400):
            if c.phase == "over":
                break
            if c.phase == "roll":
                snapshot = c.to_dict()  # the start of the human's turn (a forced play may follow the roll)
                c.roll()
            elif c.phase == "move":
                if not c.game.history or c.game.history[-1].color != "black" or snapshot is None:
                    snapshot = c.to_dict()
                ui_like_turn(c)
            else:
                if c.ai_needs_roll():
                    c.ai_roll()
                plays = c.game.position.legal_plays(*c.game.dice)
                c.ai_play(plays[-1].notation if plays else "")  # a poor computer side: the human wins soon
        if c.phase == "over" and c.game.winner == "white":
            snapshot["settings"]["seed"] = None  # a real (unseeded) game: it counts
            return snapshot
    raise AssertionError("no winning game found")


def test_win_goes_on_the_leaderboard_once(page, wait_ready, page_log, shoot):
    saved = saved_game_before_a_win()
    page.emulate_media(reduced_motion="reduce")
    page.goto("index.html?mode=local&seed=1")
    wait_ready(page)
    page.evaluate(
        """([game]) => { localStorage.setItem('bg.game', game);
                         localStorage.setItem('bg.settings', JSON.stringify({name: 'Zoe'})); }""",
        [json.dumps(saved)],
    )
    page.goto("index.html")
    wait_ready(page)
    assert board_attrs(page)["me"] == "white"
    for _ in range(3):  # the last turn: roll (if not rolled yet) and play
        phase = wait_settled(page)
        if phase == "over":
            break
        if phase == "roll":
            page.get_by_role("button", name="Roll").click()
        else:
            play_turn_ui(page)
    assert wait_settled(page) == "over"
    res = page.get_by_test_id("result")
    assert res.get_attribute("data-winner") == "white"
    kind, points = res.get_attribute("data-kind"), res.get_attribute("data-points")
    assert points == {"single": "1/3", "gammon": "2/3", "backgammon": "1"}[kind]
    rows = page.locator("#leaderboard tbody tr")
    assert rows.count() == 1
    cells = rows.first.locator("td").all_text_contents()
    assert cells[1] == "Zoe" and cells[3] == "1" and cells[4] == kind and cells[5] == points
    shoot(page, "leaderboard-win")
    page.reload()  # the finished game is shown again, but not counted twice
    wait_ready(page)
    assert page.get_by_test_id("result").is_visible()
    assert page.locator("#leaderboard tbody tr").count() == 1
    stored = json.loads(page.evaluate("() => localStorage.getItem('bg.leaderboard')"))
    assert [e["name"] for e in stored["entries"]] == ["Zoe"]
    assert page_log.problems() == []
