"""The browser front end of the backgammon site, in Python.

Pure modules (``palette``, ``render``, ``controller``, ``storage``) import
nothing from the browser and are tested with pytest; ``app`` and the worker
scripts are the thin layer that touches ``js`` (through ``browser.py``).
"""
