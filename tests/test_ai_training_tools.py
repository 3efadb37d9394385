"""The training tools: re-judging a test set, scoring our search on it, reading
weights files back, and the committed 2-ply label shards."""

from __future__ import annotations

import glob
import os

import numpy as np
import pytest

from ai.training import deep_labels, gen, heldout, rejudge


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


def test_weights_file_reads_back_to_the_same_bytes(tmp_path):
    from ai.training import export

    path = os.path.join(os.path.dirname(heldout.HERE), "weights", "contact.bin")
    sd = export.read(path)
    from ai import encoder

    assert sd["l1.weight"].shape == (768, encoder.N_INPUTS) and sd["l2.weight"].shape == (5, 768)
    export.export(str(tmp_path / "again.bin"), sd["l1.weight"], sd["l1.bias"],
                  sd["l2.weight"], sd["l2.bias"])
    assert (tmp_path / "again.bin").read_bytes() == open(path, "rb").read()
    (tmp_path / "bad.bin").write_bytes(b"BGNN" + open(path, "rb").read()[4:-2])
    with pytest.raises(ValueError, match="values, expected"):
        export.read(str(tmp_path / "bad.bin"))


def test_shard_round_trip(tmp_path):
    import gnubg_nn

    rows = gen.collect_boards(3, 77)[:40]
    probs = np.array([gnubg_nn.probabilities((r[:25].tolist(), r[25:].tolist()), 0) for r in rows])
    idx = np.array(sorted(np.random.default_rng(1).choice(10_000, size=len(rows), replace=False)))
    path = str(tmp_path / "c3_s007.npz")
    deep_labels.save_shard(path, idx, rows, deep_labels.encode_labels(probs), 0)
    got_idx, q, sha = deep_labels.read_shard(path)
    assert (got_idx == idx).all() and sha == deep_labels.digest(rows)
    assert np.abs(deep_labels.decode_labels(q) - probs).max() <= 0.5 / 65535 + 1e-7
    assert sha != deep_labels.digest(rows[::-1])


def test_committed_2ply_shards_are_gnubg_2ply_labels_of_their_positions():
    """Every committed shard has the promised form, holds its chunk's contact
    positions in their fixed order, unchanged (SHA-256), and a sample of its
    chunk's labels is gnubg-nn's 2-ply evaluation again."""
    import gnubg_nn

    files = sorted(glob.glob(os.path.join(deep_labels.LABELS, "c*_s*.npz")))
    assert files, "no committed 2-ply shards"
    for f in files:
        d = np.load(f)
        assert int(d["plies"]) == 2 and d["labels"].dtype == np.uint16
        q = d["labels"].astype(np.int64)
        assert q.shape == (len(d["gaps"]), 5) and 0 < len(q) <= deep_labels.SHARD
        assert (q[:, 1] <= q[:, 0]).all() and (q[:, 2] <= q[:, 1]).all()   # gammons within wins
        assert (q[:, 4] <= q[:, 3]).all() and (q[:, 3] <= 65535 - q[:, 0] + 1).all()
    rng = np.random.default_rng(0)
    by_chunk: dict[int, list[str]] = {}
    for f in files:
        by_chunk.setdefault(int(os.path.basename(f)[1:].split("_")[0]), []).append(f)
    for c, shards in sorted(by_chunk.items()):   # rebuilding a chunk takes about half a minute
        boards = deep_labels.chunk_boards(c)
        perm = deep_labels.order(c, boards)
        for f in shards:
            s = int(os.path.basename(f).split("_s")[1].split(".")[0])
            idx, q, sha = deep_labels.read_shard(f)
            assert (idx == np.sort(perm[s * deep_labels.SHARD:(s + 1) * deep_labels.SHARD])).all()
            assert deep_labels.digest(boards[idx]) == sha
        for f in rng.choice(shards, size=min(2, len(shards)), replace=False):
            idx, q, _ = deep_labels.read_shard(f)
            for k in rng.choice(len(idx), size=3, replace=False):
                r = boards[idx[k]].tolist()
                want = gnubg_nn.probabilities((r[:25], r[25:]), 2)
                assert np.abs(deep_labels.decode_labels(q[k]) - np.array(want)).max() < 2e-5


