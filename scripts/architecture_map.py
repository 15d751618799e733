"""Draw the package map of docs/architecture.md from the code's imports, as an SVG.

    .venv/bin/python -m scripts.architecture_map [docs/architecture.svg]

Reads every import of ``games``, ``tournaments`` and ``snapleague`` with grimp (the graph
import-linter builds), folds the modules into packages (``games.engine``, ``games.online``, the rest
of ``games``; each subpackage of ``tournaments``, its pure flat modules, the rest of its core;
``snapleague``), and draws one arrow per pair of packages that import each other, pointing from the
importer to the imported. An arrow is red when one of its imports breaks a ``forbidden`` contract
of pyproject.toml's ``[tool.importlinter]`` (the imports listed there as debt); grey otherwise. The
packages stand in tiers, the allowed direction being downwards. Migrations are left out.

Pure Python: no graphviz; the same code gives the same bytes (tests/test_architecture_map.py checks
that the committed SVG is the one the code draws).
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass
from html import escape
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "docs" / "architecture.svg"
ROOTS = ("games", "tournaments", "snapleague")
CORE = "tournaments (kernel)"
GAMES_REST = "games (rest)"
# Top to bottom: the allowed direction of imports is downwards (an arrow going up is suspect, a red
# one breaks a contract). Each concern package of ``tournaments`` is a box (its pure modules, which
# the ``tournaments-pure`` contract keeps free of Django, fold into it). snapleague stands at the
# bottom: every app takes its errors and its "who is asking" from it; its URL conf and ASGI routing,
# which mount the apps, are its arrows going up. A concern package found in the code but missing here
# goes in the top tier.
TIERS: list[list[str]] = [
    [
        "tournaments.integrations",
        "tournaments.nights",
        "tournaments.rankings",
        "tournaments.live",
    ],
    ["tournaments.competitions"],
    ["tournaments.clubs", CORE],
    [GAMES_REST, "games.online"],
    ["games.engine", "snapleague"],
]
PURE = {"games.engine"}
# What each box says under its name.
NOTES = {
    "snapleague": "errors, users; settings, URLs, ASGI",
    CORE: "models, access, audit, tasks, URL confs",
    "tournaments.clubs": "clubs, people, claims",
    "tournaments.competitions": "stages, formats, series, results",
    "tournaments.nights": "club nights, check-in",
    "tournaments.rankings": "ratings, seasons, ladders",
    "tournaments.integrations": "webhooks, tokens, exports, iCal",
    "tournaments.live": "live pages by push",
    GAMES_REST: "models, api, views, hand entry",
    "games.online": "owner, tables, services, series",
    "games.engine": "Snap, Snapszer: pure engines",
}
FOLDED_AWAY = {"migrations"}
GAMES_OWN = {"engine", "online"}
KERNEL_FOLDERS = {"templatetags", "management"}

WIDTH, TIER_HEIGHT, BOX_W, BOX_H, TOP = 1280, 135, 190, 46, 150


def _contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return list(config["tool"]["importlinter"]["contracts"])


def package_of(module: str) -> str | None:
    """The map's package a module belongs to (None: left out of the map)."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in FOLDED_AWAY:
        return None
    if parts[0] == "games":
        return f"games.{parts[1]}" if len(parts) > 1 and parts[1] in GAMES_OWN else GAMES_REST
    if parts[0] == "tournaments":
        if len(parts) > 1 and parts[1] not in KERNEL_FOLDERS and (ROOT / "tournaments" / parts[1]).is_dir():
            return f"tournaments.{parts[1]}"
        return CORE
    return parts[0]


def _expression(pattern: str) -> re.Pattern[str]:
    """import-linter's module expression (``*`` one part, ``**`` one or more), with descendants."""
    parts = []
    for part in pattern.split("."):
        parts.append({"*": r"[^.]+", "**": r"[^.]+(?:\.[^.]+)*"}.get(part, re.escape(part)))
    return re.compile(r"\.".join(parts) + r"(?:\..+)?")


def breaks_contract(importer: str, imported: str) -> bool:
    """Whether this direct import is one a forbidden contract refuses (ignore lists not applied)."""
    for contract in _CONTRACTS:
        if contract["type"] != "forbidden":
            continue
        sources = [_expression(m) for m in contract["source_modules"]]
        forbidden = [_expression(m) for m in contract["forbidden_modules"]]
        if any(s.fullmatch(importer) for s in sources) and any(f.fullmatch(imported) for f in forbidden):
            return True
    return False


_CONTRACTS = _contracts()


@dataclass(frozen=True)
class Edge:
    importer: str
    imported: str
    breaks: bool


