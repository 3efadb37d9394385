"""Load-time benchmark: how fast a first-time (and a returning) visitor can play.

Serves the built site (``dist/``) compressed as Netlify does (tools/serve.py:
gzip, netlify.toml's headers) and loads it in headless Chromium
(``/usr/bin/chromium``, the flags of e2e/conftest.py) under CDP throttling:

- ``none``: no throttling;
- ``4G``: ``Network.emulateNetworkConditions`` 9 Mbit/s down, 1.5 Mbit/s up,
  85 ms latency;
- ``4G phone``: 4G plus ``Emulation.setCPUThrottlingRate`` 4 (a mid-range
  phone, as Lighthouse models it; the rate applies to the page's main thread,
  not to its workers).

For each profile and page, cold (a fresh browser context: empty HTTP cache, no
service worker) then warm (the same context, second visit, 2 s after the
game page's service worker has precached the site: ``SETTLE_MS``), and for
the game also "warm at once" (a second context, reloaded in the instant the
precache completes), it records in the page (milliseconds from navigation start):

- board visible: the board laid out with a size (checked each animation frame);
- playable: ``body[data-ready="true"]`` appears (a MutationObserver: exact);
- bytes: compressed bytes that had arrived when the page became playable (the
  resource timing entries' ``transferSize``, navigation included; responses
  from the service worker or the HTTP cache count 0);
- AI ready: ``body[data-ai="ready"]`` (pages that set ``data-ai``).

The page reports each change through a CDP binding (``Watch``); the benchmark
never evaluates anything in a page while it loads. Polling with Playwright's
``wait_for_function`` (as before 2026-12-03) made Chromium compile Playwright's
injected script on the page's main thread during every load (a 34 ms
``V8.ParseProgram`` in a trace of a warm load unthrottled, about 4x that on the
phone profile), a cost no visitor pays. Before the first cell, a throwaway
context loads the bare MicroPython page (``warm_up``): the first load in a
just-started browser paid for the browser's own start (in one run the
unthrottled game cell read 1.35 s playable with its board at 0.82 s; the next
run, with the warm-up, 0.84 s and 0.26 s).

Pages: the game (``index.html``), and in the same run the bare PyScript pages
on the same interpreters: ``bare-mpy.html`` (MicroPython) and ``bare.html``
(Pyodide). The bare pages register no service worker: warm is the HTTP cache.
Then, on the 4G phone profile cold, the computer's first play:
``index.html?mode=ai&level=3&color=black&seed=S`` with a seed where the
computer (White) wins the opening roll, from playable to the first entry of
the move history.

It prints a table (and writes it as JSON to ``e2e/screenshots/timing.json``)
with the goals of issue 15 beside the numbers. Timings are printed, never
asserted (machine speed); asserted: every page becomes playable within a
generous limit, the game page's board shows, nothing breaks the CSP or asks
another origin.

Run it (about 7 minutes; ``BG_TIMING_RUNS`` = fresh profiles per cell, median,
default 3; each profile's playable is printed beside the median)::

    .venv/bin/python -m pytest e2e/test_timing.py -s -q
    .venv/bin/python e2e/test_timing.py [--runs N] [--profiles none,4G] [--dist dist] [--new-tab]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "e2e", ROOT / "tools"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import serve  # noqa: E402  (tools/serve.py)


def _e2e_conftest():
    """e2e/conftest.py (the Chromium binary and flags), by path: a script run
    and pytest alike, whatever other conftest.py is on sys.path."""
    spec = importlib.util.spec_from_file_location("_bg_e2e_conftest", ROOT / "e2e" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


conftest = _e2e_conftest()

#: Fresh profiles per cell, median: one load per cell read the phone's warm
#: playable 0.43 s in one CI run and 0.56-0.58 s in the two before, on this
#: shared 2-core machine; the median of three is what the README shows.
RUNS = int(os.environ.get("BG_TIMING_RUNS", "3"))
MBIT = 1_000_000 / 8  # bytes per second in one Mbit/s
PROFILES = {
    "none": {"network": None, "cpu": 1},
    "4G": {"network": {"down": 9 * MBIT, "up": 1.5 * MBIT, "latency": 85}, "cpu": 1},
    "4G phone": {"network": {"down": 9 * MBIT, "up": 1.5 * MBIT, "latency": 85}, "cpu": 4},
}
GAME = "index.html"
AT_ONCE = "warm at once"   # the game's second visit in the instant its first is precached
PAGES = {"game": GAME, "bare MicroPython": "bare-mpy.html", "bare Pyodide": "bare.html"}
FIRST_PLAY_PROFILE = "4G phone"
FIRST_PLAY_LEVEL = 3

READY_LIMIT_MS = 120_000   # generous: a 4x slowed Pyodide page on a loaded machine
AI_LIMIT_MS = 120_000
SW_LIMIT_MS = 120_000
#: Quiet time between the first visit (precached) and the second: the first
#: visit is over, as in WebPageTest's repeat view. The reload in the instant
#: the precache completes is measured and printed too (``warm at once``).
#: Until 2026-12-04 the wait for the precache returned at once (see
#: ``_wait_precached``), so "at once" meant "as soon as the AI was ready",
#: often with the precache still downloading and Chromium compiling the
#: precached scripts for its code cache on the worker's thread (traced
#: 2026-12-03): 0.60 s against 0.27 s unthrottled in one probe. Waiting for
#: the precache for real, the two read the same on the phone profile (0.42 s
#: and 0.41 s, medians of 3, 2026-12-04).
SETTLE_MS = 2_000
FIRST_PLAY_LIMIT_MS = 120_000

#: Issue 15's goals, printed beside the numbers.
GOALS = {
    "phone_cold_ms": 2500,       # 4G phone, cold, playable
    "phone_over_bare": 1.3,      # ... over the bare MicroPython page
    "none_cold_ms": 1000,        # unthrottled, cold, playable
    "warm_ms": 500,              # warm, playable (every profile)
    "bytes": 600_000,            # compressed bytes before playable (cold)
    "first_play_ms": 2500,       # the computer's first play after its turn starts (4G phone)
}

# Installed in every page before its scripts run (Playwright init script).
TIMING_SCRIPT = """
(() => {
  const t = (window.__bgTiming = { board: null, ready: null, bytes: null, ai: null, aiState: null,
                                   firstPlay: null });
  const transferred = () => {
    let sum = 0;
    for (const e of performance.getEntriesByType("navigation")) sum += e.transferSize || 0;
    for (const e of performance.getEntriesByType("resource")) sum += e.transferSize || 0;
    return sum;
  };
  // Every change is reported to the benchmark through a CDP binding (Runtime.addBinding):
  // the benchmark never polls the page, whose main thread it would otherwise share with
  // Playwright's injected script (~35 ms to compile on each load, 4x that on the phone profile).
  let sent = "";
  const report = () => {
    const text = JSON.stringify(t);
    if (text !== sent && typeof window.__bgTimingReport === "function") {
      sent = text;
      window.__bgTimingReport(text);
    }
  };
  const frame = () => {
    if (t.board === null) {
      const el = document.querySelector('[data-testid="board"]');
      if (el) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden") {
          t.board = performance.now();
          report();
        }
      }
      requestAnimationFrame(frame);
    }
  };
  requestAnimationFrame(frame);
  const check = () => {
    const body = document.body;
    if (!body) return;
    const now = performance.now();
    if (t.ready === null && body.dataset.ready === "true") {
      t.ready = now;
      t.bytes = transferred();
    }
    const ai = body.dataset.ai;
    if (ai !== undefined) t.aiState = ai;
    if (t.ai === null && ai === "ready") t.ai = now;
    if (t.firstPlay === null && document.querySelector("#history li")) t.firstPlay = now;
    report();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true,
                                                  attributeFilter: ["data-ready", "data-ai"] });
})();
"""
assert "__bgTimingReport" in TIMING_SCRIPT


# --------------------------------------------------------------------------- one load


class Watch:
    """A page's timings as its init script reports them (``Runtime.addBinding``),
    with the profile's network and CPU throttling applied on the same CDP session.
    Waiting never evaluates anything in the page: the measured main thread is
    the page's alone."""

    BINDING = "__bgTimingReport"

    def __init__(self, context, page, profile: dict):
        self.page = page
        self.latest: dict = {}
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        network = profile["network"]
        if network:
            cdp.send("Network.emulateNetworkConditions", {
                "offline": False, "latency": network["latency"],
                "downloadThroughput": network["down"], "uploadThroughput": network["up"],
            })
        if profile["cpu"] != 1:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": profile["cpu"]})
        cdp.on("Runtime.bindingCalled", self._on_report)
        cdp.send("Runtime.enable")
        cdp.send("Runtime.addBinding", {"name": self.BINDING})
        self.cdp = cdp

    def _on_report(self, event: dict) -> None:
        if event.get("name") == self.BINDING:
            self.latest = json.loads(event["payload"])

    def until(self, done, limit_ms: int, what: str) -> dict:
        """Wait (sleeping here, not polling the page) until ``done(timings)``."""
        waited = 0
        while not (self.latest and done(self.latest)):
            if waited > limit_ms:
                raise TimeoutError(f"{self.page.url}: {what} not within {limit_ms / 1000:.0f} s "
                                   f"(timings so far: {self.latest})")
            self.page.wait_for_timeout(25)
            waited += 25
        return dict(self.latest)


