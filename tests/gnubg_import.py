"""Feed ``.mat`` files to Debian's GNU Backgammon (``import mat``) and read back what it replayed.

``imported(paths)`` runs one ``gnubg -t -q -p script`` for all the files and
returns, per file, gnubg's final Position ID, the number of moves it read
and the game's result as gnubg recorded it (winner "White"/"Black", points),
or None for an unfinished game. The left column of a ``.mat`` file is gnubg's
player X (here White), the right one O (Black). gnubg missing is a failure,
never a skip: the export's whole point is that gnubg reads it. gnubg's Jacoby
rule is switched off first: these games have no cube, and gammons count double.
"""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile

GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"

SCRIPT = r'''
import json
paths = json.load(open(%(list)r))
out = {}
# the game has no doubling cube: gammons count double (gnubg's money-game default, the
# Jacoby rule, would score them 1 point until the cube is turned)
gnubg.command("set jacoby off")
for p in paths:
    gnubg.command("import mat " + p)
    m = gnubg.match(0, 0, 0, 0)
    game = m["games"][0]
    info = game["info"]
    names = {side: m["match-info"][side]["name"] for side in ("X", "O")}
    moves = [r for r in game["game"] if r.get("action") == "move"]
    result = None
    if info.get("winner") in ("X", "O"):
        result = {"winner": names[info["winner"]], "points": info["points-won"]}
    out[p] = {"position_id": gnubg.positionid(), "moves": len(moves), "result": result, "names": names}
json.dump(out, open(%(out)r, "w"))
'''


def imported(paths) -> dict:
    """{path: {"position_id", "moves", "result", "names"}} as gnubg imported each file."""
    assert os.path.exists(GNUBG), f"GNU Backgammon is needed for this test (apt-get install gnubg): {GNUBG} not found"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        listing, out, script = tmp / "paths.json", tmp / "out.json", tmp / "import.py"
        listing.write_text(json.dumps([str(p) for p in paths]))
        script.write_text(SCRIPT % {"list": str(listing), "out": str(out)})
        proc = subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, text=True,
                              timeout=300, stdin=subprocess.DEVNULL)
        assert out.exists(), f"gnubg did not finish the import (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
        return json.loads(out.read_text())