def test_label_shard_writes_the_shard_that_load_reads(tmp_path, monkeypatch):
    import gnubg_nn

    monkeypatch.setattr(deep_labels, "LABELS", str(tmp_path))
    monkeypatch.setattr(deep_labels, "SHARD", 15)
    boards = gen.collect_boards(3, 77)
    perm = deep_labels.order(5, boards)
    monkeypatch.setattr(deep_labels, "chunk_boards", lambda c: boards)
    deep_labels.label_shard(5, 1, boards, perm, 0)
    idx, q, sha = deep_labels.read_shard(str(tmp_path / "c5_s001.npz"))
    assert (idx == np.sort(perm[15:30])).all() and len(list(tmp_path.iterdir())) == 1
    want = np.array([gnubg_nn.probabilities((r[:25], r[25:]), 0) for r in boards[idx].tolist()])
    assert np.abs(deep_labels.decode_labels(q) - want).max() <= 0.5 / 65535 + 1e-7
    chunks, idxs, rows, labels = deep_labels.load()
    assert (chunks == 5).all() and (idxs == idx).all() and (rows == boards[idx]).all()
    monkeypatch.setattr(deep_labels, "chunk_boards", lambda c: boards[::-1].copy())
    with pytest.raises(ValueError, match="differ from chunk 5"):
        deep_labels.load()


def test_committed_2ply_judged_test_sets_are_what_they_say(tmp_path):
    """ai/training/judged/test_<seed>_<n>_2ply.npz: the held-out decisions of
    gen.generate_testset(n, seed) (a smaller n gives a prefix), every result judged
    by gnubg 2-ply; checked on the first decisions of each."""
    files = sorted(glob.glob(os.path.join(deep_labels.HERE, "judged", "test_*_*_2ply.npz")))
    assert len(files) == 2
    for f in files:
        seed, n = (int(v) for v in os.path.basename(f).split("_")[1:3])
        d = np.load(f)
        assert len(d["offsets"]) == n + 1
        gen.generate_testset(4, seed, str(tmp_path / "t.npz"), plies=0)
        small = np.load(tmp_path / "t.npz")
        m = int(small["offsets"][-1])
        assert (small["offsets"] == d["offsets"][:5]).all()
        assert (small["results"] == d["results"][:m]).all()
        for k in range(m):
            r = d["results"][k]
            want = gen.result_equity([r[:25].tolist(), r[25:].tolist()], 2)
            assert abs(want - float(d["equities"][k])) < 1e-5


def test_apply_deep_labels_overwrites_exactly_the_shards_rows():
    rng = np.random.default_rng(3)
    sizes = [7, 5, 6]
    boards = rng.integers(0, 4, size=(18, 50)).astype(np.uint8)
    labels = np.zeros((18, 5), np.float32)
    ch = np.array([0, 2, 2, 3], np.int16)           # chunk 3 is not loaded: left out
    ix = np.array([6, 0, 5, 1], np.uint32)
    rows = np.array([6, 12, 17])
    bd = np.concatenate([boards[rows], rng.integers(0, 4, size=(1, 50)).astype(np.uint8)])
    lb = rng.random((4, 5)).astype(np.float32)
    assert deep_labels.apply(boards, labels, sizes, (ch, ix, bd, lb)) == 3
    assert (labels[rows] == lb[:3]).all() and not labels[np.setdiff1d(np.arange(18), rows)].any()
    mixed = np.full((18, 5), 0.5, np.float32)
    assert deep_labels.apply(boards, mixed, sizes, (ch, ix, bd, lb), mean=True) == 3
    assert np.allclose(mixed[rows], (0.5 + lb[:3]) / 2)
    assert (mixed[np.setdiff1d(np.arange(18), rows)] == 0.5).all()
    bd[0, 0] += 1
    with pytest.raises(ValueError, match="differ from the chunks"):
        deep_labels.apply(boards, labels, sizes, (ch, ix, bd, lb))