def _load(watch: Watch, url: str, *, board: bool, ai: bool, first_play: bool = False) -> dict:
    """Navigate and wait until playable (and the board, the AI worker, the
    first move in the history when asked); returns the page's timings."""
    watch.latest = {}
    watch.page.goto(url, wait_until="commit")
    t = watch.until(lambda t: t["ready"] is not None and (t["board"] is not None or not board),
                    READY_LIMIT_MS, "playable")
    if ai and t["aiState"] is not None:
        t = watch.until(lambda t: t["aiState"] != "loading", AI_LIMIT_MS, "the AI")
    if first_play:
        t = watch.until(lambda t: t["firstPlay"] is not None, FIRST_PLAY_LIMIT_MS, "the first play")
    return t


def _wait_precached(page) -> str | None:
    """Wait until a service worker controls the page and has precached the
    build; its version, or None for pages that register none. (Until
    2026-12-04 this returned at once: ``wait_for_function`` took the check's
    promise for true, so the warm visit could come while the precache was
    still downloading; see conftest's ``_wait_service_worker``.)"""
    if not page.evaluate("'serviceWorker' in navigator && !!document.querySelector('script[src$=\"sw-register.js\"]')"):
        return None
    return conftest._wait_service_worker(page, SW_LIMIT_MS)


