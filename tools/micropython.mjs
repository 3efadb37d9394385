// Run a Python script on MicroPython 1.27 (the PyScript build from npm, the
// same micropython.wasm the site's main thread runs) under Node.
//
//   node tools/micropython.mjs [--lib NAME=DIR]... [--file VM_PATH=HOST_PATH]...
//                              [--bundle VM_DIR=HOST_PATH]... [--heap MB] SCRIPT.py|-
//
// --lib copies the .py files of DIR (recursively) to /lib/NAME, which is on
// MicroPython's sys.path, so `import NAME` works as in the browser. --file
// copies one host file into the VM's filesystem. --bundle unpacks a page's
// bundle of precompiled modules (py/main/*.bundle) under VM_DIR with the
// site's own reader (site/mpy-bundle.mjs), as site/boot.mjs does. The script (or stdin for -)
// runs as __main__; its stdout and stderr are this process's. Exit status 0,
// or 1 with the traceback on stderr when the script raises.
// Used by the tests (tests/micropython.py) to prove that the engine and the
// main-thread modules behave in MicroPython exactly as in CPython.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const mpPath = path.join(root, 'node_modules', '@micropython', 'micropython-webassembly-pyscript', 'micropython.mjs');
if (!fs.existsSync(mpPath)) {
  process.stderr.write(`MicroPython is not installed: ${mpPath} is missing; run "npm ci" in ${root}\n`);
  process.exit(2);
}
const { loadMicroPython } = await import(mpPath);

const libs = [], files = [], bundles = [];
let heapMb = 256, script = null;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--lib' || a === '--file' || a === '--bundle') {
    const spec = args[++i] || '';
    const eq = spec.indexOf('=');
    if (eq < 1) { process.stderr.write(`${a} needs NAME=PATH, got ${JSON.stringify(spec)}\n`); process.exit(2); }
    ({ '--lib': libs, '--file': files, '--bundle': bundles })[a].push([spec.slice(0, eq), spec.slice(eq + 1)]);
  } else if (a === '--heap') {
    heapMb = Number(args[++i]);
  } else {
    script = a;
  }
}
if (!script) {
  process.stderr.write('usage: node tools/micropython.mjs [--lib NAME=DIR]... [--file VM=HOST]... [--bundle VM_DIR=HOST]... [--heap MB] SCRIPT.py|-\n');
  process.exit(2);
}

const out = (d) => process.stdout.write(d);
const err = (d) => process.stderr.write(d);
const mp = await loadMicroPython({ heapsize: heapMb * 1024 * 1024, stdout: out, stderr: err, linebuffer: false });

function copyTree(src, dst) {
  mp.FS.mkdirTree(dst);
  for (const name of fs.readdirSync(src)) {
    const s = path.join(src, name);
    if (fs.statSync(s).isDirectory()) {
      if (name !== '__pycache__') copyTree(s, `${dst}/${name}`);
    } else if (name.endsWith('.py')) {
      mp.FS.writeFile(`${dst}/${name}`, fs.readFileSync(s));
    }
  }
}
for (const [name, dir] of libs) copyTree(path.resolve(dir), `/lib/${name}`);
for (const [vm, host] of files) {
  mp.FS.mkdirTree(path.posix.dirname(vm));
  mp.FS.writeFile(vm, fs.readFileSync(path.resolve(host)));
}
if (bundles.length) {
  const { unpack } = await import(path.join(root, 'site', 'mpy-bundle.mjs'));
  for (const [dir, host] of bundles) unpack(new Uint8Array(fs.readFileSync(path.resolve(host))), mp.FS, dir);
}

const code = script === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(script, 'utf8');
try {
  mp.runPython(code);
} catch (e) {
  err(String(e && e.message ? e.message : e) + '\n');
  process.exit(1);
}
