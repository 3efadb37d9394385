"""The friend game's session state machine (site/webui/friend_session.py), two
sessions wired together in memory: fair dice, validation of every play,
tampering, reconnection, resignation, rematch, persistence."""

from __future__ import annotations

import json
import random

import pytest

from engine import BLACK, WHITE, Position, result_kind  # noqa: E402
from webui import fair_dice  # noqa: E402
from webui.friend_protocol import ProtocolError  # noqa: E402
from webui.friend_session import FriendSession, GameStopped, Loopback  # noqa: E402

ROOM = "0123456789ab"


def pair(**kw):
    a, b = FriendSession(WHITE, ROOM, "Ann"), FriendSession(BLACK, ROOM, "Bob")
    net = Loopback(a, b)
    net.run()
    return a, b, net


def mover(a, b):
    return a if a.game.turn == a.me else b


def step(a, b, net, rng) -> None:
    """One half-turn: the player on roll rolls (if needed) or plays a random legal play."""
    s = mover(a, b)
    if s.game.dice is None:
        s.start_roll()
    else:
        plays = s.game.legal_plays()
        s.play_local(rng.choice(plays) if plays else None)
    net.run()


def play_out(a, b, net, rng, limit=2000) -> None:
    n = 0
    while not a.is_over and n < limit:
        step(a, b, net, rng)
        assert a.game.position.id == b.game.position.id
        assert a.game.dice == b.game.dice
        assert not net.errors[id(a)] and not net.errors[id(b)], net.errors
        n += 1
    assert a.is_over and b.is_over


def test_hello_then_the_opening_roll():
    a, b, net = pair()
    assert (a.peer_name, b.peer_name) == ("Bob", "Ann")
    assert a.agreed and b.agreed
    assert a.game.started and b.game.started
    assert a.game.opening == b.game.opening and a.game.opening[0] != a.game.opening[1]
    assert a.game.dice == b.game.dice
    kinds = [e.kind for e in net.events[id(a)]]
    assert kinds[0] == "hello" and "opening" in kinds


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_complete_games_agree_at_every_step(seed):
    a, b, net = pair()
    play_out(a, b, net, random.Random(seed))
    assert a.winner == b.winner and a.result_kind == b.result_kind
    assert a.game.history == b.game.history
    assert a.points() in (1, 2, 3)


def test_dice_come_from_both_secrets():
    a, b, net = pair()
    ex_a = a.exchanges[0]
    ex_b = b.exchanges[0]
    w, bl = ex_a.mine, ex_b.mine
    assert a.game.opening == fair_dice.opening(w, bl, fair_dice.context(ROOM, 1, 0))
    s = mover(a, b)
    s.play_local(s.game.legal_plays()[0])
    net.run()
    s = mover(a, b)
    s.start_roll()
    net.run()
    idx = len(a.game.history)
    w, bl = a.exchanges[idx].mine, b.exchanges[idx].mine
    assert a.game.dice == fair_dice.roll(w, bl, fair_dice.context(ROOM, 1, idx))


def test_only_the_player_on_roll_may_start_a_roll():
    a, b, net = pair()
    s = mover(a, b)
    s.play_local(s.game.legal_plays()[0])
    net.run()
    waiting = a if a.game.turn != a.me else b
    with pytest.raises(ValueError):
        waiting.start_roll()


# ------------------------------------------------------------------ tampering
def forge(net, sender, t, **fields):
    """Send a hand-made message from ``sender`` with the next sequence number."""
    sender._send(t, **fields)
    net.run()


def at_remote_turn():
    """Game where it is Bob's (black) turn with dice on the table, seen from Ann."""
    rng = random.Random(5)
    a, b, net = pair()
    while not (a.game.turn == BLACK and a.game.dice is not None):
        step(a, b, net, rng)
    return a, b, net


