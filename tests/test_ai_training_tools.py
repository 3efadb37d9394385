"""The held-out tools: re-judging a test set, and scoring our search on it."""

from __future__ import annotations

import numpy as np

from ai.training import gen, heldout, rejudge


def test_rejudge_at_the_same_depth_reproduces_the_test_set(tmp_path, capsys):
    src = tmp_path / "test.npz"
    gen.generate_testset(6, 123, str(src), plies=1)
    out = tmp_path / "again.npz"
    rejudge.main(["--test", str(src), "--plies", "1", "--out", str(out)])
    a, b = np.load(src), np.load(out)
    assert len(a["offsets"]) == 7
    assert (a["results"] == b["results"]).all() and (a["offsets"] == b["offsets"]).all()
    assert np.abs(a["equities"] - b["equities"]).max() < 1e-6
    # judged at 0-ply instead, the equities change
    out0 = tmp_path / "zero.npz"
    rejudge.main(["--test", str(src), "--plies", "0", "--out", str(out0)])
    assert np.abs(np.load(out0)["equities"] - a["equities"]).max() > 1e-4

    heldout.main(["--test", str(src), "--variants", "[(0, 0, 0.0), (1, 5, 0.10)]"])
    lines = capsys.readouterr().out.splitlines()
    o, e = a["offsets"], a["equities"]
    gnubg0 = sum(float(e[o[k]:o[k + 1]].max() - e[o[k]]) for k in range(6)) / 6
    assert f"6 decisions; gnubg 0-ply loses {gnubg0:.5f} per decision" in lines
    scored = [ln for ln in lines if "per decision (" in ln]
    assert [ln.split(":")[0].strip() for ln in scored] == [
        "0-ply, up to 0 plays within 0.0", "1-ply, up to 5 plays within 0.1"]
    for ln in scored:  # the loss of a legal choice: between 0 and the worst play's
        lost = float(ln.split(": ")[1].split()[0])
        assert 0.0 <= lost <= max(float(e[o[k]:o[k + 1]].max() - e[o[k]:o[k + 1]].min())
                                  for k in range(6))


def test_heldout_by_class_and_saved_losses(tmp_path, capsys):
    src = tmp_path / "test.npz"
    gen.generate_testset(8, 321, str(src), plies=0)
    heldout.main(["--test", str(src), str(src), "--variants", "[(0, 0, 0.0)]", "--by-class",
                  "--save", str(tmp_path / "h")])
    out = capsys.readouterr().out
    lost = np.load(tmp_path / "h_0_0_0.0.npy")
    d = np.load(src)
    n = sum(1 for k in range(len(d["offsets"]) - 1) if d["offsets"][k + 1] - d["offsets"][k] > 1)
    assert len(lost) == 2 * n and (lost >= 0).all()          # both files pooled, one loss per decision
    assert f"{2 * n} decisions;" in out and f"all ({2 * n}): {lost.mean():.5f}" in out
    counts = [int(ln.split("(")[1].split(")")[0]) for ln in out.splitlines()
              if ln.strip().startswith(("contact (", "crashed (", "race ("))]
    assert sum(counts) == 2 * 2 * n                           # gnubg's row and ours, every decision classed once
    assert "vs gnubg 0-ply" in out
