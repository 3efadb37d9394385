#!/usr/bin/env bash
# Build the site exactly as Netlify does (netlify.toml's [build] command) and
# serve it on http://localhost:8000 (PORT=... to change). Works on a fresh
# Debian machine as root: installs python3, python3-venv, nodejs and npm first
# when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/_setup.sh

command -v python3 >/dev/null 2>&1 || { as_root apt-get update -q; as_root apt-get install -y -q python3; }
apt_install_missing python3 python3 py:ensurepip python3-venv node nodejs npm npm

build_site
exec python3 tools/serve.py --dir "$(netlify_value publish)" --host "${HOST:-127.0.0.1}" --port "${PORT:-8000}"
