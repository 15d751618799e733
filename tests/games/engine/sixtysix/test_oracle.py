"""Differential test against the `schnapsen` package (schnapsen-lite), run in the oracle's venv.

The package cannot share our venv (it pins click==8.1.8), so scripts/oracle-venv.sh builds
var/oracle-venv and this test runs games/cli/sixtysix_oracle.py there as a subprocess.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]
ORACLE_PYTHON = ROOT / "var" / "oracle-venv" / "bin" / "python"


@pytest.mark.oracle
@pytest.mark.skipif(
    not ORACLE_PYTHON.exists(),
    reason="the oracle venv var/oracle-venv does not exist (build it with scripts/oracle-venv.sh)",
)
def test_schnapsen_lite_matches_the_schnapsen_package() -> None:
    run = subprocess.run(
        [
            str(ORACLE_PYTHON),
            str(ROOT / "games" / "cli" / "sixtysix_oracle.py"),
            "--hands",
            "300",
            "--seed",
            "7",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "oracle: 300 hands" in run.stdout and " 0 mismatches" in run.stdout
