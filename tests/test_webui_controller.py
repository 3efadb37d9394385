"""Game flow of the board page (site/webui/controller.py): no DOM, real engine."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from engine import from_absolute, to_absolute  # noqa: E402
from webui import autoplay, storage  # noqa: E402
from webui.controller import Controller, Settings, fraction_text  # noqa: E402
from webui.render import render_board  # noqa: E402

from engine import TurnBuilder  # noqa: E402


def play_human_turn(c: Controller, check: bool = True) -> None:
    """Play the turn by always taking the first source and its first destination."""
    start = c.game.position
    dice = tuple(c.game.dice)
    ref = TurnBuilder(start, dice)
    for st in c.builder.steps:
        ref.step(st)
    while not c.can_done or (c.builder and c.builder.can_move and not c.builder.is_complete):
        srcs = sorted(c.sources(), key=str)
        assert srcs, "a move must exist while the play is incomplete"
        src = srcs[0]
        assert c.click(src) == "pick"
        expected = {to_absolute(start.turn, d) for d in ref.destinations(from_absolute(start.turn, src))}
        if check:
            assert set(c.legal) == expected
        dst = sorted(c.legal, key=str)[0]
        assert c.click(dst) == "move"
        ref.move(from_absolute(start.turn, src), from_absolute(start.turn, dst))
        if c.can_done:
            break
    assert c.done()


def weak_ai(pos, d1, d2) -> str:
    """A deliberately poor computer side (the last legal play) for tests that need the human to win."""
    plays = pos.legal_plays(d1, d2)
    return plays[-1].notation if plays else ""


def play_to_end(c: Controller, limit: int = 400, ai=None) -> None:
    for _ in range(limit):
        if c.phase == "over":
            return
        if c.phase == "roll":
            c.roll()
        elif c.phase == "move":
            play_human_turn(c)
        elif c.phase == "ai":
            if c.ai_needs_roll():
                c.ai_roll()
            pos = c.game.position
            if ai is not None:
                c.ai_play(ai(pos, *c.game.dice))
            else:
                c.ai_play(autoplay.choose(pos.id, pos.turn, *c.game.dice, level=1, seed=1))
    raise AssertionError("game did not finish")


def test_settings_from_params():
    s = Settings.from_params({"mode": "ai", "level": "5", "color": "black", "seed": "42"})
    assert (s.mode, s.level, s.color, s.seed) == ("ai", 5, "black", 42)
    s = Settings.from_params({"mode": "chess", "level": "x", "color": "red", "seed": "nope"})
    assert (s.mode, s.level, s.color, s.seed) == ("ai", 3, "white", None)
    assert Settings.from_params({"mode": "local"}).params() == {"mode": "local"}


def test_local_game_to_the_end_with_pick_checks():
    c = Controller()
    c.new_game(Settings(mode="local", seed=3))
    assert c.opening is not None
    play_to_end(c)
    res = c.result()
    assert res["winner"] in ("white", "black")
    assert res["kind"] in ("single", "gammon", "backgammon")
    assert Fraction(res["points"]) in (1, 2, 3)
    assert c.history() and all(e.notation or e.notation == "" for e in c.history())


@pytest.mark.parametrize("color", ["white", "black"])
def test_ai_game_scales_points(color):
    c = Controller()
    c.new_game(Settings(mode="ai", level=1, color=color, seed=11))
    play_to_end(c)
    res = c.result()
    assert Fraction(res["points"]) in (Fraction(1, 3), Fraction(2, 3), Fraction(1))


def test_click_pick_putdown_and_undo():
    c = Controller()
    c.new_game(Settings(mode="local", seed=5))
    while c.phase != "move":
        play_to_end_step(c)
    src = sorted(c.sources(), key=str)[0]
    assert c.click(src) == "pick" and c.picked == src and c.legal
    assert c.click(src) == "drop" and c.picked is None and not c.legal
    before = c.position
    c.click(src)
    dst = sorted(c.legal, key=str)[0]
    c.click(dst)
    assert c.position != before
    while c.builder.steps:
        assert c.undo()
    assert c.position == before
    assert not c.undo()


def play_to_end_step(c):
    if c.phase == "roll":
        c.roll()
    elif c.phase == "move":
        play_human_turn(c)


def test_view_contract_values():
    c = Controller()
    c.new_game(Settings(mode="ai", level=2, color="black", seed=9))
    pos, v = c.view()
    svg = render_board(pos, v)
    assert f'data-position-id="{c.game.position.id}"' in svg
    assert 'data-me="black"' in svg and 'data-bottom="black"' in svg
    assert f'data-dice="{c.game.dice[0]},{c.game.dice[1]}"' in svg


def test_save_and_restore_mid_turn_exactly():
    c = Controller()
    c.new_game(Settings(mode="local", seed=21))
    for _ in range(6):
        play_to_end_step(c)
    while c.phase != "move":
        play_to_end_step(c)
    src = sorted(c.sources(), key=str)[0]
    c.click(src)
    c.click(sorted(c.legal, key=str)[0])
    text = json.dumps(c.to_dict())
    r, problem = storage.load_game(text, Controller.from_dict)
    assert problem is None
    assert r.position == c.position and r.game.dice == c.game.dice and r.phase == c.phase
    assert [h for h in r.history()] == [h for h in c.history()]
    # the seeded dice go on identically
    play_human_turn(c)
    play_human_turn(r) if r.phase == "move" else None
    if c.phase == "roll" and r.phase == "roll":
        assert c.roll() == r.roll()


@pytest.mark.parametrize(
    "text",
    ["{not json", json.dumps({"v": 999}), json.dumps({"v": 1, "settings": {}, "game": {"version": 1}}), json.dumps([1, 2])],
)
def test_corrupt_or_old_saved_game_is_reported(text):
    c, problem = storage.load_game(text, Controller.from_dict)
    assert c is None and "could not be restored" in problem


def test_leaderboard_sorting_and_damage():
    entries = storage.add_entry([], "Ann", "2026-11-29", 5, "gammon", "10/3")
    entries = storage.add_entry(entries, "Bob", "2026-11-28", 1, "single", "1/3")
    entries = storage.add_entry(entries, "Cy", "2026-11-27", 3, "backgammon", "3")
    assert [e["name"] for e in entries] == ["Ann", "Cy", "Bob"]
    loaded, problem = storage.load_leaderboard(storage.dump_leaderboard(entries))
    assert loaded == entries and problem is None
    bad = json.dumps({"v": 1, "entries": entries + [{"name": 3}]})
    loaded, problem = storage.load_leaderboard(bad)
    assert loaded == entries and "skipped" in problem
    assert storage.load_leaderboard("garbage")[1]
    assert storage.load_leaderboard(None) == ([], None)


def test_fraction_text():
    assert fraction_text(Fraction(5, 3)) == "5/3"
    assert fraction_text(Fraction(2)) == "2"


def finished_game(settings: Settings) -> Controller:
    for seed in range(1, 60):
        c = Controller()
        c.new_game(Settings(settings.mode, settings.level, settings.color, seed))
        play_to_end(c, ai=weak_ai)
        if c.result()["winner"] == settings.color:
            c.settings = settings  # as if unseeded
            return c
    raise AssertionError("no win found")


def test_leaderboard_entry_only_for_unseeded_wins_and_once():
    c = finished_game(Settings("ai", 4, "white", None))
    entry = c.leaderboard_entry("Ann", "2026-11-30")
    assert entry["name"] == "Ann" and entry["level"] == 4
    mult = {"single": 1, "gammon": 2, "backgammon": 3}[entry["kind"]]
    assert Fraction(entry["points"]) == Fraction(4 * mult, 3)
    assert c.leaderboard_entry("Ann", "2026-11-30") is None  # once
    restored = Controller.from_dict(json.loads(json.dumps(c.to_dict())))
    assert restored.leaderboard_entry("Ann", "2026-11-30") is None  # survives reload
    seeded = finished_game(Settings("ai", 4, "white", 5))
    seeded.settings = Settings("ai", 4, "white", 5)
    assert seeded.leaderboard_entry("Ann", "x") is None
    local = Controller()
    local.new_game(Settings("local", seed=4))
    play_to_end(local)
    assert local.leaderboard_entry("Ann", "x") is None


def test_hint_arrows_until_the_first_step():
    c = Controller()
    c.new_game(Settings(mode="local", seed=5))
    while c.phase != "move":
        play_to_end_step(c)
    play = c.game.position.legal_plays(*c.game.dice)[0]
    arrows = c.set_hint(play.notation)
    assert arrows and c.view()[1].hint == arrows
    src = sorted(c.sources(), key=str)[0]
    c.click(src)
    assert c.view()[1].hint == ()  # hidden while a checker is picked up
    c.click(sorted(c.legal, key=str)[0])
    assert c.view()[1].hint == ()  # and once the player has moved


def test_computer_player_is_the_ai_not_the_fallback():
    """The page's computer side plays exactly what ``ai`` chooses at that level and seed."""
    import random

    from ai import choose as ai_choose
    from engine import Position

    rng = random.Random(5)
    pos = Position.start()
    checked = 0
    for _ in range(40):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        plays = pos.legal_plays(d1, d2)
        if len(plays) > 1:
            for level in (1, 5):
                want = ai_choose(pos, d1, d2, level=level, seed=7).notation
                assert autoplay.choose(pos.id, pos.turn, d1, d2, level=level, seed=7) == want
                checked += 1
        pos = (rng.choice(plays).next if plays else pos.swap())
        if pos.winner():
            break
    assert checked >= 20


