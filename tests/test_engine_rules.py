"""The rules of the two seed pages, one by one, on hand-made positions."""
import pytest

from engine import (
    BLACK, WHITE, DiceError, IllegalPlayError, NotationError, Points, Position, PositionIdError,
    build, from_absolute, to_absolute,
)
from engine.dice import Dice
from engine.game import Game, points_for, result_kind
from engine.turn import TurnBuilder

START = "w 24:2 13:5 8:3 6:5; b 1:2 12:5 17:3 19:5"


def results(pos, d1, d2):
    return {p.notation for p in pos.legal_plays(d1, d2)}


def test_start_position_and_pips():
    p = Position.start()
    assert p == build(START)
    assert p.id == "4HPwATDgc/ABMA"
    assert p.pip(WHITE) == p.pip(BLACK) == 167
    assert p.count(WHITE, 6) == 5 and p.count(BLACK, 19) == 5 and p.count(BLACK, 1) == 2
    assert p.owner(13) == (WHITE, 5) and p.owner(12) == (BLACK, 5) and p.owner(3) == (None, 0)
    assert p.off(WHITE) == 0 and p.bar(BLACK) == 0


def test_numbering():
    assert to_absolute(WHITE, 6) == 6 and to_absolute(BLACK, 6) == 19
    assert from_absolute(BLACK, 4) == 21 and from_absolute(WHITE, "bar") == 25
    assert to_absolute(BLACK, 25) == "bar" and to_absolute(WHITE, 0) == "off"


def test_opening_roll_higher_die_starts_and_plays_both():
    for seed in range(30):
        g = Game(dice=Dice(seed))
        w, b = g.opening_roll()
        assert w != b
        assert g.turn == (WHITE if w > b else BLACK)
        assert sorted(g.dice) == sorted((w, b))


def test_doubles_play_four_times():
    plays = Position.start().legal_plays(6, 6)
    assert all(len(p.steps) == 4 for p in plays)
    assert "24/18(2) 13/7(2)" in {p.notation for p in plays}


def test_white_enters_with_4_on_21_and_black_on_4():
    w = build("w bar:1 6:14; b 19:15", turn=WHITE)
    assert {str(to_absolute(WHITE, s.dst)) for p in w.legal_plays(4, 4) for s in p.steps[:1]} == {"21"}
    b = build("w 6:15; b bar:1 19:14", turn=BLACK)
    first = {to_absolute(BLACK, p.steps[0].dst) for p in b.legal_plays(4, 4)}
    assert first == {4}


def test_bar_checkers_enter_before_anything_else():
    pos = build("w bar:1 13:5 8:4 6:5; b 1:2 12:5 17:3 19:5", turn=WHITE)
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            for play in pos.legal_plays(d1, d2):
                assert play.steps[0].src == 25
    # two on the bar and one entry point open: one enters, nothing else moves
    pos = build("w bar:2 13:5 8:3 6:5; b 24:2 23:2 22:2 21:2 20:2 12:5", turn=WHITE)
    assert results(pos, 6, 5) == {"bar/19"}


def test_both_entry_points_blocked_forfeits():
    pos = build("w bar:1 13:14; b 19:2 20:2 21:2 22:2 23:2 24:2 12:3", turn=WHITE)
    assert pos.legal_plays(6, 5) == []
    t = TurnBuilder(pos, (6, 5))
    assert t.no_play and t.is_complete and not t.can_move
    g = Game(position=pos)
    g.set_dice(6, 5)
    g.pass_turn()
    assert g.turn == BLACK and g.history[-1].notation == ""


def test_blocked_point_is_not_a_stepping_stone():
    # 24/18 with 3-3 would pass 21, held by Black: not allowed; 24/21 impossible too
    pos = build("w 24:1 6:14; b 21:2 10:13", turn=WHITE)
    assert all(s.src != 24 for p in pos.legal_plays(3, 3) for s in p.steps)
    # with 6-3 the checker may go 24/18 via 18 only (21 is blocked)
    nots = results(pos, 6, 3)
    assert "24/15" in nots
    t = TurnBuilder(pos, (6, 3))
    assert 21 not in t.destinations(24)
    assert t.destinations(24)[15][0].die == 6


