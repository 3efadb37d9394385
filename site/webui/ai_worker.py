"""The AI's PyScript worker (Pyodide): thinks off the main thread so the page never freezes.

Loaded by ``<script type="py" worker name="ai" src="./webui/ai_worker.py">``,
which the page adds once it is playable; the page (MicroPython) awaits
``workers["ai"]`` and calls the exported functions. The networks are read
and run once here, before the page is told the worker is ready, so the first
hint or play does not pay for loading them.
"""

import json

from webui import analysis, autoplay

analysis.hint_list("4HPwATDgc/ABMA", "white", 3, 1, level=4)   # load and warm the evaluator


def choose(position_id, turn, d1, d2, level, seed=None):
    """gnubg notation of the AI's play for this roll ("" = no legal play)."""
    return autoplay.choose(str(position_id), str(turn), int(d1), int(d2), int(level),
                           None if seed in (None, "") else int(seed))


def hint(position_id, turn, d1, d2, level=5):
    """JSON list of the best plays (dicts: notation, equity, loss, chances, ply), best first."""
    return json.dumps(analysis.hint_list(str(position_id), str(turn), int(d1), int(d2), 5, int(level)))


def review(position_id, turn, d1, d2, notation):
    """JSON dict: the best play, the equity of both, the loss, the number of choices."""
    return json.dumps(analysis.review_decision(str(position_id), str(turn), int(d1), int(d2), str(notation)))


__export__ = ["choose", "hint", "review"]
