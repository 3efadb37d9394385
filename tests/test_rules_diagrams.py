"""Every diagram of the rules page shows what its caption says, checked with the engine.

Each ``.bg-board`` in site/rules.html is a position (and maybe dice and a
picked-up checker with its lit destinations). The boards marked ``data-rule``
must show that rule: the opening roll, both dice played, the higher die when only one fits,
a turn with no legal move, the three kinds of win, a hit during the bear-off.
(That every lit set is the engine's is tests/test_webui_pages.py's check.)
"""
import pytest

from engine import BLACK, WHITE, Position, other, result_kind
from test_webui_pages import diagrams

BOARDS = [b for b in diagrams("rules.html") if b.get("data-live") != "true"]
BY_RULE = {b["data-rule"]: b for b in BOARDS if "data-rule" in b}


def _pos(b):
    return Position.from_id(b["data-position-id"], turn=b.get("data-turn", WHITE))


def _dice(b):
    return tuple(int(x) for x in b["data-dice"].split(","))


def _lit(b):
    return {x.strip() for x in b.get("data-legal", "").split(",") if x.strip()}


def _open(pos, color, point):
    """A single hop of ``color`` may land on absolute ``point`` (ignoring the rest of the roll)."""
    owner, n = pos.owner(point)
    return owner != other(color) or n <= 1


def test_the_page_has_a_board_for_every_rule_of_the_brief():
    assert set(BY_RULE) == {"opening", "both-dice", "higher-die", "no-move", "single", "gammon", "backgammon",
                            "bear-off-hit", "bear-off-hit-after"}
    assert len(BOARDS) >= 16


def test_opening_roll_shows_one_die_each_and_the_higher_moves_first():
    b = BY_RULE["opening"]
    w, k = (int(x) for x in b["data-opening"].split(","))
    assert w != k and _pos(b) == Position.start().with_turn(WHITE if w > k else BLACK)


def test_both_dice_must_be_played():
    b = BY_RULE["both-dice"]
    pos, dice = _pos(b), _dice(b)
    color, picked = pos.turn, int(b["data-picked"])
    plays = pos.legal_plays(*dice)
    assert plays and all(len(p.steps) == 2 for p in plays)
    # a single hop with one die is open on the board, yet not lit: it would leave the other die unplayable
    step = -1 if color == WHITE else 1
    refused = [picked + step * d for d in dice if _open(pos, color, picked + step * d)]
    assert any(str(p) not in _lit(b) for p in refused)


def test_only_one_die_fits_play_the_higher():
    b = BY_RULE["higher-die"]
    pos, dice = _pos(b), _dice(b)
    color, picked = pos.turn, int(b["data-picked"])
    plays = pos.legal_plays(*dice)
    assert plays and all(len(p.steps) == 1 and p.steps[0].die == max(dice) for p in plays)
    step = -1 if color == WHITE else 1
    assert _open(pos, color, picked + step * min(dice)), "the lower die alone must fit too"
    assert str(picked + step * min(dice)) not in _lit(b)


def test_no_legal_move_passes_the_turn():
    b = BY_RULE["no-move"]
    pos = _pos(b)
    assert pos.bar(pos.turn) >= 1 and _lit(b) == set()
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            assert pos.legal_plays(d1, d2) == []   # a closed board: no roll enters


@pytest.mark.parametrize("kind", ["single", "gammon", "backgammon"])
def test_the_three_kinds_of_win(kind):
    pos = _pos(BY_RULE[kind])
    assert pos.winner() == WHITE and result_kind(pos, WHITE) == kind


def test_a_hit_during_the_bear_off():
    b = BY_RULE["bear-off-hit"]
    pos, dice = _pos(b), _dice(b)
    bearing = other(pos.turn)
    assert pos.off(bearing) > 0 and pos.bar(bearing) == 0
    assert bearing == WHITE and all(pos.owner(p)[0] != WHITE for p in range(7, 25))  # all home: bearing off
    hits = [p for p in pos.legal_plays(*dice) if any(st.hit for st in p.steps)]
    assert hits
    after = _pos(BY_RULE["bear-off-hit-after"])
    assert after in {p.next for p in hits}
    assert after.bar(bearing) == 1 and after.turn == bearing
