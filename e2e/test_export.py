"""Export and import in the lingua franca, through the UI: the game as a gnubg .mat
download that Debian's GNU Backgammon replays to the board's position, the moves
copied as text, and a pasted Position ID set up as a practice game."""

from __future__ import annotations

from engine import BLACK, WHITE, Game, Position, build
from gnubg_import import imported
from test_game_play import BOARD, board_attrs, play_game, play_turn_ui, wait_settled
from webui.board_numbers import board_notation


def download_mat(page, tmp_path, name="game.mat"):
    with page.expect_download() as info:
        page.get_by_test_id("export-mat").click()
    download = info.value
    assert download.suggested_filename.startswith("backgammon-") and download.suggested_filename.endswith(".mat")
    path = tmp_path / name
    download.save_as(path)
    return path


def play_turns(page, turns):
    for _ in range(turns):
        phase = wait_settled(page)
        if phase == "roll":
            page.get_by_role("button", name="Roll").click()
            phase = wait_settled(page)
        if phase == "move":
            play_turn_ui(page)


def test_mat_download_mid_game_and_after_it_replays_in_gnubg(page, wait_ready, page_log, shoot, tmp_path):
    page.emulate_media(reduced_motion="reduce")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto("index.html?mode=ai&level=1&color=black&seed=21")
    wait_ready(page)
    play_turns(page, 6)
    assert wait_settled(page) == "roll"
    mid = download_mat(page, tmp_path, "mid.mat")
    mid_id = board_attrs(page)["positionId"]
    note = page.get_by_test_id("export-note").text_content()
    assert "Saved backgammon-" in note and "GNU Backgammon" in note
    shoot(page, "export-saved", full_page=True)
    res = play_game(page)
    final = download_mat(page, tmp_path, "final.mat")
    board = board_attrs(page)
    got = imported([mid, final])
    text = final.read_text()
    assert "Computer_level_1 : 0" in text and "Player : 0" in text
    # mid-game: gnubg's position is the board's, the same side on roll
    assert got[str(mid)]["position_id"] == mid_id
    # game over: the board keeps the winner on roll, gnubg the loser: the same checkers
    winner = res["winner"]
    assert got[str(final)]["position_id"] == Position.from_id(board["positionId"], turn=winner).swap().id
    assert Position.from_id(board["positionId"], turn=winner).winner() == winner
    points = {"single": 1, "gammon": 2, "backgammon": 3}[res["kind"]]
    names = {WHITE: "Computer_level_1", BLACK: "Player"}
    assert got[str(final)]["result"] == {"winner": names[winner], "points": points}
    assert got[str(final)]["moves"] == page.locator("#history li").count()
    assert page_log.problems() == []


def test_copy_moves_gives_the_game_in_board_numbers(page, context, wait_ready, page_log):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.emulate_media(reduced_motion="reduce")
    page.goto("index.html?mode=local&seed=5")
    wait_ready(page)
    play_turns(page, 7)
    wait_settled(page)
    page.get_by_test_id("copy-moves").click()
    page.wait_for_function("() => document.getElementById('export-note').textContent.includes('copied')")
    text = page.evaluate("() => navigator.clipboard.readText()")
    lines = text.splitlines()
    assert lines[0].startswith("Backgammon, ")
    # every line replays from the start: board numbers back to the mover's own, legal, same end
    game = Game()
    first = True
    blacks = 0
    for n, line in enumerate(lines[1:]):
        number, color, dice, *rest = line.replace(":", "").split(" ", 3)
        assert number == f"{n + 1}."
        color = color.lower()
        d1, d2 = (int(x) for x in dice.split("-"))
        if first:
            game.set_opening(*((d1, d2) if color == WHITE else (d2, d1)))
            first = False
        else:
            game.set_dice(d1, d2)
        assert game.turn == color
        play = rest[0] if rest else ""
        if play == "no legal move":
            game.pass_turn()
        else:
            game.play(board_notation(play, color))
            blacks += color == BLACK
    assert len(lines) - 1 == page.locator("#history li").count() >= 7 and blacks >= 3
    assert game.position.id == board_attrs(page)["positionId"]
    assert page_log.problems() == []


def test_a_pasted_position_id_sets_up_a_practice_game(page, wait_ready, page_log, shoot):
    page.emulate_media(reduced_motion="reduce")
    page.goto("index.html?mode=ai&level=1&color=white&seed=8")
    wait_ready(page)
    play_turns(page, 1)
    before = board_attrs(page)["positionId"]
    field = page.get_by_test_id("practice-id")
    # a bad ID is explained and changes nothing
    field.fill("4HPwATDgc/AB")
    page.get_by_test_id("practice-setup").click()
    note = page.get_by_test_id("export-note")
    assert "not a Position ID" in note.text_content()
    assert board_attrs(page)["positionId"] == before
    # a bear-off race, Black on roll: the computer (Black) rolls and plays from it
    race = build("w 6:3 5:3 4:2 3:2 off:5; b 19:2 20:3 21:3 22:2 off:5", turn=BLACK)
    pid = race.id
    field.fill(f"Position ID: {pid}")
    page.get_by_test_id("practice-turn").select_option("black")
    # a game in play is only ended when the player says so
    page.once("dialog", lambda d: d.dismiss())
    page.get_by_test_id("practice-setup").click()
    page.wait_for_function("() => document.getElementById('export-note').textContent.includes('goes on')")
    assert board_attrs(page)["positionId"] == before
    page.once("dialog", lambda d: d.accept())
    page.get_by_test_id("practice-setup").click()
    page.wait_for_function(f"() => document.querySelector('{BOARD}').dataset.positionId !== '{before}'")
    assert "set up" in note.text_content() and "not scored" in note.text_content()
    # the computer plays Black's roll from exactly that position
    wait_settled(page)
    history = page.locator("#history li")
    assert history.count() >= 1
    first = page.locator("#history li button").first
    first.click()
    viewed = board_attrs(page)
    assert viewed["positionId"] == pid and viewed["turn"] == BLACK
    shoot(page, "practice-position", full_page=True)
    # the practice game survives a reload
    page.get_by_role("button", name="Back to the game").click()
    now = board_attrs(page)["positionId"]
    page.reload()
    wait_ready(page)
    assert board_attrs(page)["positionId"] == now
    assert page.locator("#history li").count() >= 1
    # and it cannot become a .mat file: the format starts from the opening position
    page.get_by_test_id("export-mat").click()
    assert "set-up position" in note.text_content()
    assert page_log.problems() == []