# ---------------------------------------------------------------- issue 16: play feel

from engine import Game, Position  # noqa: E402
from webui.board_numbers import board_notation  # noqa: E402


def test_movable_order_is_the_engines_sources_farthest_back_first():
    for color in ("white", "black"):
        c = Controller()
        c.new_game(Settings("local", seed=21))
        while c.phase != "move" or c.turn != color:
            if c.phase == "roll":
                c.roll()
            elif c.phase == "move":
                c.click(c.movable_order()[0])
                c.click(sorted(c.legal, key=str)[0])
                c.done() if c.can_done else None
        order = c.movable_order()
        assert set(order) == c.sources() and order
        own = [25 if p == "bar" else (p if color == "white" else 25 - p) for p in order]
        assert own == sorted(own, reverse=True)


def test_board_notation_uses_the_numbers_printed_on_the_board():
    """Black's gnubg notation (own numbering) is shown in the board's numbers
    (White's, the ``data-point`` ones): every step's source and destination."""
    assert board_notation("24/15", "black") == "1/10"
    assert board_notation("24/15", "white") == "24/15"
    assert board_notation("bar/22* 6/off", "black") == "bar/3* 19/off"
    assert board_notation("8/5(2) 6/5(2)", "black") == "17/20(2) 19/20(2)"
    assert board_notation("24/20*/16", "black") == "1/5*/9"
    assert board_notation("", "black") == ""
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            for play in Position.start("black").legal_plays(d1, d2):
                shown = board_notation(play.notation, "black")
                assert board_notation(shown, "black") == play.notation  # the mapping is its own inverse
                points = {p.rstrip("*").split("(")[0] for tok in shown.split() for p in tok.split("/")}
                want = {str(to_absolute("black", n)) for st in play.steps for n in (st.src, st.dst)}
                # joined paths ("24/20/16" -> "24/16") drop intermediate points, never add any
                assert points <= want and {str(to_absolute("black", play.steps[0].src))} <= points


