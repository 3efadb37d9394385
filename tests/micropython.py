"""Run code on MicroPython 1.27 (npm's PyScript build, under Node) from the tests.

The main thread of the site runs on MicroPython, so the engine and the
main-thread modules are tested in MicroPython itself, not only in CPython:
``run(script, libs=...)`` copies our packages into the VM and returns what the
script printed. Node and the npm package are required (``npm ci``); a missing
runtime is a test failure, never a skip.
"""
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]
RUNNER = ROOT / "tools" / "micropython.mjs"
LIBS = {"engine": ROOT / "engine", "webui": ROOT / "site" / "webui"}


class MicroPythonError(AssertionError):
    """The script raised inside MicroPython (the message carries its traceback)."""


def run(script: str, libs=("engine",), files=None, heap_mb: int = 256, timeout: float = 600, bundles=None) -> str:
    """Run ``script`` on MicroPython with our packages ``libs`` importable; its stdout.
    ``files``: {VM path: host file} copied in; ``bundles``: {VM folder: a page's
    bundle} unpacked by the site's reader (site/mpy-bundle.mjs)."""
    cmd = ["node", str(RUNNER), "--heap", str(heap_mb)]
    for name in libs:
        cmd += ["--lib", f"{name}={LIBS[name]}"]
    for vm_path, host_path in (files or {}).items():
        cmd += ["--file", f"{vm_path}={host_path}"]
    for vm_dir, host_path in (bundles or {}).items():
        cmd += ["--bundle", f"{vm_dir}={host_path}"]
    cmd.append("-")
    proc = subprocess.run(cmd, input=script, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    if proc.returncode != 0:
        raise MicroPythonError(f"MicroPython failed (exit {proc.returncode}):\n{proc.stderr}{proc.stdout[-2000:]}")
    return proc.stdout
