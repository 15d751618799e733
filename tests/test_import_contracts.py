"""The import contracts (pyproject.toml ``[tool.importlinter]``, run by ``.ci/run`` as ``lint-imports``) bite.

The code is copied (its .py files and pyproject.toml) into a temporary folder; a module that breaks
each contract is added there and ``lint-imports`` must report every one of them. The ignore lists are
a ratchet: an ignored import that no longer exists is an error too, so the list only shrinks.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
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
        env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
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
    # The layers contract: the lowest layer reaching up to the socket.
    with (folder / "games/online/lease.py").open("a") as lease:
        lease.write("\nfrom games.online import consumers  # noqa\n")
    run = _lint(folder)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "0 kept" in run.stdout, run.stdout
    for _, _, contract, line in BREAKERS:
        assert f"{contract}" in run.stdout
        assert line in run.stdout, f"{line!r} not reported:\n{run.stdout}"


def test_a_removed_debt_must_leave_the_ignore_list(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    # snapleague/views.py stops importing tournaments.models (the one debt left): its line in the
    # ignore list now matches nothing.
    views = folder / "snapleague" / "views.py"
    views.write_text(
        "\n".join(line for line in views.read_text().splitlines() if "tournaments.models" not in line)
    )
    run = _lint(folder)
    assert run.returncode != 0
    assert "snapleague.views -> tournaments.models" in run.stdout + run.stderr