def test_black_status_and_done_are_in_board_numbers():
    c = Controller()
    c.new_game(Settings(mode="ai", level=1, color="black", seed=5))
    while c.phase != "move":
        if c.ai_needs_roll():
            c.ai_roll()
        if c.phase == "ai":
            c.ai_play("")
        elif c.phase == "roll":
            c.roll()
    assert c.turn == "black"
    src = max(c.sources(), key=lambda p: 25 - p if p != "bar" else 25)
    c.click(src)
    dst = sorted(c.legal, key=str)[0]
    c.click(dst)
    line = c.status_line()
    assert f"{src}/{dst}" in line or f"{src}/{dst}*" in line, line  # the board's numbers, not Black's own
    play_human_turn(c, check=False)
    said = c.take_announcements()
    played = [t for t in said if t.startswith("You played ")][-1]
    entry = [e for e in c.game.history if e.color == "black"][-1]
    assert played == f"You played {board_notation(entry.notation, 'black')}."


def shut_out_controller(mode="local"):
    """White on the bar against Black's closed home board: White cannot move."""
    white = [0] * 25
    white[24] = 1        # on the bar
    white[5] = 14        # the rest on White's 6 point
    black = [0] * 25
    for i in range(6):   # Black holds its points 19-24 (own 1-6), two each
        black[i] = 2
    black[12] = 3
    pos = Position(white, black, "white")
    c = Controller(Settings(mode=mode, level=1, color="white", seed=3))
    c.game = Game(position=pos)
    c.phase = "roll"
    return c