def test_landing_on_a_blot_hits_it():
    pos = build("w 24:2 13:5 8:3 6:5; b 1:2 12:5 17:3 19:4 21:1", turn=WHITE)
    play = pos.parse_play("24/21*(2) 13/10(2)", 3, 3)
    after = play.next
    assert after.bar(BLACK) == 1 and after.count(BLACK, 21) == 0
    assert after.count(WHITE, 21) == 2


def test_must_play_both_dice_if_possible():
    # White 8 with 6-1: 8/2 then 2/1, or 8/7/1; cannot play just one die when both fit
    pos = build("w 8:1 6:14; b 24:15", turn=WHITE)
    for p in pos.legal_plays(6, 1):
        assert len(p.steps) == 2


def test_higher_die_rule():
    # White's only checker outside can play a 6 or a 1 but not both: the 6 must be played.
    pos = build("w 14:1 1:14; b 7:2 13:0 12:2 19:11", turn=WHITE)
    plays = pos.legal_plays(6, 1)
    # 14/8 (6) then 8/7 blocked; 14/13 (1) then 13/7 blocked -> only one die: the higher
    assert {p.notation for p in plays} == {"14/8"}
    t = TurnBuilder(pos, (6, 1))
    assert set(t.destinations(14)) == {8}


def test_only_smaller_die_playable():
    pos = build("w 14:1 1:14; b 8:2 12:2 19:11", turn=WHITE)
    # the 6 (14/8) is blocked; the 1 (14/13) is legal, and 13/7 with the 6 is open
    assert results(pos, 6, 1) == {"14/7"}


def test_partial_doubles():
    # White checker on 13 with 5-5: 8 and 3 are blocked for a second and third 5
    pos = build("w 13:1 1:14; b 3:2 19:13", turn=WHITE)
    assert results(pos, 5, 5) == {"13/8"}


def test_bear_off_exact_and_over_roll_and_from_highest():
    pos = build("w 5:1 3:2; b 19:15", turn=WHITE)
    assert results(pos, 6, 5) == {"5/off 3/off"}  # 6 over-rolls from the highest point (5)
    assert results(pos, 4, 4) == {"5/off 3/off(2)"}  # 5/1, 1/off, then the 3s over-roll
    # a 4 cannot bear off the 2 while the 5 is occupied: 5/1 first, or the 5 goes 5/2/off
    pos = build("w 5:1 2:1; b 19:15", turn=WHITE)
    assert results(pos, 4, 3) == {"5/1 2/off", "5/off"}


def test_cannot_bear_off_with_a_checker_outside_or_on_the_bar():
    pos = build("w 7:1 3:14; b 19:15", turn=WHITE)
    # the 7 must come home before any checker is borne off
    assert results(pos, 3, 3) == {"7/1 3/off(2)", "7/4 3/off(3)"}
    hit = build("w bar:1 2:14; b 24:2 12:13", turn=WHITE)
    for play in hit.legal_plays(6, 6):
        assert all(s.dst != 0 for s in play.steps)  # must come all the way home first


def test_hit_during_bear_off_then_reenter():
    # White is bearing in with a blot on its 6 point; Black's back checkers hit it
    pos = build("w 6:1 5:4 4:5; b 1:2 19:13", turn=BLACK)
    assert results(pos, 5, 1) == {"24/18", "24/19* 6/5", "24/19*/18", "24/23 24/19*", "24/23 6/1", "6/5 6/1"}
    after = pos.parse_play("24/19* 6/5", 5, 1).next
    assert after.turn == WHITE and after.bar(WHITE) == 1
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            for p in after.legal_plays(d1, d2):
                assert p.steps[0].src == 25
                assert all(s.dst != 0 for s in p.steps)


