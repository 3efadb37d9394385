#!/usr/bin/env bash
# Everything the tests need, then the tests: works on a fresh Debian machine
# as root, non-interactively (CI=true). Installs Debian's chromium (driven by
# Playwright through executable_path: no browser download), gnubg, nodejs,
# npm and python3-venv when missing; a virtualenv .venv with the pinned
# requirements-dev.txt; builds the site with netlify.toml's build command;
# runs pytest over tests/ and e2e/ and the doctests of engine/ and ai/. Extra arguments go to pytest.
# Exit status: pytest's, except that "no tests collected" (5) is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/_setup.sh
export PATH="$PATH:/usr/games"   # Debian installs gnubg there

command -v python3 >/dev/null 2>&1 || { as_root apt-get update -q; as_root apt-get install -y -q python3; }
apt_install_missing py:ensurepip python3-venv /usr/bin/chromium chromium /usr/games/gnubg gnubg \
  node nodejs npm npm

# The virtualenv, reinstalled only when requirements-dev.txt (or the build's requirements-build.txt) changed.
stamp=.venv/.requirements-dev.sha256
want=$(cat requirements-dev.txt requirements-build.txt | sha256sum | cut -d' ' -f1)
if [ ! -x .venv/bin/python ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "setup: creating .venv from requirements-dev.txt"
  rm -rf .venv
  python3 -m venv .venv
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt
  echo "$want" > "$stamp"
fi

build_site

set +e
.venv/bin/python -m pytest tests e2e engine ai "$@"   # engine/ and ai/: their doctests (conftest.py)
status=$?
set -e
if [ "$status" = 5 ]; then
  echo "test.sh: pytest collected no tests: failing" >&2
  exit 1
fi
exit "$status"
