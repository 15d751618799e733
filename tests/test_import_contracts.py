"""The import contracts (pyproject.toml ``[tool.importlinter]``, run by ``.ci/run`` as ``lint-imports``) bite.

The code is copied (its .py files and pyproject.toml) into a temporary folder; a module that breaks
each contract is added there and ``lint-imports`` must report every one of them. The ignore lists are
a ratchet: an ignored import that no longer exists is an error too, so the list only shrinks.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
# (file to add, its source, the broken contract's name, the import lint-imports names)
BREAKERS = [
    (
        "games/engine/_breaks.py",
        "import django.db\n",
        "The engines import neither",
        "games.engine._breaks -> django",
    ),
    (
        "games/engine/_clock.py",
        "from time import monotonic\n",
        "The engines import neither",
        "games.engine._clock -> time",
    ),
    (
        "games/_breaks.py",
        "from tournaments.competitions import stages\n",
        "games does not import tournaments",
        "games._breaks -> tournaments.competitions.stages",
    ),
    (
        "snapleague/_breaks.py",
        "from games.models import OnlineGame\n",
        "imports no app's models",
        "snapleague._breaks -> games.models",
    ),
    (
        "tournaments/competitions/formats/_breaks.py",
        "import random\n",
        "The pure tournament modules",
        "tournaments.competitions.formats._breaks -> random",
    ),
    (
        "games/online/_breaks.py",
        "",
        "games.online runs one way",
        "games.online.lease -> games.online.consumers",
    ),
]


# (a module of a lower layer, the import added to it): the concern layers, and games.online's.
LAYER_BREAKERS = [
    ("games/online/lease.py", "from games.online import consumers"),
    ("tournaments/nights/models.py", "from tournaments.nights import views"),
    ("tournaments/rankings/ladder/selectors.py", "from tournaments.rankings.ladder import api"),
    ("tournaments/integrations/webhooks/api.py", "from tournaments.integrations.webhooks import views"),
    ("tournaments/clubs/services.py", "from tournaments.clubs import forms"),
]
LAYER_REPORTS = [
    "tournaments.nights.models -> tournaments.nights.views",
    "tournaments.rankings.ladder.selectors -> tournaments.rankings.ladder.api",
    "tournaments.integrations.webhooks.api -> tournaments.integrations.webhooks.views",
    "tournaments.clubs.services -> tournaments.clubs.forms",
]


def _copy(tmp_path: Path) -> Path:
    for package in ("games", "tournaments", "snapleague"):
        shutil.copytree(
            ROOT / package,
            tmp_path / package,
            ignore=lambda folder, names: [
                n
                for n in names
                if (not n.endswith(".py") and not (Path(folder) / n).is_dir()) or n == "__pycache__"
            ],
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _lint(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        check=False,
        cwd=folder,
        env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "COLUMNS": "400"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_code_keeps_every_contract(tmp_path: Path) -> None:
    run = _lint(_copy(tmp_path))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_each_contract_reports_a_new_violation(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    for relative, source, _, _ in BREAKERS:
        (folder / relative).write_text(source)
    # The layers contracts: a lower layer reaching up.
    for relative, line in LAYER_BREAKERS:
        with (folder / relative).open("a") as module:
            module.write(f"\n{line}  # noqa\n")
    run = _lint(folder)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "0 kept" in run.stdout, run.stdout
    for _, _, contract, line in BREAKERS:
        assert f"{contract}" in run.stdout
        assert line in run.stdout, f"{line!r} not reported:\n{run.stdout}"
    assert "Inside each concern" in run.stdout
    for line in LAYER_REPORTS:
        assert line in run.stdout, f"{line!r} not reported:\n{run.stdout}"


def test_no_contract_excuses_an_import() -> None:
    """The last excused import (the home page reading Club directly) is gone: no contract may
    carry an ignore list again; a new exception is a design decision for this file's review."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    assert {c["id"] for c in contracts} >= {
        "engines-pure",
        "games-not-tournaments",
        "project-no-models",
        "tournaments-pure",
        "concern-layers",
        "online-one-direction",
    }
    assert [c["id"] for c in contracts if c.get("ignore_imports")] == []
