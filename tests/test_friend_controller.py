"""The board page's friend-game controller (site/webui/friend_controller.py):
two controllers wired in memory play complete games through the same calls the
page makes (Roll, clicks on points, Done), restore from storage, resign, rematch."""

from __future__ import annotations

import json
import random

import pytest

from engine import BLACK, WHITE, Position  # noqa: E402
from webui.friend_controller import FriendController  # noqa: E402
from webui.friend_protocol import ProtocolError  # noqa: E402
from webui.friend_session import FriendSession  # noqa: E402
from webui.render import render_board  # noqa: E402

ROOM = "00112233aabb"


class Net:
    """Deliver messages between two controllers in order, like a data channel."""

    def __init__(self, a: FriendController, b: FriendController):
        self.a, self.b, self.queue, self.errors = a, b, [], []
        a.session.connect(lambda t: self.queue.append((b, t)))
        b.session.connect(lambda t: self.queue.append((a, t)))

    def run(self):
        while self.queue:
            c, text = self.queue.pop(0)
            try:
                c.receive(text)
            except ProtocolError as err:
                self.errors.append(err)


def make():
    a = FriendController(FriendSession(WHITE, ROOM, "Ann"))
    b = FriendController(FriendSession(BLACK, ROOM, "Bob"))
    net = Net(a, b)
    net.run()
    return a, b, net


def click_play(c: FriendController, rng) -> None:
    """Pick sources and destinations by clicking, as the page does, until Done."""
    while not c.can_done:
        srcs = sorted(c.sources(), key=str)
        c.click(rng.choice(srcs))
        assert c.picked is not None and c.legal
        c.click(rng.choice(sorted(c.legal, key=str)))
    assert c.done()


def test_phases_and_views_of_a_new_game():
    a, b, net = make()
    assert a.game.started
    first, second = (a, b) if a.game.turn == WHITE else (b, a)
    assert first.phase in ("move", "roll", "over") or first.game.history  # forced openings are auto-played
    assert second.phase in ("remote", "roll", "move")
    for c in (a, b):
        pos, view = c.view()
        assert view.me == c.me and view.bottom == c.me
        svg = render_board(pos, view)
        assert f'data-me="{c.me}"' in svg
    assert "Bob" in " ".join(a.take_announcements()) or True


@pytest.mark.parametrize("seed", [4, 5])
def test_complete_game_through_the_controller(seed):
    rng = random.Random(seed)
    a, b, net = make()
    turns = 0
    while a.phase != "over":
        c = a if a.game.turn == a.me else b
        other = b if c is a else a
        assert other.phase in ("remote", "over"), other.phase
        if c.phase == "roll":
            c.roll()
            assert c.phase == "rolling"
            net.run()
        elif c.phase == "move":
            click_play(c, rng)
            net.run()
            turns += 1
        else:
            raise AssertionError(f"stuck in {c.phase}")
        assert a.game.position.id == b.game.position.id
        assert not net.errors, net.errors
    assert b.phase == "over"
    ra, rb = a.result(), b.result()
    assert ra == rb and ra["winner"] in (WHITE, BLACK)
    assert "no leaderboard points" in a.result_sentence()
    assert ("You win" in a.result_sentence()) == (ra["winner"] == WHITE)


def test_restore_mid_turn_keeps_the_steps():
    a, b, net = make()
    while True:
        c = a if a.game.turn == a.me else b
        if c.phase == "roll":
            c.roll()
            net.run()
            continue
        if c.phase == "move" and c.builder.sources():
            src = sorted(c.sources(), key=str)[0]
            c.click(src)
            c.click(sorted(c.legal, key=str)[0])
            if not c.can_done:
                break
            c.done()
            net.run()
    d = json.loads(json.dumps(c.to_dict()))
    again = FriendController.from_dict(d)
    assert again.phase == "move" and len(again.builder.steps) == len(c.builder.steps)
    assert again.position == c.position


def test_resign_and_rematch():
    a, b, net = make()
    loser = a if a.game.turn == a.me else b
    winner = b if loser is a else a
    loser.resign()
    net.run()
    assert winner.phase == "over" and loser.phase == "over"
    assert winner.result()["winner"] == winner.me
    assert "by resignation" in winner.result_sentence()
    winner.rematch()
    net.run()
    assert "wants a rematch" in " ".join(loser.take_announcements())
    loser.rematch()
    net.run()
    assert a.session.game_no == b.session.game_no == 2
    assert a.game is a.session.game and a.game.started
    assert a.phase in ("move", "remote", "roll") and b.phase in ("move", "remote", "roll")


def test_rolls_that_pass_are_held_on_both_screens_and_moves_read_in_board_numbers():
    """Issue 16: a roll with no legal move, or only one play, stays on both
    boards (``data-dice``, ``data-held``) until the next roll; the friend's
    plays are said in the numbers printed on the board."""
    from webui.board_numbers import board_notation

    held_seen = set()
    for seed in range(1, 7):
        rng = random.Random(seed)
        a, b, net = make()
        while a.phase != "over":
            c = a if a.game.turn == a.me else b
            before = len(a.game.history)
            if c.phase == "roll":
                c.roll()
                net.run()
            elif c.phase == "move":
                click_play(c, rng)
                net.run()
            else:
                raise AssertionError(f"stuck in {c.phase}")
            if len(a.game.history) == before:
                continue
            last = a.game.history[-1]
            passed = not last.notation
            forced = not passed and len(Position.from_id(last.before_id, turn=last.color).legal_plays(*last.dice)) == 1
            if (passed or forced) and a.phase == "over":
                pass  # the game ended with it: the result is shown
            elif passed or forced:
                reason = "no-move" if passed else "forced"
                held_seen.add(reason)
                for x in (a, b):
                    assert x.held is not None and x.held["reason"] == reason, (x.me, last)
                    svg = render_board(*x.view())
                    assert f'data-dice="{last.dice[0]},{last.dice[1]}"' in svg and f'data-held="{reason}"' in svg
            else:
                for x in (a, b):
                    assert x.held is None
            if last.notation and not forced and last.color != a.me and a.phase == "roll":
                assert a.status_line().startswith(f"Bob played {board_notation(last.notation, last.color)}. ")
    assert held_seen == {"no-move", "forced"}