class Problems:
    """CSP violations and requests to other origins seen on a context's pages."""

    def __init__(self):
        self.found: list[str] = []

    def attach(self, context) -> None:
        context.on("console", lambda msg: "Content Security Policy" in msg.text
                   and self.found.append(f"CSP: {msg.text}"))
        context.on("request", self._on_request)

    def _on_request(self, request) -> None:
        url = request.url
        if not url.startswith(("http://127.0.0.1", "blob:", "data:")):
            self.found.append(f"other origin: {url}")


def _fresh_context(browser, base_url: str, profile: dict, problems: Problems):
    """A fresh profile (empty caches, no service worker) with one page, watched: (context, watch)."""
    context = browser.new_context(service_workers="allow", viewport={"width": 1280, "height": 900},
                                  base_url=base_url)
    problems.attach(context)
    context.add_init_script(TIMING_SCRIPT)
    return context, Watch(context, context.new_page(), profile)


def measure_page(browser, base_url: str, url: str, profile: dict, problems: Problems, *,
                 board: bool, new_tab: bool = False, settle_ms: int = SETTLE_MS) -> dict:
    """Cold and warm loads of ``url`` in a fresh context under ``profile``; warm
    ``settle_ms`` after the first visit is over (precached), in the same tab
    (the default: a reload), or with ``new_tab`` in a new tab of the context (a
    returning visitor opening the site again: a new renderer process, so nothing
    of the first visit is left in memory, only the caches)."""
    context, watch = _fresh_context(browser, base_url, profile, problems)
    try:
        cold = _load(watch, url, board=board, ai=True)
        version = _wait_precached(watch.page)
        watch.page.wait_for_timeout(settle_ms)
        if new_tab:
            watch.page.close()
            watch = Watch(context, context.new_page(), profile)
        warm = _load(watch, url, board=board, ai=True)
        return {"cold": cold, "warm": warm, "version": version}
    finally:
        context.close()