@pytest.mark.parametrize("spec,winner,kind", [
    ("w off:15; b 19:10 off:5", WHITE, "single"),
    ("w off:15; b 19:15", WHITE, "gammon"),
    ("w off:15; b 19:14 6:1", WHITE, "backgammon"),
    ("w off:15; b 19:14 bar:1", WHITE, "backgammon"),
    ("w off:15; b 18:15", WHITE, "gammon"),
    ("b off:15; w 1:14 19:1", BLACK, "backgammon"),
    ("b off:15; w 7:15", BLACK, "gammon"),
])
def test_result_kinds(spec, winner, kind):
    pos = build(spec)
    assert pos.winner() == winner
    assert result_kind(pos, winner) == kind


def test_points_scaled_by_level_exactly():
    assert points_for("single") == 1
    assert points_for("gammon", 5) == Points(10, 3)
    assert points_for("backgammon", 1) == 1
    assert points_for("single", 4) == Points(4, 3)
    assert str(points_for("single", 5)) == "5/3"
    with pytest.raises(ValueError):
        points_for("single", 6)


def test_game_end_records_winner_kind_and_points():
    pos = build("w 1:1; b 19:15", turn=WHITE)
    g = Game(position=pos)
    g.set_dice(2, 1)
    g.play("1/off")
    assert g.is_over and g.winner == WHITE and g.result_kind == "gammon"
    assert g.points(level=5) == Points(10, 3)


@pytest.mark.parametrize("bad", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMA!", "!!!!!!!!!!!!!!", "//////////////", None, 5])
def test_bad_position_ids(bad):
    with pytest.raises(PositionIdError) as e:
        Position.from_id(bad)
    assert "Position ID" in str(e.value)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("d1,d2", [(0, 1), (7, 1), (1, -1), (1.5, 2), ("3", 1), (True, 2)])
def test_bad_dice(d1, d2):
    with pytest.raises(DiceError) as e:
        Position.start().legal_plays(d1, d2)
    assert "1 to 6" in str(e.value)


@pytest.mark.parametrize("text,exc", [
    ("24/21 13/8", IllegalPlayError),  # uses 3 and 5, roll is 3-1
    ("24-21", NotationError),
    ("hello", NotationError),
    ("21/24", NotationError),
    ("24/21(7)", NotationError),
    ("off/3", NotationError),
    ("6/3 6/5 6/4", IllegalPlayError),
])
def test_bad_plays(text, exc):
    with pytest.raises(exc) as e:
        Position.start().parse_play(text, 3, 1)
    assert isinstance(e.value, ValueError) and str(e.value)


@pytest.mark.parametrize("text", ["8/5 6/5", "6/5 8/5", "8/5, 6/5", "  8/5   6/5 "])
def test_parse_accepts_any_order_and_spacing(text):
    assert Position.start().parse_play(text, 3, 1).notation == "8/5 6/5"


def test_notation_forms():
    pos = build("w bar:1 24:1 13:5 8:3 6:5; b 22:1 3:1 12:5 17:3 19:5", turn=WHITE)
    assert {"bar/22* 13/10 6/3*(2)", "bar/22* 13/4"} <= results(pos, 3, 3)
    assert {"bar/22* 24/23", "bar/24 6/3*", "bar/21"} <= results(pos, 3, 1)
    pos = build("w 24:2 13:5 8:3 6:5; b 1:2 12:5 17:3 19:4 20:1", turn=WHITE)
    assert "24/20*/16 13/9(2)" in results(pos, 4, 4)
    off = build("w 6:2 5:3; b 19:15", turn=WHITE)
    assert results(off, 6, 6) == {"6/off(2) 5/off(2)"}
    for src, d in ((pos, 4), (off, 6)):
        for n in results(src, d, d):
            assert src.parse_play(n, d, d).notation == n  # round trip


def test_position_id_round_trip_and_repr():
    p = build("w bar:2 20:3 6:5 off:5; b 1:4 5:1 19:2 off:8", turn=BLACK)
    q = Position.from_id(p.id, turn=BLACK)
    assert q == p and hash(q) == hash(p)
    assert eval(repr(p), {"Position": Position}) == p
    assert p != q.swap() and p != (p.mover, p.opponent, p.turn)
