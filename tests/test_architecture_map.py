"""scripts/architecture_map.py draws the package map from the code's imports, and the committed
docs/architecture.svg is the one it draws today (issue 24 item 6)."""

from __future__ import annotations

import re
import sys

from scripts import architecture_map as amap

REFRESH = ".venv/bin/python -m scripts.architecture_map"


def test_committed_map_is_up_to_date() -> None:
    assert amap.SVG.read_text() == amap.render(), (
        f"docs/architecture.svg is not the map of today's imports: a pair of packages started or stopped "
        f"importing each other. Redraw it and commit it:\n    {REFRESH}"
    )


def test_the_map_has_the_packages_and_the_red_arrows() -> None:
    packages, edges = amap.package_edges()
    for name in ("games.engine", "games.online", "games (rest)", "tournaments (kernel)", "snapleague"):
        assert name in packages
    concerns = {"clubs", "competitions", "nights", "rankings", "integrations"}
    assert {f"tournaments.{c}" for c in concerns} <= set(packages)
    red = {(e.importer, e.imported) for e in edges if e.breaks}
    # No debt left (pyproject.toml excuses no import): nothing is red today. What would be, is
    # test_contract_matching_follows_import_linter_expressions below.
    assert red == set()
    assert amap.breaks_contract("snapleague.views", "tournaments.models")
    # Allowed directions are grey: the apps use the engines and the project package.
    grey = {(e.importer, e.imported) for e in edges if not e.breaks}
    assert ("games.online", "games.engine") in grey
    assert ("tournaments (kernel)", "snapleague") in grey
    assert ("tournaments.rankings", "tournaments.competitions") in grey
    assert not any(e.importer == "games.engine" for e in edges)
    svg = amap.draw(packages, edges)
    assert svg.startswith("<svg ") and svg.endswith("</svg>\n")
    assert len(re.findall(r'stroke="#c62828"', svg)) == len(red)
    assert svg.count("marker-end=") == len(edges)


def test_contract_matching_follows_import_linter_expressions() -> None:
    assert amap.breaks_contract("games.online.series", "tournaments.models")
    assert amap.breaks_contract("games.engine.snap.rules", "snapleague.errors")
    assert amap.breaks_contract(
        "snapleague.views", "tournaments.integrations.webhooks.models"
    )  # tournaments.**.models
    assert not amap.breaks_contract("snapleague.views", "tournaments.integrations.webhooks.selectors")
    assert not amap.breaks_contract("tournaments.competitions.services", "games.models")
    assert not amap.breaks_contract("games.online.series", "games.engine.protocol")


def test_modules_fold_into_the_map_packages() -> None:
    assert amap.package_of("games.engine.snap.rules") == "games.engine"
    assert amap.package_of("games.snap_stats.selectors") == "games (rest)"
    assert amap.package_of("tournaments.competitions.standings") == "tournaments.competitions"
    assert amap.package_of("tournaments.competitions.results.values") == "tournaments.competitions"
    assert amap.package_of("tournaments.urls") == "tournaments (kernel)"
    assert amap.package_of("tournaments.templatetags.league") == "tournaments (kernel)"
    assert amap.package_of("tournaments.migrations.0001_initial") is None
    assert str(amap.ROOT) in sys.path