def test_a_roll_without_a_legal_move_stays_on_the_board_with_its_reason():
    c = shut_out_controller()
    c.roll()
    dice = tuple(c.game.history[-1].dice)
    assert c.game.history[-1].notation == "" and c.turn == "black" and c.phase == "roll"
    pos, v = c.view()
    svg = render_board(pos, v)
    assert f'data-dice="{dice[0]},{dice[1]}"' in svg and 'data-held="no-move"' in svg
    assert "No legal move" in svg
    assert c.status_line() == f"White rolled {dice[0]}-{dice[1]}: no legal move, the turn passes. Black to roll."
    # until the page lets it go (after about a second) or the next roll replaces it
    held = c.held
    assert c.release_held(held) and not c.release_held(held)
    pos, v = c.view()
    svg = render_board(pos, v)
    assert 'data-dice=""' in svg and "data-held" not in svg
    assert c.status_line().startswith("White rolled") and c.status_line().endswith("Black to roll.")
    c2 = shut_out_controller()
    c2.roll()
    c2.roll()
    assert c2.held is None


def test_the_computer_passing_holds_its_roll_too():
    c = shut_out_controller(mode="ai")
    c.settings.color = "black"
    c.mode = c.mode.__class__("black", 1)
    c.phase = "ai"
    c.ai_roll()
    assert c.ai_play("") == []
    assert c.held["reason"] == "no-move" and c.phase == "roll"
    assert 'data-held="no-move"' in render_board(*c.view())
    c.roll()
    assert c.held is None or c.held["color"] == "black"


def test_status_line_says_the_state_only():
    c = Controller()
    c.new_game(Settings(mode="local", seed=3))
    while c.phase != "move":
        c.roll()
    first = c.status_line()
    assert first.count(".") <= 3 and "undone" not in first
    src = sorted(c.sources(), key=str)[0]
    c.click(src)
    c.click(sorted(c.legal, key=str)[0])
    moved = c.status_line()
    assert "moved" in moved or "Play complete" in moved
    c.undo()
    assert c.status_line() == first  # back to the same state, nothing piled up
    play_human_turn(c)
    line = c.status_line()
    assert line.endswith(" to roll.") and line.count(" played ") == 1


def opening_move_controller(seed_min=1):
    """A two-player game at its opening move with two different dice."""
    for seed in range(seed_min, 200):
        c = Controller()
        c.new_game(Settings(mode="local", seed=seed))
        if c.phase == "move" and c.game.dice[0] != c.game.dice[1]:
            return c
    raise AssertionError("no opening found")


def test_quick_move_uses_the_higher_die_then_the_other():
    c = opening_move_controller()
    turn = c.turn
    hi, lo = max(c.game.dice), min(c.game.dice)
    # a checker that can move by the higher die: the one on the 13 point (own numbering)
    src = to_absolute(turn, 13)
    assert c.quick(src) == "move"
    assert [(st.src, st.dst) for st in c.builder.steps] == [(13, 13 - hi)]
    assert c.quick(to_absolute(turn, 13 - hi)) == "move"   # the second click moves it on with the other die
    assert [(st.src, st.dst) for st in c.builder.steps] == [(13, 13 - hi), (13 - hi, 13 - hi - lo)]
    assert c.can_done
    c2 = opening_move_controller()
    assert c2.quick(to_absolute(c2.turn, 13), "low") == "move"  # right-click: the lower die
    assert [(st.src, st.dst) for st in c2.builder.steps] == [(13, 13 - lo)]


