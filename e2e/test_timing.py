"""How fast the game page becomes visible and playable, next to a bare PyScript page.

Prints, side by side from one run with a warm cache (the service worker has
precached the site, as for a returning player): time to the board being
visible, time until a checker can be moved (``body[data-ready="true"]``: Python
has taken over the page) and the ready time of ``bare.html``, a bare PyScript
page on the same vendored Pyodide. All times are milliseconds from navigation
start (``performance.now()`` in the page), medians of a few loads.

Goals (issue 4): board visible within 300 ms; playable within 1.3x the bare
page's ready time. They are printed, not asserted, because they are machine
speed; ``BG_TIMING_STRICT=1`` asserts them too. Always asserted: the board
appears and the page becomes ready within generous limits, with no CSP
violation and no request to another origin.
"""

from __future__ import annotations

import json
import os
import statistics

RUNS = int(os.environ.get("BG_TIMING_RUNS", "3"))
GAME = "index.html"
BARE = "bare.html"
BOARD_GOAL_MS = 300
RATIO_GOAL = 1.3
BOARD_LIMIT_MS = 10_000   # generous: a failure here means the board is not pre-rendered or broken
READY_LIMIT_MS = 90_000

# Records, in every page of the context, when the board is first laid out with
# a size (checked every animation frame, i.e. just before a paint), when
# body[data-ready="true"] appears (MutationObserver: exact), and the first
# contentful paint.
TIMING_SCRIPT = """
(() => {
  const t = (window.__bgTiming = { board: null, ready: null, fcp: null });
  const frame = () => {
    if (t.board === null) {
      const el = document.querySelector('[data-testid="board"]');
      if (el) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden") t.board = performance.now();
      }
    }
    if (t.board === null) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const readyNow = () => {
    if (t.ready === null && document.body && document.body.dataset.ready === "true") t.ready = performance.now();
  };
  new MutationObserver(readyNow).observe(document, { subtree: true, childList: true, attributes: true,
                                                     attributeFilter: ["data-ready"] });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === "first-contentful-paint") t.fcp = e.startTime;
    }).observe({ type: "paint", buffered: true });
  } catch (e) {}
})();
"""


def _load(page, url: str, need_board: bool) -> dict:
    page.goto(url, wait_until="commit")
    condition = "t && t.ready !== null" + (" && t.board !== null" if need_board else "")
    page.wait_for_function(f"() => {{ const t = window.__bgTiming; return {condition}; }}",
                           timeout=READY_LIMIT_MS, polling=50)
    return page.evaluate("({...window.__bgTiming})")


def _median(samples: list[dict], key: str) -> float | None:
    values = [s[key] for s in samples if s.get(key) is not None]
    return statistics.median(values) if values else None


def _fmt(ms: float | None) -> str:
    return "      -" if ms is None else f"{ms:7.0f}"


def test_timing_warm(context, page, page_log, wait_ready, wait_service_worker, shoot,
                     screenshot_dir, capsys):
    context.add_init_script(TIMING_SCRIPT)

    # First visit: cold caches; installs the service worker, which precaches the site.
    cold_game = _load(page, GAME, need_board=True)
    version = wait_service_worker(page)
    cold_bare = _load(page, BARE, need_board=False)

    game, bare = [], []
    for _ in range(RUNS):   # interleaved, so background noise hits both alike
        game.append(_load(page, GAME, need_board=True))
        bare.append(_load(page, BARE, need_board=False))
    page.goto(GAME)
    wait_ready(page)
    shoot(page, "timing-game-ready")

    board_ms, ready_ms = _median(game, "board"), _median(game, "ready")
    fcp_ms, bare_ms = _median(game, "fcp"), _median(bare, "ready")
    ratio = ready_ms / bare_ms
    report = {
        "version": version, "runs": RUNS,
        "warm": {"board_visible_ms": board_ms, "first_contentful_paint_ms": fcp_ms,
                 "playable_ms": ready_ms, "bare_ready_ms": bare_ms, "playable_over_bare": ratio},
        "cold": {"board_visible_ms": cold_game["board"], "playable_ms": cold_game["ready"],
                 "bare_ready_ms": cold_bare["ready"]},
        "samples": {"game": game, "bare": bare},
    }
    (screenshot_dir / "timing.json").write_text(json.dumps(report, indent=1) + "\n")
    with capsys.disabled():
        print(
            f"\n\ne2e timing, build {version}, ms from navigation start (median of {RUNS} warm loads; "
            f"cold = first visit)\n"
            f"                              board visible   playable (data-ready)   bare PyScript ready\n"
            f"  warm (service worker cache)       {_fmt(board_ms)}                 {_fmt(ready_ms)}"
            f"               {_fmt(bare_ms)}\n"
            f"  cold (first visit)                {_fmt(cold_game['board'])}                 "
            f"{_fmt(cold_game['ready'])}               {_fmt(cold_bare['ready'])}\n"
            f"  warm first contentful paint {_fmt(fcp_ms)} ms; playable / bare = {ratio:.2f}\n"
            f"  goals: board visible <= {BOARD_GOAL_MS} ms: {'met' if board_ms <= BOARD_GOAL_MS else 'MISSED'}; "
            f"playable <= {RATIO_GOAL}x bare: {'met' if ratio <= RATIO_GOAL else 'MISSED'}\n"
        )

    assert board_ms < BOARD_LIMIT_MS, f"board took {board_ms:.0f} ms to become visible"
    assert ready_ms < READY_LIMIT_MS and bare_ms < READY_LIMIT_MS
    assert page_log.problems(errors=False) == []
    if os.environ.get("BG_TIMING_STRICT") == "1":
        assert board_ms <= BOARD_GOAL_MS, f"board visible after {board_ms:.0f} ms"
        assert ratio <= RATIO_GOAL, f"playable after {ratio:.2f}x the bare page's ready time"