def measure_first_play(browser, base_url: str, profile: dict, seed: int, problems: Problems) -> dict:
    """The computer opens (it is White and wins the opening roll): from
    playable to its first play in the move history, cold."""
    context, watch = _fresh_context(browser, base_url, profile, problems)
    try:
        url = f"{GAME}?mode=ai&level={FIRST_PLAY_LEVEL}&color=black&seed={seed}"
        t = _load(watch, url, board=True, ai=False, first_play=True)
        return {**t, "url": url, "after_ready": t["firstPlay"] - t["ready"]}
    finally:
        context.close()


def warm_up(browser, base_url: str) -> None:
    """Load the bare MicroPython page once in a throwaway context, so that the first
    measured cell does not also pay for the browser's own first start (its renderer and
    compiler threads, the server's first reads): a visitor's browser is already running.
    Contexts share no cache, so every measured load stays a first visit."""
    context = browser.new_context(base_url=base_url)
    try:
        context.new_page().goto(PAGES["bare MicroPython"], wait_until="load")
    finally:
        context.close()


def computer_opens_seed() -> int:
    """The first seed whose opening roll the computer (White) wins, from the
    engine's own seeded dice (the same generator the page uses)."""
    import engine

    for seed in range(1, 1000):
        white, black = engine.Game(dice=engine.Dice(seed=seed)).opening_roll()
        if white > black:
            return seed
    raise AssertionError("no seed in 1..999 lets White open")


# --------------------------------------------------------------------------- the run


def _median(samples: list[dict], key: str) -> float | None:
    values = [s[key] for s in samples if s.get(key) is not None]
    return statistics.median(values) if values else None


def run(browser, site_dir: Path, runs: int = RUNS, profiles: list[str] | None = None,
        new_tab: bool = False) -> dict:
    """Measure every profile x page (``runs`` fresh contexts each, medians)
    and the computer's first play; returns the report (see :func:`table`)."""
    server, base_url = serve.serve_in_thread(site_dir, compress=True)
    problems = Problems()
    report: dict = {"runs": runs, "profiles": {}, "first_play": None, "version": None, "new_tab": new_tab,
                    "settle_ms": SETTLE_MS}
    try:
        warm_up(browser, base_url)
        for name in profiles or list(PROFILES):
            cells = {}
            for label, url in PAGES.items():
                samples = [measure_page(browser, base_url, url, PROFILES[name], problems, board=label == "game",
                                        new_tab=new_tab)
                           for _ in range(runs)]
                print(f"test_timing: {name} / {label}: cold {samples[-1]['cold']['ready']:.0f} ms, "
                      f"warm {samples[-1]['warm']['ready']:.0f} ms", file=sys.stderr, flush=True)
                cells[label] = {
                    phase: {key: _median([s[phase] for s in samples], key)
                            for key in ("board", "ready", "bytes", "ai")}
                    | {"ai_state": samples[-1][phase]["aiState"],
                       "ready_samples": [x[phase]["ready"] for x in samples]}
                    for phase in ("cold", "warm")
                }
                if label == "game":
                    report["version"] = samples[-1]["version"]
                    # the same, reloaded in the instant the precache is complete (see SETTLE_MS)
                    at_once = [measure_page(browser, base_url, url, PROFILES[name], problems, board=True,
                                            new_tab=new_tab, settle_ms=0)["warm"]
                               for _ in range(runs)]
                    cells[label][AT_ONCE] = {key: _median(at_once, key) for key in ("board", "ready", "bytes", "ai")} \
                        | {"ai_state": at_once[-1]["aiState"], "ready_samples": [x["ready"] for x in at_once]}
            report["profiles"][name] = cells
        if profiles is None or FIRST_PLAY_PROFILE in profiles:
            seed = computer_opens_seed()
            plays = [measure_first_play(browser, base_url, PROFILES[FIRST_PLAY_PROFILE], seed, problems)
                     for _ in range(runs)]
            report["first_play"] = {"profile": FIRST_PLAY_PROFILE, "seed": seed, "url": plays[0]["url"],
                                    "ready": _median(plays, "ready"), "after_ready": _median(plays, "after_ready")}
    finally:
        server.shutdown()
        server.server_close()
    report["problems"] = problems.found
    return report


