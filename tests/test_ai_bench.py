"""The benchmark harness: mirrored games between two of our levels (no gnubg needed)."""

from __future__ import annotations

import io

from ai.bench import OurPlayer, run_match


def test_mirrored_match_report():
    out = io.StringIO()
    rep = run_match(OurPlayer(2, 1), OurPlayer(1, 2), pairs=2, seed=3, judge=None, out=out,
                    progress=False)
    assert rep["games"] == 4
    assert -3 <= rep["ppg"] <= 3
    assert 0.0 <= rep["win"] <= 1.0
    assert rep["a_think_median"] >= 0.0
    assert "points/game for ai level 2" in out.getvalue()


def test_same_dice_sequence_is_deterministic():
    a = run_match(OurPlayer(3, 1), OurPlayer(1, 2), pairs=1, seed=5, judge=None,
                  out=io.StringIO(), progress=False)
    b = run_match(OurPlayer(3, 1), OurPlayer(1, 2), pairs=1, seed=5, judge=None,
                  out=io.StringIO(), progress=False)
    assert a["ppg"] == b["ppg"]


class _FixedJudge:
    """Charges every non-forced decision 0.004 (stands in for gnubg)."""

    plies = 2

    def loss(self, pos, d1, d2, play):
        return 0.004


def test_error_rate_and_ratio_are_reported():
    out = io.StringIO()
    rep = run_match(OurPlayer(4, 1), OurPlayer(1, 2), pairs=1, seed=3, judge=_FixedJudge(),
                    out=out, progress=False)
    assert rep["a_decisions"] > 0 and abs(rep["a_error"] - 0.004) < 1e-12
    text = out.getvalue()
    assert "error 4.00 +/- 0.00 millipoints/decision" in text
    assert "error ratio ai level 4" in text and ": 1.000" in text


def test_gnubg_one_ply_player_survives_late_bear_offs():
    """gnubg-nn's own 1-ply best_move crashes in this bear-off (6-5, three
    checkers left); the reference player evaluates each play itself."""
    from engine import Position

    from ai.bench import GnubgPlayer

    deep = GnubgPlayer("expert1ply", 1)
    pos = Position([0, 2, 0, 0, 1] + [0] * 20, [1, 1, 2, 1, 2] + [0] * 20)
    plays = pos.legal_plays(6, 5)
    assert deep.choose(pos, 6, 5, plays) in plays
    last_two = Position([0, 1, 0, 0, 1] + [0] * 20, [1, 1, 2, 1, 2] + [0] * 20)
    plays = last_two.legal_plays(6, 5)
    assert not any(deep.choose(last_two, 6, 5, plays).result.mover)  # bears off and wins


def test_gnubg_one_ply_player_agrees_on_an_opening_roll():
    from engine import Position

    from ai.bench import GnubgPlayer

    start = Position.start()
    plays = start.legal_plays(3, 1)
    assert (GnubgPlayer("expert1ply", 1).choose(start, 3, 1, plays)
            == GnubgPlayer("expert", 1).choose(start, 3, 1, plays))


def test_gnubg_two_ply_player_filters_then_agrees_on_opening_rolls(monkeypatch):
    from engine import Position

    from ai import bench

    two = bench.GnubgPlayer("expert2ply", 1)
    assert two.plies == 2 and "2-ply" in two.name
    seen = []
    real = bench._result_value
    monkeypatch.setattr(bench, "_result_value", lambda g, r, plies: seen.append(plies) or real(g, r, plies))
    start = Position.start()
    for d1, d2 in ((3, 1), (4, 2)):
        plays = start.legal_plays(d1, d2)
        seen.clear()
        assert (two.choose(start, d1, d2, plays)
                == bench.GnubgPlayer("expert", 1).choose(start, d1, d2, plays))
        # every play at 0-ply, then at most 8 of them at 2-ply
        assert seen.count(0) == len(plays) and 1 <= seen.count(2) <= 8


def test_weights_option_plays_the_given_nets(tmp_path, monkeypatch, capsys):
    import shutil

    import pytest

    from ai import bench, net, search

    committed = net.WEIGHTS_DIR
    monkeypatch.setattr(net, "WEIGHTS_DIR", committed)   # restored after the test
    monkeypatch.setattr(net, "_NETS", {})
    monkeypatch.setattr(search, "_EVALUATOR", [])
    args = ["--games", "2", "--level", "1", "--opponent", "level1", "--no-judge",
            "--weights", str(tmp_path)]
    with pytest.raises(FileNotFoundError, match="contact.bin"):   # an empty folder: nothing to play
        bench.main(args)
    for name in ("contact.bin", "race.bin"):
        shutil.copy(f"{committed}/{name}", tmp_path)
    assert bench.main(args) == 0 and net.WEIGHTS_DIR == str(tmp_path)
    assert "ai level 1 vs ai level 1: 2/2 games" in capsys.readouterr().err