def test_one_ply_labels_of_shard_rows_come_from_their_chunk_files(tmp_path, monkeypatch):
    rng = np.random.default_rng(4)
    monkeypatch.setattr(deep_labels, "DATA", str(tmp_path))
    files = {}
    for c in (0, 1):
        files[c] = (rng.integers(0, 4, size=(9, 50)).astype(np.uint8),
                    rng.random((9, 5)).astype(np.float32))
        np.savez(tmp_path / gen.chunk_name(deep_labels.SEED, c, deep_labels.CHUNK_GAMES, 1),
                 boards=files[c][0], labels=files[c][1])
    ch = np.array([1, 0, 1, 0], np.int16)
    ix = np.array([3, 8, 0, 2], np.uint32)
    bd = np.stack([files[c][0][i] for c, i in zip(ch, ix)])
    got = deep_labels.one_ply_labels(ch, ix, bd)
    assert np.array_equal(got, np.stack([files[c][1][i] for c, i in zip(ch, ix)]))
    bd[2, 7] += 1                                    # a row whose board is not the chunk's
    with pytest.raises(ValueError, match="differ from the 2-ply shards"):
        deep_labels.one_ply_labels(ch, ix, bd)
    with pytest.raises(FileNotFoundError, match="--chunks 3 --gen-only"):
        deep_labels.one_ply_labels(np.array([2], np.int16), np.array([0], np.uint32), bd[:1])


def test_two_ply_experiment_keeps_or_improves_level5_by_its_own_2ply_value(tmp_path, capsys):
    """two_ply.py's re-ranking: the level-5 choices it saves are level 5's
    1-ply ones, and its own choice is the better of their top two by the
    2-ply value."""
    from ai import search
    from ai.net import equity
    from ai.training import two_ply
    from engine import Position

    src = tmp_path / "test.npz"
    gen.generate_testset(5, 77, str(src), plies=0)
    two_ply.main(["--test", str(src), "--top", "2", "--save", str(tmp_path / "t")])
    out = capsys.readouterr().out
    assert "2-ply looks" in out and "decisions: level 5 loses" in out
    lvl5, deep = np.load(tmp_path / "t_level5_choice.npy"), np.load(tmp_path / "t_choice.npy")
    assert (lvl5 != deep).sum() >= 1  # this set has a decision the 2-ply look changes
    ev = search.evaluator()
    from ai.training.paired import decisions
    for res, a, b in zip(decisions([str(src)]), lvl5, deep):
        rs = [Position(tuple(int(v) for v in row[:25]), tuple(int(v) for v in row[25:])) for row in res]
        cands = search.refine(range(len(rs)), rs, [ev.after(r) for r in rs], 1, 5, 0.10)
        assert a == cands[0].play
        if a != b:  # changed only to the second 1-ply play, when its 2-ply value is higher
            assert b == cands[1].play
            assert equity(ev.ply2(rs[b])) > equity(ev.ply2(rs[a]))


def test_hard_decisions_split_and_their_candidates():
    from ai.training import hard
    # three decisions; gnubg 0-ply's choice is each one's first row
    eq = np.array([0.1, 0.3, 0.2,          # the net prefers row 1: hard
                   0.5, 0.4,               # the net agrees: easy
                   0.2, 0.1, 0.0, -0.1, 0.3])  # the net prefers the last: hard
    offs = np.array([0, 3, 5, 10])
    h, control, anchors = hard.select(eq, offs, seed=0)
    assert h == [0, 2] and control == [1] and anchors == []
    usable = np.ones(len(eq), bool)
    usable[7] = False  # a race or finished result is never labelled
    # the union of both players' best three: gnubg's rows 0-2 and the net's 9, 5, 6
    assert hard.candidates(eq, offs, [2], usable).tolist() == [5, 6, 9]
    assert hard.candidates(eq, offs, [0, 1], usable).tolist() == [0, 1, 2, 3, 4]
    # with more easy decisions than hard ones, the control is as large as the hard set
    eq2 = np.concatenate([eq, [0.9, 0.1] * 4])
    offs2 = np.concatenate([offs, 10 + 2 * np.arange(1, 5)])
    h2, c2, a2 = hard.select(eq2, offs2, seed=1)
    assert h2 == [0, 2] and len(c2) == 2 and sorted(c2 + a2) == [1, 3, 4, 5, 6]
    assert hard.select(eq2, offs2, seed=1) == (h2, c2, a2)  # seeded


