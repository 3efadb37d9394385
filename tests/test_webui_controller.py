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
