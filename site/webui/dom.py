"""Small helpers for the page layer, on MicroPython (``browser.py``).

Only the page modules (``app``, ``rules_app``, ``board_input``, ``board_view``,
``ai_client``, ``page_storage``, ``friend_app``) import this; everything that
decides anything lives in pure modules tested without a browser.
"""

import asyncio

import js
from .browser import create_proxy, document, is_none, to_js, window

_keep = []  # event-handler proxies live as long as the page


def by_id(name):
    return document.getElementById(name)


def on(el, event, fn):
    """``el.addEventListener(event, fn)``; the proxy lives as long as the page."""
    proxy = create_proxy(fn)
    _keep.append(proxy)
    el.addEventListener(event, proxy)
    return proxy


def proxy(fn):
    """A JavaScript function calling ``fn`` that lives as long as the page."""
    p = create_proxy(fn)
    _keep.append(p)
    return p


def missing(value) -> bool:
    """JavaScript null/undefined or Python None (they differ between the interpreters)."""
    return is_none(value)


def later(coro, what="page task"):
    """Run ``coro`` as a task; an exception is logged, never lost silently."""

    async def guarded():
        try:
            await coro
        except asyncio.CancelledError:
            raise
        except Exception as err:
            js.console.error(f"{what} failed: {err!r}")

    return asyncio.create_task(guarded())


def query_params() -> dict:
    """The page's URL parameters, first value of each."""
    params = js.URLSearchParams.new(str(window.location.search))
    out = {}
    for key in ("mode", "level", "color", "seed", "room", "as", "ice", "turn", "relay"):
        value = params.get(key)
        if not missing(value):
            out[key] = str(value)
    return out


def set_query(pairs):
    """Show ``pairs`` ([(key, value)]) as the page's query string, without reloading."""
    query = "&".join(f"{k}={js.encodeURIComponent(str(v))}" for k, v in pairs)
    try:
        window.history.replaceState(None, "", f"?{query}")
    except Exception:
        pass


def today() -> str:
    """The local date, ``2026-12-02``."""
    d = js.Date.new()
    return f"{int(d.getFullYear()):04d}-{int(d.getMonth()) + 1:02d}-{int(d.getDate()):02d}"


def js_object(value):
    """A Python dict/list as a plain JavaScript object/array."""
    return to_js(value)


def reduced_motion() -> bool:
    return bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
