"""Static checks, run as tests so that CI runs them: mypy on engine/ and ruff's
F rules (undefined names, unused imports and variables, ...) on all our code.
Both are pinned in requirements-dev.txt and run from the virtualenv. And the repository
tracks no symlinks and no installed or built tree."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def check(*cmd: str) -> None:
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}"


def test_mypy_passes_on_the_engine():
    check(str(BIN / "mypy"), "engine")


def test_ruff_f_rules_pass_everywhere():
    check(str(BIN / "ruff"), "check", "--select", "F", "--exclude", "node_modules,.venv,dist", ".")


def test_no_symlink_or_installed_tree_is_committed():
    """A committed symlink named .venv or node_modules once replaced the real
    folders on checkout; the repository tracks no symlinks at all, and
    nothing under the installed or built trees."""
    listed = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    links = [line.split("\t", 1)[1] for line in listed.splitlines() if line.startswith("120000 ")]
    assert links == []
    names = [line.split("\t", 1)[1] for line in listed.splitlines()]
    assert not [n for n in names if n.split("/")[0] in (".venv", ".venv-build", "node_modules", "dist")]
