/* Service worker: the whole site offline after the first visit.
 *
 * - install: precache every file of this build that a page loads (the list
 *   and its content hashes are stamped in below by tools/build_site.py),
 *   reusing files with an unchanged hash from the previous version's cache
 *   instead of downloading. sw-register.js registers this worker only once
 *   the page is playable and its AI worker has settled, so the install never
 *   competes with the page's start.
 * - fetch: cache-first for same-origin GETs (query strings ignored, so
 *   `index.html?mode=ai&level=3` is served offline); `.wasm` always carries
 *   `application/wasm`; a navigation that misses falls back to the network, then
 *   to index.html.
 * - versions: one cache per build version (`bg-<version>`). A new version waits
 *   (no skipWaiting on install) until a page asks with
 *   `postMessage({type: "SKIP_WAITING"})`: the page knows whether a game is in
 *   progress, the worker does not. sw-register.js is the page side.
 *
 * Served unbuilt (straight from site/), BUILD is null: nothing is precached
 * and nothing is intercepted.
 */
"use strict";

const BUILD = /*@@BUILD@@*/ null;
const VERSION = BUILD ? BUILD.version : "dev";
const PREFIX = "bg-";
const CACHE = PREFIX + VERSION;
const MANIFEST_KEY = "__precache-manifest__";
const WASM = "application/wasm";
const PARALLEL = 6;

const scopeURL = (path) => new URL(path, self.registration.scope).href;

/* A response with the right Content-Type for .wasm (streaming compilation
 * refuses anything else), whatever the server said. */
async function typed(response, url) {
  if (!new URL(url).pathname.endsWith(".wasm")) return response;
  if ((response.headers.get("content-type") || "").startsWith(WASM)) return response;
  const headers = new Headers(response.headers);
  headers.set("content-type", WASM);
  return new Response(await response.blob(), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/* The precache list and hashes of the versions cached before this one. */
async function previousCaches() {
  const found = [];
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const cache = await caches.open(name);
    const stored = await cache.match(MANIFEST_KEY);
    if (stored) found.push({ cache, files: (await stored.json()).files || {} });
  }
  return found;
}

async function precacheOne(cache, path, hash, previous) {
  const url = scopeURL(path);
  for (const old of previous) {
    if (old.files[path] !== hash) continue;
    const hit = await old.cache.match(url);
    if (hit) return cache.put(url, hit);
  }
  // Versioned vendor files may come from the HTTP cache; everything else is
  // revalidated so a stale copy never lands in the new version's cache.
  const mode = path.startsWith("vendor/") ? "default" : "no-cache";
  const response = await fetch(url, { cache: mode, credentials: "same-origin" });
  if (!response.ok) throw new Error(`precache ${path}: HTTP ${response.status}`);
  return cache.put(url, await typed(response, url));
}

async function precache() {
  const cache = await caches.open(CACHE);
  const have = new Set((await cache.keys()).map((request) => request.url));
  const previous = await previousCaches();
  const todo = Object.entries(BUILD.files).filter(([path]) => !have.has(scopeURL(path)));
  let next = 0;
  const lane = async () => {
    while (next < todo.length) {
      const [path, hash] = todo[next++];
      await precacheOne(cache, path, hash, previous);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, lane));
  // Written last: its presence means this version's cache is complete.
  await cache.put(
    MANIFEST_KEY,
    new Response(JSON.stringify(BUILD), { headers: { "content-type": "application/json" } }),
  );
}

self.addEventListener("install", (event) => {
  if (BUILD) event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      // The first version takes the page that installed it, so that page is
      // offline-capable at once; later versions only activate when a page
      // asked for it (SKIP_WAITING), and the page reloads itself then.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  if (type === "SKIP_WAITING") {
    self.skipWaiting();
  } else if (type === "GET_VERSION" && event.source) {
    event.source.postMessage({ type: "VERSION", version: VERSION });
  }
});

/* Other URLs that a navigation may be stored under: `/` -> `/index.html`,
 * `/rules` -> `/rules.html` (Netlify's pretty URLs). */
function navigationAlternatives(url) {
  const path = url.pathname;
  if (path.endsWith("/")) return [path + "index.html"];
  if (!/\.[a-z0-9]+$/i.test(path)) return [path + ".html", path + "/index.html"];
  return [];
}

/* This version's cache, opened once per worker lifetime. */
let opened = null;
const ownCache = () => opened || (opened = caches.open(CACHE));

async function respond(request, url) {
  const cache = await ownCache();
  // Looked up by exact URL, the query string dropped: Cache.match with
  // ignoreSearch compares every stored entry (Chromium scans the whole cache
  // per request), which made a warm start wait ~0.5 s for the page's 36
  // Python files; an exact URL is one index lookup.
  let hit = await cache.match(url.search ? url.origin + url.pathname : request);
  if (!hit && request.mode === "navigate") {
    for (const alt of navigationAlternatives(url)) {
      hit = await cache.match(new URL(alt, url.origin).href);
      if (hit) break;
    }
  }
  if (hit) return hit;
  try {
    return await typed(await fetch(request), request.url);
  } catch (error) {
    if (request.mode === "navigate") {
      const fallback = await cache.match(scopeURL("index.html"));
      if (fallback) return fallback;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (!BUILD || request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || request.headers.has("range")) return;
  if (url.pathname.endsWith("/sw.js")) return;
  event.respondWith(respond(request, url));
});