def _s(ms: float | None) -> str:
    return "     -" if ms is None else f"{ms / 1000:5.2f}s"


def _mb(n: float | None) -> str:
    return "     -" if n is None else f"{n / 1e6:5.2f}MB"


def _verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else "met" if ok else "MISSED"


def table(report: dict) -> str:
    """The report as a printable table with the goals."""
    lines = [f"Load times, build {report['version']}, dist/ served gzip-compressed with netlify.toml's headers; "
             f"seconds from navigation start, median of {report['runs']} fresh profile(s)",
             "  cold = first visit; warm = second visit"
             + (", in a new tab" if report.get("new_tab") else ", a reload of the same tab")
             + f", {report.get('settle_ms', SETTLE_MS) / 1000:g} s after the first is over"
             " (the game: service worker installed; bare pages: HTTP cache);",
             "  warm at once = the game's second visit in the instant its precache completed",
             f"  {'profile':<9} {'page':<17} {'visit':<12} {'board':>7} {'playable':>8} {'bytes':>8} {'AI ready':>8}"
             + ("   playable, each profile" if report["runs"] > 1 else "")]
    for name, cells in report["profiles"].items():
        for label, phases in cells.items():
            for phase in phases:
                c = phases[phase]
                ai = _s(c["ai"]) if c["ai"] is not None else (c["ai_state"] or "-")
                each = c.get("ready_samples") or []
                lines.append(f"  {name:<9} {label:<17} {phase:<12} {_s(c['board']) if label == 'game' else '     -':>7} "
                             f"{_s(c['ready']):>8} {_mb(c['bytes']):>8} {ai:>8}"
                             + ("   " + " ".join(_s(x).strip() for x in each) if len(each) > 1 else ""))
    fp = report["first_play"]
    if fp:
        lines.append(f"  computer's first play ({fp['profile']}, cold, {fp['url']}): "
                     f"{_s(fp['after_ready']).strip()} after playable ({_s(fp['ready']).strip()} from navigation)")

    profiles = report["profiles"]

    def ready(profile, page="game", phase="cold"):
        return profiles.get(profile, {}).get(page, {}).get(phase, {}).get("ready")

    phone, bare = ready("4G phone"), ready("4G phone", "bare MicroPython")
    none_cold = ready("none")
    warm = [ready(p, phase="warm") for p in profiles]
    at_once = [ready(p, phase=AT_ONCE) for p in profiles]
    cold_bytes = [profiles[p]["game"]["cold"]["bytes"] for p in profiles]
    lines += [
        "  goals (issue 15):",
        f"    4G phone cold playable <= {GOALS['phone_cold_ms'] / 1000} s: {_s(phone).strip()} "
        f"{_verdict(None if phone is None else phone <= GOALS['phone_cold_ms'])}; "
        f"<= {GOALS['phone_over_bare']}x bare MicroPython: "
        + ("n/a" if phone is None or not bare else
           f"{phone / bare:.2f}x {_verdict(phone / bare <= GOALS['phone_over_bare'])}"),
        f"    unthrottled cold playable <= {GOALS['none_cold_ms'] / 1000} s: {_s(none_cold).strip()} "
        f"{_verdict(None if none_cold is None else none_cold <= GOALS['none_cold_ms'])}",
        f"    warm playable <= {GOALS['warm_ms'] / 1000} s (every profile): "
        + ", ".join(_s(w).strip() for w in warm) + f" {_verdict(all(w <= GOALS['warm_ms'] for w in warm))}"
        + ("; at once: " + ", ".join(_s(w).strip() for w in at_once) if all(w is not None for w in at_once) else ""),
        f"    compressed bytes before playable <= {GOALS['bytes'] / 1e6} MB (cold): "
        + ", ".join(_mb(b).strip() for b in cold_bytes)
        + f" {_verdict(all(b <= GOALS['bytes'] for b in cold_bytes))}",
    ]
    if fp:
        lines.append(f"    computer's first play within {GOALS['first_play_ms'] / 1000} s of its turn (4G phone): "
                     f"{_s(fp['after_ready']).strip()} {_verdict(fp['after_ready'] <= GOALS['first_play_ms'])}")
    return "\n".join(lines)


