"""The AI worker's advice (site/webui/analysis.py) and how the page reads it (site/webui/advice.py)."""
import pytest

from engine import BLACK, WHITE, Dice, Game, HistoryEntry, Position, build
from micropython import run
from webui.advice import RATINGS, Review, book_row, decisions, hint_rows, mEMG, rating, verdict
from webui.analysis import hint_list, review_decision

START = Position.start()


def test_hint_list_gives_the_best_five_with_chances_best_first():
    rows = hint_list(START.id, WHITE, 6, 4)
    assert len(rows) == 5
    assert [r["equity"] for r in rows] == sorted((r["equity"] for r in rows), reverse=True)
    assert rows[0]["loss"] == 0 and all(r["loss"] >= 0 for r in rows)
    for r in rows:
        assert 0 < r["win"] < 1 and 0 <= r["win_gammon"] <= r["win"] and 0 <= r["lose_gammon"] <= 1 - r["win"]
        START.parse_play(r["notation"], 6, 4)   # a legal play
    quick = hint_list(START.id, WHITE, 6, 4, level=4)
    assert {r["ply"] for r in quick} == {0} and 1 in {r["ply"] for r in rows}


def test_review_finds_the_best_play_and_the_loss_of_a_bad_one():
    best = review_decision(START.id, WHITE, 3, 1, "8/5 6/5")
    assert best["best"] == "8/5 6/5" and best["loss"] == 0 and best["choices"] > 1
    bad = review_decision(START.id, WHITE, 3, 1, "24/20")
    assert bad["best"] == "8/5 6/5" and bad["loss"] > 0.08
    assert bad["loss"] == pytest.approx(bad["best_equity"] - bad["played_equity"], abs=1e-3)
    last = build("w 3:1 off:14; b 24:15", turn=WHITE)
    forced = review_decision(last.id, WHITE, 2, 1, "3/off")
    assert forced["choices"] == 1 and forced["loss"] == 0
    with pytest.raises(ValueError):
        review_decision(START.id, WHITE, 3, 1, "24/21 24/23 6/5")


def test_verdicts_and_ratings_are_gnubgs():
    assert [verdict(x) for x in (0, 0.04, 0.041, 0.08, 0.081, 0.16, 0.161)] == \
        ["", "", "doubtful", "doubtful", "error", "error", "blunder"]
    assert rating(0.0) == "Supernatural" and rating(0.0021) == "World class"
    assert rating(0.0349) == "Beginner" and rating(0.035) == "Awful!" and rating(0.5) == "Awful!"
    assert [w for _, w in RATINGS] == ["Supernatural", "World class", "Expert", "Advanced", "Intermediate",
                                       "Casual player", "Beginner"]
    assert mEMG(0) == "0.0" and mEMG(0.0123) == "−12.3"


def test_hint_rows_read_in_board_numbers():
    rows = hint_rows(BLACK, [{"notation": "24/18 13/9", "equity": 0.0012, "loss": 0, "win": 0.5, "win_gammon": 0.14,
                              "lose_gammon": 0.12},
                             {"notation": "24/14", "equity": -0.031, "loss": 0.0322, "win": 0.49, "win_gammon": 0.1,
                              "lose_gammon": 0.13}])
    assert rows[0]["play"] == "1/7 12/16" and rows[0]["loss"] == "best" and rows[0]["equity"] == "+0.001"
    assert rows[1]["play"] == "1/11" and rows[1]["loss"] == "−0.032" and rows[1]["equity"] == "−0.031"
    assert rows[1]["chances"] == "win 49.0%, gammon 10.0%, lose a gammon 13.0%"
    assert rows[1]["label"].startswith("2. 1/11: equity −0.031 (−0.032); win 49.0%")


def test_hint_rows_say_each_depth_when_the_list_mixes_depths():
    def h(notation, ply):
        return {"notation": notation, "equity": 0.01, "loss": 0.0, "win": 0.5, "win_gammon": 0.1,
                "lose_gammon": 0.1, "ply": ply}
    rows = hint_rows(BLACK, [h("24/18 13/9", 2), h("24/14", 2), h("13/3", 1), h("13/9 13/7", 0)])
    assert [r["chances"].rsplit(" (", 1)[1] for r in rows] == [
        "2 rolls ahead)", "2 rolls ahead)", "1 roll ahead)", "at a glance)"]
    assert rows[2]["label"].endswith("lose a gammon 10.0% (1 roll ahead)")
    # one depth throughout (the quick list, or level 5 without its look): nothing to tell apart
    assert all("ahead" not in r["chances"] and "glance" not in r["chances"]
               for r in hint_rows(BLACK, [h("24/18 13/9", 1), h("24/14", 1)]))


