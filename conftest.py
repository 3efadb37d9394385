"""Doctests of the runtime packages: every module of engine/ and ai/ is collected
for its doctests (ai/training/ is left out: it needs numpy and torch), so
``pytest`` over testpaths runs them beside tests/ and e2e/."""
from pathlib import Path

from _pytest.doctest import DoctestModule

ROOT = Path(__file__).resolve().parent
DOCTEST_PACKAGES = (ROOT / "engine", ROOT / "ai")
SKIP = (ROOT / "ai" / "training",)


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix != ".py":
        return None
    if any(file_path.is_relative_to(s) for s in SKIP):
        return None
    if any(file_path.is_relative_to(p) for p in DOCTEST_PACKAGES):
        return DoctestModule.from_parent(parent, path=file_path)
    return None
