# Shared by bin/run and bin/test: find a Python >= 3.12 and make .venv match uv.lock.
# Sourced, not executed. Sets SNAPLEAGUE_ROOT and puts .venv/bin first on PATH.
set -euo pipefail

SNAPLEAGUE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
UV_VERSION="0.13.9"
export UV_PYTHON_DOWNLOADS=never UV_PROJECT_ENVIRONMENT="$SNAPLEAGUE_ROOT/.venv"

_python_ok() {  # prints the interpreter's path when it is CPython >= 3.12 and can make venvs
  "$1" -c 'import sys, venv; assert sys.version_info >= (3, 12); print(sys.executable)' 2>/dev/null
}

find_python() {
  local tried=() candidate found
  local candidates=("${SNAPLEAGUE_PYTHON:-}" python3.13 python3.12 python3)
  # pyenv keeps 3.12/3.13 whose shims only answer when selected: look at the versions directly.
  local pyenv_root="${PYENV_ROOT:-}"
  if [ -z "$pyenv_root" ] && command -v pyenv >/dev/null 2>&1; then pyenv_root="$(pyenv root 2>/dev/null || true)"; fi
  [ -n "$pyenv_root" ] || pyenv_root="$HOME/.pyenv"
  for dir in "$pyenv_root"/versions/3.1[2-9]* /usr/bin/python3.1[2-9] /usr/local/bin/python3.1[2-9]; do
    [ -e "$dir" ] || continue
    if [ -d "$dir" ]; then candidates+=("$dir/bin/python3"); else candidates+=("$dir"); fi
  done
  for candidate in "${candidates[@]}"; do
    [ -n "$candidate" ] || continue
    tried+=("$candidate")
    if found="$(_python_ok "$candidate")" && [ -n "$found" ]; then echo "$found"; return 0; fi
  done
  {
    echo "snapleague needs Python 3.12 or newer (Django 6). None found; tried:"
    printf '  %s\n' "${tried[@]}"
    echo "Install one (Debian 13: apt-get install python3.13 python3.13-venv; or pyenv install 3.12)"
    echo "or point SNAPLEAGUE_PYTHON at it."
  } >&2
  return 1
}

ensure_env() {
  local python uv
  python="$(find_python)"
  uv="$(command -v uv || true)"
  if [ -z "$uv" ] || [ "$("$uv" --version 2>/dev/null | awk '{print $2}')" != "$UV_VERSION" ]; then
    # A private copy of the pinned uv, so a fresh machine needs nothing but Python and PyPI.
    if [ ! -x "$SNAPLEAGUE_ROOT/var/bootstrap/bin/uv" ]; then
      echo "Installing uv $UV_VERSION into var/bootstrap ..." >&2
      "$python" -m venv "$SNAPLEAGUE_ROOT/var/bootstrap"
      "$SNAPLEAGUE_ROOT/var/bootstrap/bin/pip" install --quiet --disable-pip-version-check "uv==$UV_VERSION"
    fi
    uv="$SNAPLEAGUE_ROOT/var/bootstrap/bin/uv"
  fi
  # The uv chosen here, for the scripts that run after this (scripts/deploy_check.sh, the oracle venv).
  export SNAPLEAGUE_UV="$uv"
  (cd "$SNAPLEAGUE_ROOT" && "$uv" sync --frozen --quiet --python "$python")
  export PATH="$SNAPLEAGUE_ROOT/.venv/bin:$PATH"
  mkdir -p "$SNAPLEAGUE_ROOT/var"
  # Python's compiled modules are kept, under var/pycache (out of the source tree and the
  # virtualenv; uv installs no bytecode). Where the environment sets PYTHONDONTWRITEBYTECODE (the
  # development machine's does, and so CI's run there), every process compiled every module it
  # imports again: 3 s of each start on 2 cores (manage.py check 4.6 -> 1.9 s; one pytest process
  # 7.8 -> 3.5 s), and the tests start many (their workers, every bin/run, manage.py and uvicorn).
  export PYTHONPYCACHEPREFIX="$SNAPLEAGUE_ROOT/var/pycache"
  unset PYTHONDONTWRITEBYTECODE
  # The translation catalogues (locale/*.po → .mo; only what changed).
  (cd "$SNAPLEAGUE_ROOT" && python -m snapleague.catalogues)
}