def test_look_study_chooses_as_a_look_at_the_best_n_would():
    """look_study.choose on a hand-made record: level 5's filter (5 within
    0.10 at 0-ply), ranked by 1-ply, the best n within the margin compared by
    2-ply, the third left out when the looks would value too many plays."""
    from ai.training import look_study as ls
    rec = {"eqs": [0.30, 0.25, 0.22, 0.10, 0.05, -0.5],      # the filter: plays 0, 1, 2
           "one": {0: 0.20, 1: 0.21, 2: 0.15, 3: 0.0},
           "two": {1: (0.10, 5000), 0: (0.12, 4000), 2: (0.20, 6000)}}
    assert ls.top(rec["eqs"], *ls.FILTER) == [0, 1, 2]
    rec["contact"] = [0, 1, 2]
    assert ls.choose(rec, 2, 0.04) == 0                      # 1 and 0 looked at: 0 is better at 2-ply
    assert ls.choose(rec, 3, 0.04) == 0                      # 2 is 0.06 behind at 1-ply
    assert ls.choose(rec, 3, 0.10) == 2
    assert ls.looked_plays(rec, 3, 0.10) == 15000 and ls.looked_plays(rec, 2, 0.10) == 9000
    assert ls.choose(rec, 3, 0.10, cost=14999) == 0 and ls.looked_plays(rec, 3, 0.10, 14999) == 9000
    assert ls.choose(rec, 3, 0.10, cost=15000) == 2
    assert ls.choose(rec, 2, 0.001) == 1 and ls.looked_plays(rec, 2, 0.001) == 0  # too far apart: 1-ply
    assert ls.choose({**rec, "two": {}}, 3, 0.10) == 1       # no contact: no look, 1-ply
    assert ls.choose({**rec, "contact": [2]}, 2, 0.04) == 1  # the two looked at are races: 1-ply
    assert ls.choose({**rec, "contact": [2]}, 3, 0.10) == 2
    assert ls.choose({"eqs": [0.3, 0.1], "one": {}, "two": {}, "contact": []}, 3, 0.10) == 0  # one play in the filter
    with pytest.raises(ValueError, match="best 3"):
        ls.choose(rec, 4, 0.10)
    judged = np.array([0.0, 0.1, 0.3, 0.9, 0.2, 0.0])
    assert ls.oracle(rec, judged, "all") == 3 and ls.oracle(rec, judged, "filter") == 2
    assert ls.oracle(rec, judged, "by1-2") == 1 and ls.oracle(rec, judged, "by1-3") == 2


#: held-out decisions (ai/training/judged/test_999_1000_2ply.npz) where level 5's
#: filter has several plays and a look at the best three within 0.10 chooses
#: differently from a look at the best two within 0.04 (found by look_study)
LOOK_DECISIONS = (461, 455, 588)


def test_look_study_records_reproduce_the_search():
    """A record scored offline chooses what ai.search.refine chooses with the
    same look, unbudgeted, on held-out decisions where the looks differ."""
    from ai import search
    from ai.training import look_study as ls
    from ai.training.paired import decisions
    from engine import Position
    ds = decisions([os.path.join(os.path.dirname(heldout.__file__), "judged", "test_999_1000_2ply.npz")])
    ev = search.evaluator()
    for k in LOOK_DECISIONS:
        rec = ls.record(ds[k])
        assert len(rec["two"]) == 3
        rs = [Position(tuple(int(v) for v in row[:25]), tuple(int(v) for v in row[25:])) for row in ds[k]]
        probs = [ev.after(r) for r in rs]
        got = [ls.choose(rec, n, m) for n, m in ((2, 0.04), (3, 0.10))]
        want = [search.refine(range(len(rs)), rs, probs, 1, 5, 0.10, m, None, n)[0].play
                for n, m in ((2, 0.04), (3, 0.10))]
        assert got == want and got[0] != got[1]
