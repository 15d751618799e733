#!/usr/bin/env bash
# The oracle step for CI: build the oracle venv if it can be built, then run the 66 engine's
# differential test (a few hundred hands) against the `schnapsen` package.
# Usage: scripts/oracle-check.sh [HANDS]   (default 300). Exits 0 with a note when the venv cannot
# be built here (no suitable Python, no registry), non-zero on any engine/oracle difference.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HANDS="${1:-300}"
if ! bash "$ROOT/scripts/oracle-venv.sh"; then
  echo "oracle venv could not be built: skipping the differential test against schnapsen 0.0.5"
  exit 0
fi
exec "$ROOT/var/oracle-venv/bin/python" "$ROOT/games/cli/sixtysix_oracle.py" --hands "$HANDS"
