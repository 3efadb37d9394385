"""The .mat export (engine/matfile.py): its format, and GNU Backgammon replaying it.

The strongest check is gnubg itself: random games (finished and unfinished,
either side first, with shut-outs, gammons and hits from the bar) are written
as .mat files, imported by Debian's gnubg, and gnubg's final Position ID,
move count and result must be the game's. The same writer runs on the page's
MicroPython: its text there must be byte for byte CPython's.
"""
import pytest

from engine import BLACK, WHITE, Dice, Game, Position, build
from engine.matfile import entry_text, match_text, player_name
from gnubg_import import imported
from micropython import run


def random_game(seed: int, turns=None) -> Game:
    """A game of random legal plays (``turns`` plays at most), the dice from ``seed``."""
    pick = Dice(f"pick-{seed}")
    game = Game(dice=Dice(seed))
    game.opening_roll()
    n = 0
    while not game.is_over and (turns is None or n < turns):
        if game.dice is None:
            game.roll()
        plays = game.legal_plays()
        if plays:
            game.play(plays[pick.below(len(plays))])
        else:
            game.pass_turn()
        n += 1
    return game


GAMES = {seed: random_game(seed, None if seed % 4 else 15 + seed) for seed in range(24)}


def test_the_games_cover_what_the_format_must_carry():
    games = list(GAMES.values())
    assert any(g.history[0].color == WHITE for g in games) and any(g.history[0].color == BLACK for g in games)
    assert any(not e.notation for g in games for e in g.history), "no turn without a legal play"
    assert any("*" in e.notation for g in games for e in g.history)
    assert any(e.notation.startswith("bar/") for g in games for e in g.history)
    assert {g.winner for g in games if g.is_over} == {WHITE, BLACK}
    assert {g.result_kind for g in games if g.is_over} >= {"single", "gammon"}
    assert any(not g.is_over for g in games)


@pytest.mark.gnubg
def test_gnubg_imports_every_game_to_the_same_final_position(tmp_path):
    paths = {}
    for seed, game in GAMES.items():
        p = tmp_path / f"game{seed}.mat"
        p.write_text(match_text(game, white="Ann Lee", black="Computer (level 3)", date="2026.12.02"))
        paths[seed] = str(p)
    got = imported(paths.values())
    for seed, game in GAMES.items():
        g = got[paths[seed]]
        # gnubg leaves the side after the last play on roll (the loser, once the game is over)
        assert g["position_id"] == game.history[-1].after_id, (seed, g)
        assert g["moves"] == len(game.history), seed  # a turn without a play is a move record too
        assert g["names"] == {"X": "Ann_Lee", "O": "Computer_level_3"}
        if game.is_over:
            points = {"single": 1, "gammon": 2, "backgammon": 3}[game.result_kind]
            assert g["result"] == {"winner": {WHITE: "Ann_Lee", BLACK: "Computer_level_3"}[game.winner],
                                   "points": points}, seed
        else:
            assert g["result"] is None, seed


def test_the_file_layout_is_gnubgs():
    g = Game(dice=Dice(7))
    g.set_opening(3, 1)
    g.play("8/5 6/5")
    g.set_dice(6, 6)
    g.play("24/18(2) 13/7(2)")
    g.set_dice(2, 4)
    g.play("13/11 6/2")
    text = match_text(g, date="2026.12.02")
    assert text.splitlines() == [
        '; [Site "backgammon in the browser"]',
        '; [EventDate "2026.12.02"]',
        "",
        " 0 point match",
        "",
        " Game 1",
        " White : 0                      Black : 0",
        "  1) 31: 8/5 6/5" + " " * 17 + "66: 24/18 24/18 13/7 13/7",  # the right column at 33, as gnubg
        "  2) 42: 13/11 6/2",
    ]


def test_black_first_leaves_the_left_column_empty():
    g = Game(dice=Dice(1))
    g.set_opening(1, 2)
    g.play("13/11 6/5")
    line = match_text(g).splitlines()[-1]
    assert line == "  1)" + " " * 29 + "21: 13/11 6/5"


def test_a_game_from_a_set_up_position_is_refused_with_a_reason():
    white_wins = Game(position=build("w 1:1 off:14; b 24:15", turn=WHITE), dice=Dice(1))
    white_wins.set_dice(6, 5)
    white_wins.play("1/off")
    with pytest.raises(ValueError, match="set-up position.*Position ID"):
        match_text(white_wins)
    assert entry_text(white_wins.history[0]) == "65: 1/0"


def test_a_turn_without_a_legal_play_is_the_roll_alone_and_hits_from_the_bar_are_marked():
    closed = build("w bar:1 13:5 8:3 6:5 off:1; b 19:2 20:2 21:2 22:2 23:2 24:2 12:3", turn=WHITE)
    g = Game(position=closed, dice=Dice(1))
    g.set_dice(6, 6)
    g.pass_turn()
    assert entry_text(g.history[0]) == "66:"
    hit = Game(dice=Dice(1), position=build("w bar:1 13:5 8:3 6:5 24:1; b 1:1 12:5 17:3 19:5 22:1", turn=WHITE))
    hit.set_dice(3, 1)
    hit.play("bar/22* 24/23")
    assert entry_text(hit.history[0]) == "31: 25/22* 24/23"


def test_wins_lines_sit_in_the_winners_column():
    for seed, game in GAMES.items():
        if not game.is_over:
            continue
        last = match_text(game).splitlines()[-1]
        points = {"single": 1, "gammon": 2, "backgammon": 3}[game.result_kind]
        words = f"Wins {points} point{'s' if points > 1 else ''}"
        assert last == (" " * 6 if game.winner == WHITE else " " * 34) + words, (seed, last)


def test_names_become_one_word():
    assert player_name("Ann Lee", "White") == "Ann_Lee"
    assert player_name("  <script>  ", "White") == "script"
    assert player_name("   ", "Black") == "Black"
    assert player_name("Computer (level 3)", "Black") == "Computer_level_3"


def test_start_position_id_is_the_opening():
    assert GAMES[0].history[0].before_id == Position.start().with_turn(GAMES[0].history[0].color).id


def test_micropython_writes_the_same_file():
    script = (
        "from engine import Dice, Game\n"
        "from engine.matfile import match_text\n"
        "for seed in range(4):\n"
        "    pick = Dice('pick-%d' % seed)\n"
        "    g = Game(dice=Dice(seed))\n"
        "    g.opening_roll()\n"
        "    while not g.is_over:\n"
        "        if g.dice is None:\n"
        "            g.roll()\n"
        "        plays = g.legal_plays()\n"
        "        if plays:\n"
        "            g.play(plays[pick.below(len(plays))])\n"
        "        else:\n"
        "            g.pass_turn()\n"
        "    print(match_text(g, white='Ann Lee', date='2026.12.02'))\n"
    )
    mp = run(script)
    expected = "".join(match_text(random_game(seed), white="Ann Lee", date="2026.12.02") + "\n" for seed in range(4))
    assert mp == expected
    assert mp.count("Wins") == 4
