"""The game page's text exports and imports (site/webui/game_text.py, with the board
numbers of site/webui/board_numbers.py), on CPython and MicroPython."""
import pytest

from engine import BLACK, WHITE, Dice, Game, Position, build, to_absolute
from micropython import run
from webui.controller import Controller, Settings
from webui.board_numbers import board_notation
from webui.game_text import mat_file, moves_text, practice_position


def test_board_notation_follows_the_board_labels_for_every_black_play():
    """Each move's numbers are the board points the checker leaves and reaches."""
    game = Game(dice=Dice(11))
    game.opening_roll()
    seen = 0
    while not game.is_over and seen < 60:
        if game.dice is None:
            game.roll()
        plays = game.legal_plays()
        if not plays:
            game.pass_turn()
            continue
        play = plays[-1]
        color = game.turn
        text = board_notation(play.notation, color)
        srcs = {str(to_absolute(color, st.src)) for st in play.steps}
        dsts = {str(to_absolute(color, st.dst)) for st in play.steps}
        for move in text.split(" "):
            points = move.split("(")[0].replace("*", "").split("/")
            assert points[0] in srcs and points[-1] in dsts, (play.notation, text)
        assert board_notation(text, color) == play.notation  # the mapping is its own inverse
        if color == WHITE:
            assert text == play.notation
        game.play(play)
        seen += 1
    assert seen == 60


def test_moves_text_numbers_turns_and_says_when_a_roll_could_not_be_played():
    g = Game(dice=Dice(1))
    g.set_opening(1, 2)
    g.play("13/11 6/5")
    g.set_dice(3, 1)
    g.play("8/5 6/5")
    assert moves_text(g.history, "Backgammon, 2026-12-02") == (
        "Backgammon, 2026-12-02\n1. Black 2-1: 12/14 19/20\n2. White 3-1: 8/5 6/5")


def test_mat_file_names_the_player_and_the_computer():
    ctl = Controller()
    ctl.new_game(Settings("ai", 2, BLACK, 4))
    name, text = mat_file(ctl.game, ctl.settings, "Ann Lee", "2026-12-02")
    assert name == "backgammon-2026-12-02.mat"
    assert " Computer_level_2 : 0" in text and "Ann_Lee : 0" in text
    assert '[EventDate "2026.12.02"]' in text
    local = Controller()
    local.new_game(Settings("local", 3, WHITE, 4))
    assert " White : 0" in mat_file(local.game, local.settings, "Ann", "2026-12-02")[1]


@pytest.mark.parametrize("text", ["4HPwATDgc/ABMA", "  Position ID: 4HPwATDgc/ABMA\n",
                                  "4HPwATDgc/ABMA:cAkAAAAAAAAA"])
def test_practice_position_reads_what_gnubg_shows(text):
    assert practice_position(text, BLACK) == Position.start().with_turn(BLACK)


@pytest.mark.parametrize("text, words", [("", "not a Position ID"), ("hello", "not a Position ID"),
                                         ("////////////////", "not a Position ID"),
                                         ("AAAAAAAAAAAAAA", "game is over"),
                                         ("//////////////", "not a valid Position ID")])
def test_practice_position_explains_what_is_wrong(text, words):
    with pytest.raises(ValueError, match=words):
        practice_position(text, WHITE)


def test_a_practice_game_starts_at_the_position_saves_and_never_reaches_the_leaderboard():
    pos = build("w 2:1 1:1 off:13; b 24:2 23:1 off:12", turn=WHITE)
    ctl = Controller()
    ctl.new_game(Settings("ai", 3, WHITE), start=practice_position(pos.id, WHITE))
    assert ctl.practice and ctl.phase == "roll" and ctl.game.position == pos
    assert "Practice position set up." in ctl.take_announcements()
    ctl.game.dice_source = Dice(0)
    while ctl.phase != "over":
        if ctl.phase == "roll":
            ctl.roll()
        elif ctl.phase == "move":
            ctl.done() if ctl.builder.is_complete else ctl.move(*_first_move(ctl))
        elif ctl.phase == "ai":
            ctl.ai_roll() if ctl.ai_needs_roll() else ctl.ai_play("")
        restored = Controller.from_dict(ctl.to_dict())
        assert restored.game.position == ctl.game.position and restored.practice
    assert ctl.leaderboard_entry("Ann", "2026-12-02") is None
    with pytest.raises(ValueError, match="set-up position"):
        mat_file(ctl.game, ctl.settings, "Ann", "2026-12-02")


def _first_move(ctl):
    src = sorted(ctl.sources())[0]
    ctl.pick(src)
    return src, sorted(ctl.legal, key=str)[0]


def test_micropython_gives_the_same_texts():
    script = (
        "from engine import Dice, Game\n"
        "from webui.game_text import moves_text, practice_position\n"
        "g = Game(dice=Dice(3))\n"
        "g.opening_roll()\n"
        "for i in range(30):\n"
        "    if g.dice is None:\n"
        "        g.roll()\n"
        "    plays = g.legal_plays()\n"
        "    g.play(plays[i % len(plays)]) if plays else g.pass_turn()\n"
        "print(moves_text(g.history, 'title'))\n"
        "print(practice_position('Position ID: 4HPwATDgc/ABMA', 'black').id)\n"
        "for bad in ('', 'AAAAAAAAAAAAAA', '//////////////'):\n"
        "    try:\n"
        "        practice_position(bad, 'white')\n"
        "    except ValueError as err:\n"
        "        print(err)\n"
    )
    mp = run(script, libs=("engine", "webui"))
    g = Game(dice=Dice(3))
    g.opening_roll()
    for i in range(30):
        if g.dice is None:
            g.roll()
        plays = g.legal_plays()
        g.play(plays[i % len(plays)]) if plays else g.pass_turn()
    lines = [moves_text(g.history, "title"), practice_position("Position ID: 4HPwATDgc/ABMA", BLACK).id]
    for bad in ("", "AAAAAAAAAAAAAA", "//////////////"):
        try:
            practice_position(bad, WHITE)
        except ValueError as err:
            lines.append(str(err))
    assert mp == "\n".join(lines) + "\n"
    assert "30. " in mp
