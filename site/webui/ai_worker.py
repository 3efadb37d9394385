"""The AI's PyScript worker (Pyodide): thinks off the main thread so the page never freezes.

Loaded by ``<script type="py" worker name="ai" src="./webui/ai_worker.py">``,
which the page adds once it is playable; the page (MicroPython) awaits
``workers["ai"]`` and calls the exported functions.
"""

import json

from webui import autoplay


def choose(position_id, turn, d1, d2, level, seed=None):
    """gnubg notation of the AI's play for this roll ("" = no legal play)."""
    return autoplay.choose(str(position_id), str(turn), int(d1), int(d2), int(level),
                           None if seed in (None, "") else int(seed))


def hint(position_id, turn, d1, d2):
    """JSON list of [notation, equity] pairs, best first."""
    return json.dumps(autoplay.hint(str(position_id), str(turn), int(d1), int(d2)))


__export__ = ["choose", "hint"]
