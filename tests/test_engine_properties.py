"""Properties over random positions and games (hypothesis)."""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from engine import BLACK, WHITE, Dice, Position, other
from engine.bench import random_game
from engine.turn import TurnBuilder

dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def positions(draw):
    """Random legal positions: any spread of checkers, some on the bar, some off."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    mover = [0] * 25
    n_m = rng.randint(1, 15)
    weights = [rng.random() for _ in range(24)] + [rng.random() * 0.3]
    for _ in range(n_m):
        mover[rng.choices(range(25), weights)[0]] += 1
    opp = [0] * 25
    free = [i for i in range(24) if mover[23 - i] == 0] + [24]
    for _ in range(rng.randint(1, 15)):
        opp[rng.choice(free)] += 1
    if draw(st.booleans()):  # bear-off like: everything home
        mover = [0] * 25
        for _ in range(n_m):
            mover[rng.randrange(6)] += 1
        opp = [0 if mover[23 - i] else opp[i] for i in range(24)] + [opp[24]]
    return Position(mover, opp, draw(st.sampled_from([WHITE, BLACK])))


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_checkers_are_conserved_and_pips_add_up(pos, roll):
    d1, d2 = roll
    before_m, before_o = pos.pip(pos.turn), pos.pip(other(pos.turn))
    for play in pos.legal_plays(d1, d2):
        after = play.result
        Position(after.mover, after.opponent, after.turn)  # validates: no overlap, counts in range
        for color in (WHITE, BLACK):
            on_board = sum(after.count(color, p) for p in range(1, 25))
            assert on_board + after.bar(color) + after.off(color) == 15
        assert after.off(pos.turn) >= pos.off(pos.turn)
        moved = sum(s.src - s.dst for s in play.steps)
        assert before_m - after.pip(pos.turn) == moved
        assert moved <= sum(s.die for s in play.steps)
        assert all(s.src - s.dst == s.die for s in play.steps if s.dst != 0)
        # a hit on the mover's point p sends a checker from the opponent's 25-p to its bar
        assert after.pip(other(pos.turn)) - before_o == sum(s.dst for s in play.steps if s.hit)
    # every legal play uses the same (greatest possible) number of dice
    assert len({len(p.steps) for p in pos.legal_plays(d1, d2)}) <= 1


def _walk(t: TurnBuilder, seen_final: set, depth=0):
    """Every complete play reachable by following offered single steps."""
    steps = t.next_steps()
    if not steps:
        assert t.is_complete, "the UI offered steps into a dead end"
        seen_final.add(t.position)
        return
    if t.is_complete:
        seen_final.add(t.position)
    for s in steps:
        t.step(s)
        _walk(t, seen_final, depth + 1)
        t.undo()


@settings(max_examples=150, deadline=None)
@given(positions(), dice)
def test_step_api_reaches_exactly_the_legal_plays(pos, roll):
    t = TurnBuilder(pos, roll)
    finals: set = set()
    _walk(t, finals)
    legal = {p.result for p in t.plays}
    if not legal:
        assert t.no_play and not finals - {pos}
        return
    assert finals == legal
    assert not t.steps and t.position == pos  # undo restored everything


@settings(max_examples=100, deadline=None)
@given(positions(), dice)
def test_destinations_are_consistent_with_steps(pos, roll):
    t = TurnBuilder(pos, roll)
    legal = {p.result for p in t.plays}
    for src in t.sources():
        for dst, path in t.destinations(src).items():
            assert path[0].src == src and path[-1].dst == dst
            t.move(src, dst)
            assert t.can_move or t.position in legal
            for _ in path:
                t.undo()
            assert t.position == pos


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31))
def test_random_games_end_with_the_right_result(seed):
    game = random_game(Dice(seed))
    pos = game.position
    winner = game.winner
    loser = other(winner)
    assert pos.off(winner) == 15 and pos.off(loser) < 15
    # independent oracle in absolute numbering
    home = range(1, 7) if winner == WHITE else range(19, 25)
    if pos.off(loser):
        expected = "single"
    elif pos.bar(loser) or any(pos.count(loser, p) for p in home):
        expected = "backgammon"
    else:
        expected = "gammon"
    assert game.result_kind == expected
    assert game.points() == {"single": 1, "gammon": 2, "backgammon": 3}[expected]
    # the history replays to the same end
    from engine.game import Game

    again = Game.from_dict(game.to_dict())
    assert again.position == pos and [e.notation for e in again.history] == [e.notation for e in game.history]
