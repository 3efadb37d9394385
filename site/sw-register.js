/* Page side of the service worker (sw.js): register it, and let the page
 * decide when a newly deployed version takes over.
 *
 * Include once per page:   <script type="module" src="./sw-register.js"></script>
 *
 * window.bgServiceWorker:
 *   .updateReady      true once a new version is installed and waiting
 *   .applyUpdate()    activate the waiting version and reload the page; call it
 *                     only when no game is in progress (returns false, doing
 *                     nothing, when no version is waiting), and once the page
 *                     and its workers have stopped loading: a request through
 *                     the old worker after the call restarts it, and Chromium
 *                     then activates the new one only when the old one idles
 *                     out (30 s; 5 minutes with DevTools attached)
 *   .version()        Promise<string>: the controlling worker's build version
 * window event "bg:update-ready" fires when a new version is waiting.
 *
 * Nothing here swaps versions by itself: a waiting version otherwise takes
 * over only when every tab of the site has been closed.
 */
const api = {
  updateReady: false,
  registration: null,
  applyUpdate() {
    const waiting = api.registration && api.registration.waiting;
    if (!waiting) return false;
    let reloaded = false;
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (!reloaded) {
        reloaded = true;
        location.reload();
      }
    });
    waiting.postMessage({ type: "SKIP_WAITING" });
    return true;
  },
  version() {
    const controller = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!controller) return Promise.resolve(null);
    return new Promise((resolve) => {
      const onMessage = (event) => {
        if (event.data && event.data.type === "VERSION") {
          navigator.serviceWorker.removeEventListener("message", onMessage);
          resolve(event.data.version);
        }
      };
      navigator.serviceWorker.addEventListener("message", onMessage);
      controller.postMessage({ type: "GET_VERSION" });
    });
  },
};
window.bgServiceWorker = api;

function announce() {
  if (api.updateReady) return;
  api.updateReady = true;
  window.dispatchEvent(new CustomEvent("bg:update-ready"));
}

function watch(registration) {
  if (api.registration === registration) return;
  api.registration = registration;
  if (registration.waiting && navigator.serviceWorker.controller) announce();
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    if (!installing) return;
    installing.addEventListener("statechange", () => {
      // "installed" with a controller present = an update is waiting
      // (without one, this is the first install and it activates by itself).
      if (installing.state === "installed" && navigator.serviceWorker.controller) announce();
    });
  });
}

/* Resolves once the page is playable and its AI worker has settled:
 * body[data-ready="true"] (pages without a data-ready attribute: at load),
 * then body[data-ai] no longer "loading" (pages without data-ai: at once), or
 * `aiCap` ms after playable, whichever comes first. Never before playable:
 * precaching must not compete with the page's own start, and once the AI
 * worker has fetched Pyodide the precache takes those files from the HTTP
 * cache instead of downloading them a second time. */
function pageSettled(aiCap = 30000) {
  const body = () => document.body;
  const whenAttr = (name, done) =>
    new Promise((resolve) => {
      if (done()) return resolve();
      const observer = new MutationObserver(() => {
        if (done()) {
          observer.disconnect();
          resolve();
        }
      });
      observer.observe(body(), { attributes: true, attributeFilter: [name] });
    });
  const loaded = new Promise((resolve) => {
    if (document.readyState === "complete") resolve();
    else window.addEventListener("load", resolve, { once: true });
  });
  return loaded
    .then(() =>
      whenAttr("data-ready", () => !body().hasAttribute("data-ready") || body().dataset.ready === "true"),
    )
    .then(() =>
      Promise.race([
        whenAttr("data-ai", () => body().dataset.ai !== "loading"),
        new Promise((resolve) => setTimeout(resolve, aiCap)),
      ]),
    );
}

if ("serviceWorker" in navigator && location.protocol !== "file:") {
  const url = new URL("./sw.js", import.meta.url);
  // A returning visitor: a version installed on an earlier visit may be
  // waiting already; say so at once (getRegistration() fetches nothing).
  if (navigator.serviceWorker.controller) {
    navigator.serviceWorker.getRegistration().then((registration) => registration && watch(registration));
  }
  // Registering checks for an update, and installing one precaches what
  // changed: first visit and returning visitor alike, only once the page
  // has settled.
  pageSettled()
    .then(() => navigator.serviceWorker.register(url, { updateViaCache: "none" }))
    .then(watch)
    .catch((error) => console.warn("service worker not registered:", error));
}