def check_sanity(report: dict) -> None:
    """What is asserted: every page was measured, and nothing broke the rules."""
    for name, cells in report["profiles"].items():
        for label, phases in cells.items():
            for phase, c in phases.items():
                assert c["ready"] is not None and c["ready"] < READY_LIMIT_MS, (name, label, phase, c)
                assert c["ai_state"] in (None, "ready"), f"{name} {label} {phase}: AI worker {c['ai_state']}"
            assert phases["cold"]["bytes"] > 0, (name, label)
            if label == "game":
                assert phases["cold"]["board"] is not None and phases["warm"]["board"] is not None
        assert cells["game"]["warm"]["bytes"] < cells["game"]["cold"]["bytes"], "warm visit re-downloaded the site"
    if report["first_play"]:
        assert report["first_play"]["after_ready"] >= 0
    assert report["problems"] == []


# --------------------------------------------------------------------------- entry points


# about 7 minutes alone on this 2-core machine; with other work on the cores
# (a benchmark beside a CI run, 2026-12-05) it ran past pytest's 600 s hang guard
# (pyproject.toml) mid-way through its cells, each well inside its own limit
@pytest.mark.timeout(1500)
def test_load_times(browser, site_dir, capsys):
    report = run(browser, site_dir)
    conftest.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (conftest.SCREENSHOTS / "timing.json").write_text(json.dumps(report, indent=1) + "\n")
    with capsys.disabled():
        print("\n\n" + table(report) + "\n")
    check_sanity(report)


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description="Load-time benchmark (see the module docstring).")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="built site (default: dist/)")
    parser.add_argument("--runs", type=int, default=RUNS, help="fresh profiles per cell (median)")
    parser.add_argument("--profiles", default=",".join(PROFILES), help="comma-separated: " + ", ".join(PROFILES))
    parser.add_argument("--json", type=Path, help="also write the report as JSON here")
    parser.add_argument("--new-tab", action="store_true",
                        help="warm = the second visit in a new tab (default: a reload of the same tab)")
    args = parser.parse_args(argv)
    if not (args.dist / "precache-manifest.json").is_file():
        print(f"{args.dist} is not built: python3 tools/build_site.py", file=sys.stderr)
        return 2
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=conftest.CHROMIUM, args=conftest.CHROMIUM_ARGS, headless=True)
        try:
            report = run(browser, args.dist.resolve(), args.runs, args.profiles.split(","), args.new_tab)
        finally:
            browser.close()
    print(table(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    check_sanity(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
