#!/usr/bin/env bash
# Build the oracle venv for the 66 engine's differential test: the PyPI package `schnapsen` 0.0.5
# (VU Amsterdam, GPL-3), which pins click==8.1.8 and so cannot share the project's .venv.
#
# Usage: scripts/oracle-venv.sh [VENV_DIR]      (default: var/oracle-venv; var/ is git-ignored)
#
# The package says Requires-Python >=3.10 and its pinned scikit-learn 1.6.0 ships wheels for
# 3.9-3.13; our engine needs >=3.12. So we look for a 3.12 or 3.13 interpreter, in this order:
# $ORACLE_PYTHON, python3.12, python3.13 on PATH, pyenv's versions, /usr/bin/python3.1[23],
# python3 if it is new enough. Nothing of the package is copied into the project: it is installed
# into the venv and imported from there; our engine is put on sys.path by the runner.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${1:-$ROOT/var/oracle-venv}"
PACKAGE="schnapsen==0.0.5"

tried=()
ok_python() {
  # $1: a candidate interpreter; succeeds when it runs and is 3.12 or 3.13
  "$1" -c 'import sys; sys.exit(0 if (3, 12) <= sys.version_info[:2] <= (3, 13) else 1)' 2>/dev/null
}
find_python() {
  local candidates=()
  [[ -n "${ORACLE_PYTHON:-}" ]] && candidates+=("$ORACLE_PYTHON")
  candidates+=(python3.12 python3.13)
  local pyenv_root
  pyenv_root="$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"
  for v in "$pyenv_root"/versions/3.12* "$pyenv_root"/versions/3.13*; do
    [[ -x "$v/bin/python3" ]] && candidates+=("$v/bin/python3")
  done
  candidates+=(/usr/bin/python3.12 /usr/bin/python3.13 python3)
  for c in "${candidates[@]}"; do
    tried+=("$c")
    if command -v "$c" >/dev/null 2>&1 && ok_python "$c"; then
      PY="$(command -v "$c")"
      return 0
    fi
  done
  return 1
}

if [[ -x "$VENV/bin/python" ]] && "$VENV/bin/python" -c 'import schnapsen.game' 2>/dev/null; then
  echo "oracle venv ready: $VENV"
  exit 0
fi

PY=""
if ! find_python; then
  echo "no Python 3.12/3.13 interpreter found for the oracle venv; tried: ${tried[*]}" >&2
  exit 1
fi
echo "building oracle venv at $VENV with $PY ($("$PY" --version 2>&1))"
rm -rf "$VENV"
mkdir -p "$(dirname "$VENV")"
# uv: the one bin/_env.sh's ensure_env chose (.ci/run runs it first), else the machine's: 1 s with
# its cache warm, where pip took 16 s.
UV="${SNAPLEAGUE_UV:-$(command -v uv || true)}"
if [[ -n "$UV" ]]; then
  UV_PYTHON_DOWNLOADS=never "$UV" venv --quiet --python "$PY" "$VENV"
  UV_PYTHON_DOWNLOADS=never "$UV" pip install --quiet --python "$VENV/bin/python" "$PACKAGE"
else
  "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet "$PACKAGE"
fi
"$VENV/bin/python" -c 'import schnapsen.game' 
echo "oracle venv ready: $VENV"