def test_a_checker_that_cannot_move_is_refused_visibly():
    c = opening_move_controller()
    turn = c.turn
    movable = c.sources()
    pos = c.builder.position
    stuck = [p for p in range(1, 25) if pos.owner(p)[0] == turn and p not in movable]
    empty = [p for p in range(1, 25) if not pos.owner(p)[1]]
    pos_v, v = c.view()
    svg = render_board(pos_v, v)
    assert svg.count('data-movable="true"') == len(movable) and svg.count("movable-ring") == len(movable)
    if stuck:
        assert c.click(stuck[0]) == "refused"
        assert 'data-refused="true"' in render_board(*c.view())
        assert f"The checker on {stuck[0]} cannot move" in c.status_line()
    assert c.click(empty[0]) == "none" and c.refused is None
    assert 'data-refused' not in render_board(*c.view())


def test_undo_takes_back_a_whole_checker_move_and_undo_all_the_turn():
    c = opening_move_controller()
    turn = c.turn
    hi, lo = max(c.game.dice), min(c.game.dice)
    start = c.builder.position
    c.click(to_absolute(turn, 13))
    combined = to_absolute(turn, 13 - hi - lo)
    assert combined in c.legal  # nothing blocks 13 -> 13-hi -> 13-hi-lo at the start
    c.click(combined)                      # one checker, both dice: two steps
    assert len(c.builder.steps) == 2
    assert c.undo() and c.builder.steps == [] and c.builder.position == start
    c.quick(to_absolute(turn, 13))
    c.quick(to_absolute(turn, 24))
    assert len(c.builder.steps) == 2
    assert c.undo(everything=True) and c.builder.steps == [] and c.builder.position == start
    assert not c.undo()


@pytest.mark.parametrize("mode", ["ai", "local"])
def test_resign_scores_what_the_position_shows_and_survives_a_reload(mode):
    from engine import result_kind

    c = Controller()
    c.new_game(Settings(mode=mode, level=2, color="black", seed=11))
    for _ in range(6):
        if c.phase == "ai":
            if c.ai_needs_roll():
                c.ai_roll()
            c.ai_play("")
        else:
            play_to_end_step(c)
    loser = "black" if mode == "ai" else c.turn
    winner = "white" if loser == "black" else "black"
    kind = result_kind(c.game.position, winner)
    assert kind == "backgammon"  # early on: the loser still has checkers in the winner's home board
    assert c.resign_offer() == (winner, kind, "2" if mode == "ai" else "3")  # level 2: 3 x 2/3
    assert c.resign()
    assert c.phase == "over" and not c.resign()
    assert c.result() == {"winner": winner, "kind": kind, "points": "2" if mode == "ai" else "3"}
    assert "by resignation" in c.result_sentence()
    assert c.leaderboard_entry("Ann", "2026-12-02") is None  # a loss (and seeded) is never a win on the board
    back = Controller.from_dict(json.loads(json.dumps(c.to_dict())))
    assert back.phase == "over" and back.result() == c.result()
    old = c.to_dict()
    del old["resigned"]  # a game saved before resigning existed still loads
    assert Controller.from_dict(old).resigned is None


def test_resigning_a_gammon_and_a_single():
    """Scored as the position shows: a player who bore off is resigning a single game."""
    from engine import Game

    c = Controller(Settings(mode="local", seed=1))
    white = [0] * 25
    white[0] = 14                     # White has 14 on its 1 point and one borne off
    black = [0] * 25
    black[5] = 15                     # Black all on its own 6 point: none off, none in White's home
    c.game = Game(position=Position(black, white, "black"))  # (mover first)
    c.phase = "roll"
    assert c.resign_offer() == ("white", "gammon", "2")
    black2 = [0] * 25
    black2[0] = 14                    # Black has borne one off: a single game
    c.game = Game(position=Position(black2, white, "black"))
    assert c.resign_offer() == ("white", "single", "1")


