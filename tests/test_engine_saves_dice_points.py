"""Dice (splitmix64), exact Points, and saved games from before the dice changed."""
import json
from pathlib import Path

import pytest

from engine import Dice, Game, Points, points_for

OLD_SAVES = json.loads((Path(__file__).parent / "fixtures" / "saved_games_v1_mersenne.json").read_text())


def test_seeded_dice_repeat_and_differ_by_seed():
    a, b, c = Dice(5), Dice(5), Dice(6)
    seq_a = [a.roll() for _ in range(50)]
    assert seq_a == [b.roll() for _ in range(50)]
    assert seq_a != [c.roll() for _ in range(50)]
    assert Dice(1).getstate() != Dice("1 ").getstate()


def test_known_sequence_is_pinned():
    # the same in MicroPython (tests/test_engine_micropython.py); pinned so a change is noticed
    d = Dice(42)
    assert "".join(str(d.die()) for _ in range(20)) == "22516411435511325326"


def test_unseeded_dice_differ():
    assert len({tuple(Dice().roll() for _ in range(10)) for _ in range(20)}) == 20


def test_dice_are_fair():
    d = Dice(2026)
    counts = [0] * 6
    for _ in range(60000):
        counts[d.die() - 1] += 1
    assert all(9500 < n < 10500 for n in counts), counts
    assert {d.below(3) for _ in range(200)} == {0, 1, 2}
    with pytest.raises(ValueError):
        d.below(0)


def test_state_round_trip_is_json():
    d = Dice(9)
    d.roll()
    state = json.loads(json.dumps(d.getstate()))
    e = Dice(9)
    e.setstate(state)
    assert [d.roll() for _ in range(30)] == [e.roll() for _ in range(30)]
    for bad in (None, [], ["splitmix64", "xyz"], [3, [1, 2], None], ["mt", "0" * 16]):
        with pytest.raises(ValueError):
            e.setstate(bad)


@pytest.mark.parametrize("name", sorted(OLD_SAVES))
def test_old_mersenne_twister_saves_resume(name):
    saved = OLD_SAVES[name]
    assert len(saved["dice_state"]) == 3 and len(saved["dice_state"][1]) == 625  # really the old form
    game = Game.from_dict(saved)
    assert game.position.id == saved["position_id"] and game.turn == saved["turn"]
    assert [list(e.dice) for e in game.history] == [h[1] for h in saved["history"]]
    assert game.dice == (tuple(saved["dice"]) if saved["dice"] else None)
    assert game.dice_source.seed == saved["dice_seed"]
    # the game goes on, and its new save is in the new form and reloads exactly
    if game.dice is None:
        game.roll()
    plays = game.legal_plays()
    game.play(plays[0]) if plays else game.pass_turn()
    game.roll()
    new = game.to_dict()
    assert new["dice_state"][0] == "splitmix64"
    again = Game.from_dict(json.loads(json.dumps(new)))
    assert again.to_dict() == new and again.dice_source.roll() == game.dice_source.roll()


def test_old_seeded_save_resumes_the_same_way_every_time():
    saved = OLD_SAVES["seeded_between_turns"]
    rolls = [Game.from_dict(saved).roll() for _ in range(3)]
    assert rolls[0] == rolls[1] == rolls[2]


def test_points_text_and_arithmetic():
    assert [str(points_for(k, lv)) for k in ("single", "gammon", "backgammon") for lv in (1, 3, 5)] == [
        "1/3", "1", "5/3", "2/3", "2", "10/3", "1", "3", "5"]
    assert str(points_for("gammon")) == "2" and points_for("gammon") == 2
    assert Points(10, 6) == Points(5, 3) and hash(Points(6, 3)) == hash(2)
    assert sum([Points(1, 3), Points(2, 3)]) == 1 and str(Points(4, 3) - 2) == "-2/3"
    assert sorted([Points(5, 3), Points(1), Points(1, 3)]) == [Points(1, 3), 1, Points(5, 3)]
    assert Points(4, 3) * 2 == Points(8, 3) and -Points(1, 3) < 0 and float(Points(1, 3)) == 1 / 3
    for text in ("5/3", "2", "1/3", "-1/3", "10/3", " 4/3 "):
        assert str(Points.parse(text)) == text.strip()
    assert Points.parse("2/6") == Points(1, 3)
    for bad in ("", "1/2", "5/0", "x", "1.5", "1//3", "/3", None):
        with pytest.raises(ValueError):
            Points.parse(bad)  # type: ignore[arg-type]


def test_a_game_from_a_set_up_position_saves_and_restores():
    import json

    from engine import BLACK, Dice, Game, Position, build

    start = build("w 6:2 5:3 4:2 off:8; b 19:3 20:4 21:1 off:7", turn=BLACK)
    game = Game(dice=Dice(5), position=start)
    fresh = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert fresh.position == start and fresh.history == [] and fresh.opening is None
    for _ in range(6):
        game.roll()
        plays = game.legal_plays()
        game.play(plays[0]) if plays else game.pass_turn()
        back = Game.from_dict(json.loads(json.dumps(game.to_dict())))
        assert back.position == game.position and back.history == game.history
        assert back.to_dict() == game.to_dict()
    game.roll()
    back = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert back.dice == game.dice
    assert Position.start().id != game.history[0].before_id
