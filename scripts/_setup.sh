# Shared by scripts/serve.sh and scripts/test.sh (sourced, not run).
# Installs missing Debian packages and runs netlify.toml's build command.

export DEBIAN_FRONTEND=noninteractive

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# apt_install_missing CHECK PACKAGE [CHECK PACKAGE ...]: install each PACKAGE whose
# CHECK fails; CHECK is a command name, an absolute path, or py:MODULE (python3 import).
apt_install_missing() {
  local missing=() cmd pkg
  while [ $# -gt 1 ]; do
    cmd=$1 pkg=$2; shift 2
    case $cmd in
      /*) [ -e "$cmd" ] || missing+=("$pkg") ;;
      py:*) python3 -c "import ${cmd#py:}" >/dev/null 2>&1 || missing+=("$pkg") ;;
      *) command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg") ;;
    esac
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: apt-get install ${missing[*]}"
    as_root apt-get update -q
    as_root apt-get install -y -q "${missing[@]}"
  fi
}

netlify_value() {  # netlify_value command|publish
  python3 -c 'import sys, tomllib; print(tomllib.load(open("netlify.toml", "rb"))["build"][sys.argv[1]])' "$1"
}

build_site() {
  local cmd
  cmd=$(netlify_value command)
  echo "setup: building the site: $cmd"
  bash -c "$cmd"
}