def package_edges() -> tuple[list[str], list[Edge]]:
    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph(*ROOTS, cache_dir=None)
    broken: dict[tuple[str, str], bool] = {}
    packages: set[str] = set()
    for importer in sorted(graph.modules):
        source = package_of(importer)
        if source is None:
            continue
        packages.add(source)
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            target = package_of(imported)
            if target is None or target == source:
                continue
            key = (source, target)
            broken[key] = broken.get(key, False) or breaks_contract(importer, imported)
    edges = [Edge(a, b, flag) for (a, b), flag in sorted(broken.items())]
    return sorted(packages), edges


def _positions(packages: list[str]) -> dict[str, tuple[float, float]]:
    tiers = [[p for p in tier if p in packages] for tier in TIERS]
    placed = {p for tier in tiers for p in tier}
    tiers[0] += [p for p in packages if p not in placed]
    where: dict[str, tuple[float, float]] = {}
    for row, tier in enumerate(tiers):
        step = WIDTH / (len(tier) + 1)
        for column, name in enumerate(tier):
            where[name] = (round(step * (column + 1), 1), TOP + row * TIER_HEIGHT)
    return where


def _anchor(centre: tuple[float, float], towards: tuple[float, float]) -> tuple[float, float]:
    """Where the line from a box's centre towards a point leaves the box."""
    (x, y), (tx, ty) = centre, towards
    dx, dy = tx - x, ty - y
    if dx == 0 and dy == 0:
        return x, y
    scale = min(
        (BOX_W / 2) / abs(dx) if dx else float("inf"),
        (BOX_H / 2 + 3) / abs(dy) if dy else float("inf"),
    )
    return round(x + dx * scale, 1), round(y + dy * scale, 1)


def draw(packages: list[str], edges: list[Edge]) -> str:
    where = _positions(packages)
    height = TOP + (len(TIERS) - 1) * TIER_HEIGHT + BOX_H
    red = sum(edge.breaks for edge in edges)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}"'
        ' font-family="DejaVu Sans, Arial, sans-serif" role="img" aria-labelledby="map-title">',
        '<title id="map-title">snapleague: packages and the imports between them</title>',
        "<defs>",
        '<marker id="arrow-grey" viewBox="0 0 10 10" refX="10" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9"'
        ' orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#8a8f98"/></marker>',
        '<marker id="arrow-red" viewBox="0 0 10 10" refX="10" refY="5" markerUnits="userSpaceOnUse" markerWidth="12" markerHeight="12"'
        ' orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c62828"/></marker>',
        "</defs>",
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        '<text x="20" y="30" font-size="18" font-weight="bold">snapleague: who imports whom'
        " (drawn by scripts/architecture_map.py)</text>",
        '<text x="20" y="54" font-size="13" fill="#444">Arrows point from the importer to the imported;'
        " allowed imports run downwards. Grey: allowed. Green boxes: pure (no Django, clock or randomness).</text>",
        f'<text x="20" y="74" font-size="13" fill="#c62828" font-weight="bold">Red: breaks a contract ({red}'
        " package pairs; each import is listed as debt in pyproject.toml [tool.importlinter]).</text>",
    ]
    # Red last, so they stay on top.
    for edge in sorted(edges, key=lambda e: (e.breaks, e.importer, e.imported)):
        start, end = where[edge.importer], where[edge.imported]
        # Arrows between two packages of one tier bow upwards, so they clear the boxes between them.
        bow = -0.55 * TIER_HEIGHT if start[1] == end[1] else 0.0
        control = (round((start[0] + end[0]) / 2, 1), round((start[1] + end[1]) / 2 + bow, 1))
        a, b = _anchor(start, control), _anchor(end, control)
        colour, marker, width = (
            ("#c62828", "arrow-red", 2.2) if edge.breaks else ("#8a8f98", "arrow-grey", 1.1)
        )
        out.append(
            f'<path d="M{a[0]},{a[1]} Q{control[0]},{control[1]} {b[0]},{b[1]}" fill="none" stroke="{colour}"'
            f' stroke-width="{width}" marker-end="url(#{marker})" opacity="0.85">'
            f"<title>{escape(edge.importer)} imports {escape(edge.imported)}"
            f"{' (breaks a contract)' if edge.breaks else ''}</title></path>"
        )
    for name in packages:
        x, y = where[name]
        fill, stroke = ("#e8f5e9", "#2e7d32") if name in PURE else ("#eef2f8", "#3b5b8c")
        out.append(
            f'<g><rect x="{x - BOX_W / 2}" y="{y - BOX_H / 2}" width="{BOX_W}" height="{BOX_H}" rx="6"'
            f' fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>'
            f'<text x="{x}" y="{y - 3}" font-size="14" font-weight="bold" text-anchor="middle">{escape(name)}</text>'
        )
        if name in NOTES:
            out.append(
                f'<text x="{x}" y="{y + 14}" font-size="10.5" fill="#444" text-anchor="middle">'
                f"{escape(NOTES[name])}</text>"
            )
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render() -> str:
    return draw(*package_edges())


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else SVG
    target.write_text(render())
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
