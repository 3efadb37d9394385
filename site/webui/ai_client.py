"""The computer's side of the page: the AI worker, the opening book, the fallback.

The AI (``ai/``, Pyodide) runs in a PyScript worker that the page starts only
once it is playable (``browser.start_worker``: PyScript itself loads only
then), so it never delays the first move; until it answers, ``body[data-ai]``
is "loading" (then "ready", or "failed"). The computer's first plays (its opening, and its answer to the player's opening) come from
the opening book (``opening_book.py``, a table of the real AI's plays built
by ``python -m ai.opening_book``), fetched and read on this thread, so they
never wait for the worker either. Any other play waits for the worker, and
``waiting(seconds)`` is called every second meanwhile so the page can show
that the computer is still getting ready. If the worker cannot start, the
simple player of ``fallback_player`` keeps the game going.
"""

import asyncio
import json

import js
from .browser import document, start_worker

from .dom import later
from .fallback_player import fallback_choice
from .opening_book import Book

PYSCRIPT_CORE = "./vendor/pyscript-0.7.31/core.js"   # runs the worker (loaded only then)
WORKER_SRC = "./webui/ai_worker.py"
WORKER_CONFIG = '{"interpreter": "./vendor/pyodide-314.0.7/pyodide.mjs", "files": {"./py/worker.zip": "./*"}}'
BOOK_URL = "./opening-book.json"
START_LIMIT_S = 180   # a worker that has not answered by then is given up


class AiClient:
    def __init__(self, on_state=None):
        self.state = "idle"          # idle | loading | ready | failed
        self.worker = None
        self.on_state = on_state     # called with the new state
        self.waited = 0              # seconds the page has waited for the worker so far
        self._ready = asyncio.Event()
        self._book = None
        self._book_started = False
        self._book_read = asyncio.Event()

    # ------------------------------------------------------------ worker
    def start(self):
        """Start the AI's worker (once): call when the page is playable."""
        if self.state != "idle":
            return
        self._set("loading")
        later(self._connect(), "AI worker start")
        later(self.book(), "opening book")  # small: read now, so the computer's first play never waits

    async def _connect(self):
        async def worker():
            return await start_worker(PYSCRIPT_CORE, WORKER_SRC, WORKER_CONFIG)

        try:
            self.worker = await asyncio.wait_for(worker(), START_LIMIT_S)
        except Exception as err:
            js.console.error(f"the AI's worker did not start: {err!r}")
            self._set("failed")
        else:
            self._set("ready")
        self._ready.set()

    def _set(self, state):
        self.state = state
        document.body.dataset.ai = state
        if self.on_state is not None:
            self.on_state(state)

    @property
    def loading(self) -> bool:
        return self.state in ("idle", "loading")

    async def ready(self, waiting=None) -> bool:
        """Wait for the worker; ``waiting(seconds)`` every second meanwhile. True if it answers."""
        if self.state == "idle":
            self.start()
        while not self._ready.is_set():
            if waiting is not None:
                waiting(self.waited)
            try:
                await asyncio.wait_for(self._ready.wait(), 1)
            except asyncio.TimeoutError:
                self.waited += 1
        return self.state == "ready"

    # ------------------------------------------------------------ book
    async def book(self):
        """The opening book (fetched once, however many ask at a time; None if it cannot be read)."""
        if not self._book_started:
            self._book_started = True
            try:
                response = await js.fetch(BOOK_URL)
                if not response.ok:
                    raise ValueError(f"HTTP {response.status}")
                self._book = Book(json.loads(str(await response.text())))
            except Exception as err:
                js.console.warn(f"no opening book ({err!r}): the computer's first plays wait for its worker")
                self._book = None
            self._book_read.set()
        await self._book_read.wait()
        return self._book

    # ------------------------------------------------------------ asks
    async def choose(self, pos, d1, d2, level, seed, waiting=None) -> str:
        """gnubg notation of the computer's play ("" when there is none)."""
        book = await self.book()
        if book is not None:
            play = book.play(pos, d1, d2, level)
            if play is not None:
                return play.notation
        if await self.ready(waiting):
            try:
                return str(await self.worker.choose(pos.id, pos.turn, d1, d2, level, "" if seed is None else seed))
            except Exception as err:
                js.console.error(f"the AI's worker failed ({err!r}); the simple player moves")
        return fallback_choice(pos, d1, d2)

    async def hint(self, pos, d1, d2, waiting=None, level=5):
        """The best plays (dicts: notation, equity, loss, win and gammon chances, ply), best first;
        None when the AI cannot answer. Level 4 answers at once (0-ply), 5 looks a roll ahead
        (two at its closest plays)."""
        if not await self.ready(waiting):
            return None
        return json.loads(str(await self.worker.hint(pos.id, pos.turn, d1, d2, level)))

    async def review(self, position_id, turn, d1, d2, notation):
        """One decision judged (``analysis.review_decision``); None when the AI cannot answer."""
        if not await self.ready():
            return None
        return json.loads(str(await self.worker.review(position_id, turn, d1, d2, notation)))
