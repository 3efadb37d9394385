// Think times of the AI inside Pyodide (the browser's Python), run by Node:
//   node ai/tools/pyodide_speed.mjs [positions] [levels] [noprune] [nolook] [nobudget]
// Copies engine/ and ai/ (runtime files and weights) into Pyodide's file
// system and runs ai.speed there. Needs the npm package "pyodide" installed.
import { loadPyodide } from "pyodide";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
const py = await loadPyodide();
function copyDir(rel) {
  const src = path.join(root, rel);
  py.FS.mkdirTree("/app/" + rel);
  for (const name of fs.readdirSync(src)) {
    const p = path.join(src, name);
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      if (name === "training" || name === "__pycache__" || name === "tools") continue;
      copyDir(path.join(rel, name));
    } else if (/\.(py|bin|gz)$/.test(name)) {
      py.FS.writeFile("/app/" + rel + "/" + name, fs.readFileSync(p));
    }
  }
}
copyDir("engine");
copyDir("ai");
const n = process.argv[2] || "200";
const levels = process.argv[3] || "1,2,3,4,5";
const flags = process.argv.slice(4);
const prune = flags.includes("noprune") ? "False" : "True"; // as python -m ai.speed --no-prune
const look = flags.includes("nolook") ? "False" : "True"; // as python -m ai.speed --no-look
const budget = flags.includes("nobudget") ? "False" : "True"; // as python -m ai.speed --no-budget
console.log(`Pyodide ${py.version}`);
py.runPython(`
import sys
sys.path.insert(0, "/app")
from ai.speed import measure
measure(tuple(int(x) for x in "${levels}".split(",")), ${n}, prune=${prune}, look=${look}, budget=${budget})
`);