def test_a_forged_illegal_play_is_refused_and_the_game_goes_on():
    a, b, net = at_remote_turn()
    before = a.to_dict()
    pos = a.game.position
    forge(net, b, "play", game=1, turn=len(a.game.history), dice=list(a.game.dice), move="24/1", pos=pos.swap().id)
    (err,) = net.errors[id(a)]
    assert "not legal" in str(err) and "24/1" in str(err)
    assert a.to_dict() == before
    # Bob's page was told
    assert any(e.kind == "peer-error" and "not legal" in e.text for e in net.events[id(b)])
    # the real play still goes through
    b.play_local(b.game.legal_plays()[0])
    net.run()
    assert a.game.position.id == b.game.position.id


def test_a_forged_dice_value_is_refused():
    a, b, net = at_remote_turn()
    before = a.to_dict()
    d1, d2 = a.game.dice
    fake = (6, 6) if (d1, d2) != (6, 6) else (5, 5)
    plays = a.game.position.legal_plays(*fake)
    forge(net, b, "play", game=1, turn=len(a.game.history), dice=list(fake), move=plays[0].notation,
          pos=plays[0].next.id)
    (err,) = net.errors[id(a)]
    assert f"claims the dice {fake[0]}-{fake[1]}" in str(err) and f"fair roll was {d1}-{d2}" in str(err)
    assert a.to_dict() == before


def test_a_wrong_resulting_position_is_refused():
    a, b, net = at_remote_turn()
    play = a.game.legal_plays()[0]
    forge(net, b, "play", game=1, turn=len(a.game.history), dice=list(a.game.dice), move=play.notation,
          pos=Position.start().id)
    assert "claims" in str(net.errors[id(a)][0])


def test_a_pass_with_a_legal_play_is_refused():
    a, b, net = at_remote_turn()
    if a.game.legal_plays():
        forge(net, b, "play", game=1, turn=len(a.game.history), dice=list(a.game.dice), move="",
              pos=a.game.position.swap().id)
        assert "passed" in str(net.errors[id(a)][0])


def test_a_play_out_of_turn_is_refused():
    a, b, net = at_remote_turn()
    play = a.game.legal_plays()[0]
    forge(net, b, "play", game=1, turn=len(a.game.history) + 1,
          dice=list(a.game.dice), move=play.notation, pos=play.next.id)
    assert "turn" in str(net.errors[id(a)][0])


def test_a_reveal_that_does_not_match_its_commitment_stops_the_game():
    rng = random.Random(9)
    a, b, net = pair()
    while not (a.game.turn == BLACK and a.game.dice is None):
        step(a, b, net, rng)
    # Bob (on roll) commits; Ann answers with commit + reveal; Bob then reveals a different secret.
    idx = len(a.game.history)
    ex = b._new_exchange(idx)
    b._send("commit", game=1, roll=idx, hash=ex.commit)
    receiver, text = net.queue.pop(0)
    a.receive(text)       # Ann answers
    b.channel.received += len(net.queue)   # Bob reads Ann's answer (commit + reveal) ...
    net.queue.clear()                        # ... but forges his reveal instead of sending his own
    b.exchanges[idx].peer_commit = a.exchanges[idx].commit
    before_pos = a.game.position.id
    with pytest.raises(GameStopped, match="does not match the commitment"):
        a.receive(b.channel.encode("reveal", game=1, roll=idx, secret=("11" * 32)))
    assert a.stopped and a.game.dice is None and a.game.position.id == before_pos
    # Bob is told (a fatal error: his page stops too), and Ann's page refuses anything further
    assert any("does not match" in json.loads(t)["reason"] and json.loads(t)["fatal"] for _, t in net.queue)
    net.run()
    assert b.stopped and "does not match" in b.stopped
    assert any(e.kind == "stopped" for e in net.events[id(b)])
    with pytest.raises(ProtocolError, match="stopped"):
        a.receive(b.channel.encode("commit", game=1, roll=idx, hash="ab" * 32))


def test_a_changed_commitment_stops_the_game():
    a, b, net = at_remote_turn()
    s = mover(a, b)
    s.play_local(s.game.legal_plays()[0])   # Bob plays: Ann's roll next
    net.run()
    a.start_roll()
    _, text = net.queue.pop(0)
    b.receive(text)                           # Bob answers commit + reveal
    net.queue.clear()
    with pytest.raises(GameStopped, match="changed its dice commitment"):
        b.receive(a.channel.encode("commit", game=1, roll=len(a.game.history), hash="cd" * 32))


