"""The AI: neural evaluation, search, levels 1-5, bear-off database and hints.

Pure standard-library Python (runs in Pyodide); imports only ``engine``.
Entry points: :func:`ai.levels.choose` (also ``ai.choose``) and
:func:`ai.hint.hint`.

>>> from engine import Position
>>> from ai import choose
>>> choose(Position.start(), 3, 1, level=5).notation
'8/5 6/5'
"""

from __future__ import annotations

__all__ = ["choose", "LEVELS", "check_level"]


def __getattr__(name):  # lazy: importing ai stays cheap until it is used
    if name in ("choose", "LEVELS", "check_level"):
        from ai import levels

        return getattr(levels, name)
    raise AttributeError(f"module 'ai' has no attribute {name!r}")