def test_a_review_of_a_whole_game_counts_unforced_decisions_only():
    game = Game(dice=Dice(4))
    game.opening_roll()
    while not game.is_over and len(game.history) < 24:
        if game.dice is None:
            game.roll()
        plays = game.legal_plays()
        game.play(plays[-1]) if plays else game.pass_turn()
    todo = decisions(game.history, {WHITE})
    assert todo and all(e.color == WHITE and e.notation for _, e in todo)
    review = Review(len(todo))
    for i, e in todo:
        row = review.add(i, e, review_decision(e.before_id, e.color, *e.dice, e.notation))
        assert row["loss"] >= 0
    assert review.done
    rows = review.counted()
    assert rows, "the worst play every turn: something to review"
    assert any(r["verdict"] in ("error", "blunder") for r in rows), "the worst plays must be marked"
    text = review.summary()
    assert rating(review.error_rate()) in text and "mEMG" in text
    forced = len(review.rows) - len(rows)
    assert text.startswith(f"{len(rows)} decision{'s' if len(rows) != 1 else ''} with a choice"
                           + (f" ({forced} forced play{'s' if forced != 1 else ''} not counted): " if forced else ": "))


def test_forced_plays_are_listed_but_not_rated():
    e = HistoryEntry(WHITE, (6, 6), "bar/19(4)", "x", "y")
    review = Review(1)
    row = review.add(3, e, {"best": "bar/19(4)", "best_equity": -0.5, "played_equity": -0.5, "loss": 0.0,
                            "choices": 1})
    assert row["forced"] and row["text"] == "6-6: bar/19(4) (forced)"
    assert review.summary() == "No decisions to review: every play was forced."
    review.add(5, HistoryEntry(WHITE, (3, 1), "8/5 6/5", "x", "y"),
               {"best": "8/5 6/5", "best_equity": 0.1, "played_equity": 0.1, "loss": 0.0, "choices": 16})
    # the progress line said "All 2 decisions reviewed": the summary says why it counts one
    assert review.summary().startswith("1 decision with a choice (1 forced play not counted): 0 blunders")


def test_advice_reads_the_same_on_micropython():
    script = (
        "from webui.advice import Review, hint_rows, rating, verdict, mEMG\n"
        "from engine import HistoryEntry\n"
        "print([verdict(x) for x in (0, 0.05, 0.09, 0.2)], rating(0.01), mEMG(0.0456))\n"
        "print(hint_rows('black', [{'notation': '24/18 13/9', 'equity': -0.0101, 'loss': 0, 'win': 0.4567,"
        " 'win_gammon': 0.1234, 'lose_gammon': 0.05, 'ply': 2}, {'notation': '24/14', 'equity': -0.02,"
        " 'loss': 0.01, 'win': 0.45, 'win_gammon': 0.12, 'lose_gammon': 0.05, 'ply': 1}]))\n"
        "r = Review(2)\n"
        "r.add(0, HistoryEntry('black', (3, 1), '24/21 24/23', 'a', 'b'), {'best': '8/5 6/5', 'best_equity': 0.15,"
        " 'played_equity': -0.05, 'loss': 0.2, 'choices': 16})\n"
        "r.add(2, HistoryEntry('black', (6, 5), '24/13', 'a', 'b'), {'best': '24/13', 'best_equity': 0.07,"
        " 'played_equity': 0.07, 'loss': 0.0, 'choices': 7})\n"
        "for x in r.rows:\n"
        "    print(x['text'])\n"
        "print(r.summary())\n"
    )
    mp = run(script, libs=("engine", "webui"))
    assert "blunder" in mp and "Advanced" in mp and "1/7 12/16" in mp
    assert "lose a gammon 5.0% (2 rolls ahead)" in mp and "(1 roll ahead)" in mp
    assert "3-1: 1/4 1/2, best 17/20 19/20 (−0.200, blunder)" in mp
    assert "2 decisions with a choice: 1 blunder, 0 errors, 0 doubtful. Error rate −100.0 mEMG per move" in mp


def test_the_book_row_names_the_play_in_board_numbers_and_promises_the_rest():
    row = book_row(BLACK, "24/18 13/9")
    assert row["play"] == "1/7 12/16" and row["notation"] == "24/18 13/9" and "once the AI has loaded" in row["chances"]