def test_history_steps_back_and_forth_with_the_move_drawn():
    c = Controller()
    c.new_game(Settings(mode="local", seed=3))
    while len(c.game.history) < 4:
        play_to_end_step(c)
    n = len(c.game.history)
    c.step_history(1)
    assert c.viewing is None  # from the game, "next" stays in the game
    c.step_history(-1)
    assert c.viewing == n - 1
    e = c.game.history[n - 1]
    assert c.viewing_text() == f"Viewing move {n} of {n}: {e.color.capitalize()} {e.dice[0]}-{e.dice[1]}: " + \
        board_notation(e.notation, e.color)
    pos, v = c.view()
    assert pos.id == e.before_id and len(v.hint) == len(pos.parse_play(e.notation, *e.dice).steps)
    assert 'data-viewing="%d"' % (n - 1) in render_board(pos, v) and "<line" in render_board(pos, v)
    for _ in range(n + 2):
        c.step_history(-1)
    assert c.viewing == 0
    assert c.click(13) == "none"  # read-only
    for _ in range(n):
        c.step_history(1)
    assert c.viewing is None


def test_the_result_explains_its_points_and_gives_game_stats():
    c = finished_game(Settings("ai", 1, "white", None))
    res = c.result()
    kind = res["kind"]
    base = {"single": 1, "gammon": 2, "backgammon": 3}[kind]
    name = {"single": "Single game", "gammon": "Gammon", "backgammon": "Backgammon"}[kind]
    where = "on the leaderboard." if res["winner"] == "white" else "for the computer (only your wins go on the leaderboard)."
    assert c.score_text() == f"{name}: {base} point{'s' if base > 1 else ''}, × 1/3 for level 1 = {res['points']} {where}"
    stats = {label: (w, b) for label, w, b in c.game_stats()}
    h = c.game.history
    assert stats["Turns"] == (sum(e.color == "white" for e in h), sum(e.color == "black" for e in h))
    assert stats["Shut out (no legal move)"] == (sum(e.color == "white" and not e.notation for e in h),
                                                 sum(e.color == "black" and not e.notation for e in h))
    assert 0 in stats["Pips left"] and 15 in stats["Checkers borne off"]
    local = finished_game(Settings("local", 3, "white", 4))
    assert local.score_text() == {"single": "Single game: 1 point.", "gammon": "Gammon: 2 points.",
                                  "backgammon": "Backgammon: 3 points."}[local.result()["kind"]]


def test_play_options_read_from_storage_with_defaults_for_odd_values():
    from webui.play_options import read_options, speed_factor

    assert read_options(None) == {"autoRoll": False, "autoDone": False, "quick": False, "sounds": False,
                                  "theme": "auto", "speed": "auto"}
    got = read_options({"autoRoll": True, "autoDone": "yes", "quick": 1, "sounds": True, "theme": "dark",
                        "speed": "warp", "name": "Zoe"})
    assert got == {"autoRoll": True, "autoDone": False, "quick": False, "sounds": True, "theme": "dark",
                   "speed": "auto"}
    assert speed_factor({"speed": "auto"}, reduced_motion=True) == 0  # prefers-reduced-motion honoured
    assert speed_factor({"speed": "auto"}, reduced_motion=False) == 1
    assert speed_factor({"speed": "slow"}, reduced_motion=True) > 1  # an explicit choice wins
    assert 0 < speed_factor({"speed": "fast"}, reduced_motion=False) < 1
    assert speed_factor({"speed": "off"}, reduced_motion=False) == 0


def test_the_glide_follows_the_speed_option():
    from webui.render import View

    pos = Controller()
    pos.new_game(Settings(mode="local", seed=3))
    p = pos.game.position
    src = max(p.owner(q)[1] and q for q in range(1, 25))
    svg = render_board(p, View(moved=(src, src, p.owner(src)[0]), glide_s=0.9))
    assert 'dur="0.90s"' in svg