def test_a_reveal_before_its_commitment_is_refused():
    a, b, net = at_remote_turn()
    b.play_local(b.game.legal_plays()[0] if b.game.legal_plays() else None)
    net.run()
    # Ann's roll: Bob sends a secret without ever committing
    with pytest.raises(ProtocolError, match="before its commitment"):
        a.receive(b.channel.encode("reveal", game=1, roll=len(a.game.history), secret="22" * 32))
    assert not a.stopped


def test_malformed_oversized_and_out_of_sequence_messages_leave_the_game_alone():
    a, b, net = at_remote_turn()
    before = a.to_dict()
    for text in ("{oops", json.dumps({"v": 1, "t": "chat", "seq": 999, "text": "x"}),
                 json.dumps({"v": 1, "t": "chat", "seq": b.next_seq(), "text": "x" * 5000}),
                 json.dumps({"v": 7, "t": "chat", "seq": b.next_seq(), "text": "hi"})):
        b.send_raw(text)
        net.run()
    errs = [str(e) for e in net.errors[id(a)]]
    assert len(errs) == 4
    assert "not valid JSON" in errs[0] and "out of sequence" in errs[1]
    assert "more than the 2048" in errs[2] and "version 7" in errs[3]
    assert a.to_dict() == before and not a.stopped
    # the game goes on: Bob's next genuine message is in sequence
    b.play_local(b.game.legal_plays()[0] if b.game.legal_plays() else None)
    net.run()
    assert a.game.position.id == b.game.position.id and len(net.errors[id(a)]) == 4


def test_messages_before_the_greeting_are_refused():
    a, b = FriendSession(WHITE, ROOM, "Ann"), FriendSession(BLACK, ROOM, "Bob")
    Loopback(a, b, connect=False)
    a.connect(lambda t: None)
    b.connect(lambda t: None)
    from webui.friend_protocol import Channel
    # no greeting yet: a commit as message 1 is refused
    with pytest.raises(ProtocolError, match="before the greeting"):
        a.receive(Channel().encode("commit", game=1, roll=0, hash="ab" * 32))


def test_a_peer_with_the_same_colour_or_another_room_is_refused():
    a = FriendSession(WHITE, ROOM, "Ann")
    c = FriendSession(WHITE, ROOM, "Eve")
    net = Loopback(a, c)
    net.run()
    assert any(isinstance(e, GameStopped) for e in net.errors[id(a)])
    d = FriendSession(WHITE, ROOM, "Ann")
    e = FriendSession(BLACK, "ffffffffffff", "Bob")
    net = Loopback(d, e)
    net.run()
    assert "another game" in str(net.errors[id(d)][0])


def test_names_are_cleaned():
    a = FriendSession(WHITE, ROOM, "Ann")
    b = FriendSession(BLACK, ROOM, "<script>\u0000x")
    Loopback(a, b).run()
    assert a.peer_name == "<script>x"


# ------------------------------------------------------------------ reconnection
def test_reconnect_with_the_same_state_continues():
    rng = random.Random(11)
    a, b, net = pair()
    for _ in range(15):
        step(a, b, net, rng)
    net.disconnect()
    a2 = FriendSession.from_dict(json.loads(json.dumps(a.to_dict())))   # Ann reloaded her tab
    net2 = Loopback(a2, b)
    net2.run()
    assert a2.agreed and b.agreed and not net2.errors[id(a2)] and not net2.errors[id(b)]
    assert any(e.kind == "resumed" for e in net2.events[id(a2)])
    play_out(a2, b, net2, rng)


