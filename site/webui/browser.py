"""The browser as the page's Python sees it, on MicroPython's own ``js`` and ``jsffi``.

The main thread runs MicroPython started by ``site/boot.mjs``, without PyScript
(see there why). What the page modules need from the browser comes from here:

- ``document`` and ``window``;
- ``create_proxy`` (a JavaScript function calling Python that lives until
  released), ``to_js`` (lists and dicts as JavaScript arrays and objects) and
  ``is_none`` (``None`` or JavaScript ``null``);
- ``js_import(url)``: a JavaScript module;
- ``start_worker(core, src, config)``: a PyScript worker on Pyodide, and once it
  has run, the functions its ``__export__`` names (``boot.mjs``'s ``startWorker``).
"""

import js
from jsffi import create_proxy, to_js  # noqa: F401  (re-exported)

document = js.document
window = js.window
_NULL = js.Object.getPrototypeOf(js.Object.prototype)  # JavaScript null, as this runtime converts it


def is_none(value) -> bool:
    return value is None or value is _NULL


async def js_import(url: str):
    """The JavaScript module at ``url`` (relative to the page)."""
    return await js.bgBoot.importModule(url)


async def start_worker(core: str, src: str, config: str):
    """Start ``src`` in a PyScript worker (``core``: PyScript's core.js; ``config``:
    its JSON); the worker's exported functions, once it has run."""
    return await js.bgBoot.startWorker(core, src, config)
