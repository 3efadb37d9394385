/* Starts a page's Python on MicroPython, on the main thread, without PyScript.
 *
 * A page names its script the way PyScript does; the build reads the tag to
 * compile the script and every module it imports into one bundle
 * (tools/build_site.py, site/mpy-bundle.mjs), and writes the bundle's URL in:
 *
 *   <script type="mpy" src="./webui/app.py"
 *           config='{"interpreter": "./vendor/micropython-<v>/micropython.mjs",
 *                    "bundle": "./py/main/app.bundle"}'></script>
 *
 * This module runs that tag itself: it loads the interpreter named there and
 * fetches the bundle in parallel (the page's head preloads both), unpacks the
 * bundle into MicroPython's filesystem and, once the page is parsed, imports
 * the script as a module (`import webui.app`): no Python source is compiled
 * in the browser. The tag sits in the head, before `<script type="module"
 * async src="./boot.mjs">`: async, this module starts MicroPython while the
 * parser is still reading the page's body (the board, the panels) instead of
 * after it. No
 * PyScript on the main thread: its core (~140 kB of JavaScript to evaluate)
 * and the ~20 modules of its Python package (compiled from source by
 * MicroPython on every load) took about 0.3 s of a phone's first visit before
 * our first line ran. Our Python reaches the page through MicroPython's own
 * `js` and `jsffi` (site/webui/browser.py). PyScript still runs the AI's
 * Pyodide worker: `bgBoot.startWorker` imports its core only when the page
 * asks for the worker (once playable).
 *
 * If anything fails, the status line says so and what to do; the board drawn by
 * the build stays.
 */

import { unpack } from "./mpy-bundle.mjs";

const TAG = 'script[type="mpy"]';

/* Resolves once the whole page is parsed (this module is async: it starts
 * MicroPython while the parser is still busy with the page). */
function parsed() {
  if (document.readyState !== "loading") return Promise.resolve();
  return new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }));
}

async function fail(what, error) {
  console.error(`the page's Python did not start (${what}):`, error);
  await parsed();
  document.body.dataset.failed = "python";
  const status = document.getElementById("status");
  const text = `The page could not start (${what}). Reload it; if this keeps happening, ` +
    "update your browser (it needs WebAssembly and JavaScript modules).";
  if (status) status.textContent = text;
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/* Helpers the page's Python calls through `js.bgBoot` (site/webui/browser.py). */
globalThis.bgBoot = {
  /* A JavaScript module, by URL relative to the page. */
  importModule: (url) => import(new URL(url, document.baseURI).href),
  /* Start a PyScript worker on Pyodide running `src` with `config` (JSON text);
   * resolves, once it has run, to the functions its `__export__` names. */
  async startWorker(core, src, config) {
    const { PyWorker } = await import(new URL(core, document.baseURI).href);
    // `version` carries the interpreter's URL (what a <script type="py"> takes from its config)
    const version = new URL(JSON.parse(config).interpreter, document.baseURI).href;
    const worker = await PyWorker(src, { config, version }); // resolves once it has run
    return worker.sync;
  },
};

async function boot() {
  performance.mark("boot: start");
  const tag = document.querySelector(TAG);
  if (!tag) return;
  // Taken off the page: PyScript, loaded later for the AI's worker, must not run it again.
  tag.remove();
  let config;
  try {
    config = JSON.parse(tag.getAttribute("config") || "{}");
  } catch (error) {
    return fail("its configuration is broken", error);
  }
  // "./webui/app.py" -> "webui.app"
  const module = (tag.getAttribute("src") || "").replace(/^\.\//, "").replace(/\.py$/, "").split("/").join(".");
  let mp, bundle;
  try {
    const fetching = fetchBytes(config.bundle);
    fetching.catch(() => {}); // reported below, once
    const { loadMicroPython } = await import(new URL(config.interpreter, document.baseURI).href);
    [mp, bundle] = await Promise.all([loadMicroPython({ linebuffer: true }), fetching]);
  } catch (error) {
    return fail("a file did not load", error);
  }
  performance.mark("boot: MicroPython up"); // where a load's time goes (e2e/test_timing.py's probes)
  try {
    unpack(bundle, mp.FS);
    performance.mark("boot: bundle unpacked");
    await parsed(); // the page's Python needs the whole page
    performance.mark("boot: page parsed");
    mp.runPython(`import ${module}`);
  } catch (error) {
    fail("an error in its Python", error);
  }
}

boot();