@pytest.mark.parametrize("cut", range(0, 12))
def test_reconnect_after_losing_messages_mid_exchange(cut):
    """The connection drops after ``cut`` messages of a turn (roll + play) got
    through; both sides reload from storage, reconnect, and finish the game."""
    rng = random.Random(100 + cut)
    a, b, net = pair()
    for _ in range(6):
        step(a, b, net, rng)
    # start a turn and deliver only the first `cut` messages
    s = mover(a, b)
    if s.game.dice is None:
        s.start_roll()
    delivered = 0
    while net.queue and delivered < cut:
        receiver, text = net.queue.pop(0)
        net.events[id(receiver)] += receiver.receive(text)
        delivered += 1
        s = mover(a, b)
        if s.game.dice is not None and not net.queue and delivered < cut:
            plays = s.game.legal_plays()
            s.play_local(plays[0] if plays else None)
    net.disconnect()
    a2 = FriendSession.from_dict(json.loads(json.dumps(a.to_dict())))
    b2 = FriendSession.from_dict(json.loads(json.dumps(b.to_dict())))
    net2 = Loopback(a2, b2)
    net2.run()
    assert not net2.errors[id(a2)] and not net2.errors[id(b2)], net2.errors
    assert a2.agreed and b2.agreed
    play_out(a2, b2, net2, rng)


def test_disagreeing_boards_stop_the_game():
    rng = random.Random(3)
    a, b, net = pair()
    for _ in range(8):
        step(a, b, net, rng)
    net.disconnect()
    c = FriendSession.from_dict(a.to_dict())
    other = FriendSession(BLACK, ROOM, "Bob")   # Bob lost his saved game: a fresh one, 8 turns behind
    net2 = Loopback(c, other)
    net2.run()
    assert c.stopped and "disagree" in c.stopped
    assert isinstance(net2.errors[id(c)][0], GameStopped)


# ------------------------------------------------------------------ end of game
def test_resignation_gives_the_kind_the_position_shows():
    a, b, net = at_remote_turn()
    kind = b.resign()
    net.run()
    assert a.is_over and a.winner == WHITE and a.result_kind == kind == b.result_kind
    assert any(e.kind == "over" for e in net.events[id(a)])


def test_a_resignation_claiming_a_smaller_win_is_refused():
    a, b, net = at_remote_turn()
    # early in the game Black has borne nothing off: resigning is a gammon at least, never a single game
    assert a.game.position.off(BLACK) == 0 and result_kind(a.game.position, WHITE) != "single"
    forge(net, b, "resign", game=1, kind="single")
    assert "position is a" in str(net.errors[id(a)][0]) and not a.is_over


def test_rematch_needs_both_and_starts_a_fair_new_game():
    rng = random.Random(21)
    a, b, net = pair()
    play_out(a, b, net, rng)
    with pytest.raises(ProtocolError):
        a.receive(b.channel.encode("rematch", game=5))
    net.run()
    b.propose_rematch()
    net.run()
    assert any(e.kind == "rematch-offered" for e in net.events[id(a)])
    assert a.game_no == 1
    a.propose_rematch()
    net.run()
    assert a.game_no == b.game_no == 2
    assert a.game.started and a.game.opening == b.game.opening
    play_out(a, b, net, rng)


def test_persistence_round_trip():
    rng = random.Random(2)
    a, b, net = pair()
    for _ in range(9):
        step(a, b, net, rng)
    d = json.loads(json.dumps(a.to_dict()))
    again = FriendSession.from_dict(d)
    assert again.to_dict() == d
    with pytest.raises(ValueError):
        FriendSession.from_dict({"v": 99})
    with pytest.raises(ValueError):
        FriendSession.from_dict({**d, "me": "green"})


@pytest.mark.parametrize("cut", range(0, 7))
def test_reconnect_during_the_opening_roll(cut):
    a, b = FriendSession(WHITE, ROOM, "Ann"), FriendSession(BLACK, ROOM, "Bob")
    net = Loopback(a, b)
    for _ in range(cut):
        if not net.queue:
            break
        receiver, text = net.queue.pop(0)
        receiver.receive(text)
    net.disconnect()
    a2 = FriendSession.from_dict(json.loads(json.dumps(a.to_dict())))
    b2 = FriendSession.from_dict(json.loads(json.dumps(b.to_dict())))
    net2 = Loopback(a2, b2)
    net2.run()
    assert not net2.errors[id(a2)] and not net2.errors[id(b2)], net2.errors
    assert a2.game.started and b2.game.opening == a2.game.opening
    if a.game.started:   # dice already known on one side before the cut: the same dice after it
        assert a2.game.opening == a.game.opening
    play_out(a2, b2, net2, random.Random(cut))
