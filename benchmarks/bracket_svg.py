"""How fast the bracket page's SVG is drawn (docs/benchmarks.md "Bracket drawing").

Usage: PYTHONPATH=. .venv/bin/python benchmarks/bracket_svg.py [--repeat 5]

Plays each stage through the pure formats with seeded random results (half of a late round left in
play, so live boxes are drawn too), builds the drawing's sections with the test-side adapter
(tests/tournaments/competitions/bracket_boxes.py), then times ``bracket_drawing`` alone (CPU seconds of this
process, median of ``--repeat``: the machine is shared, so wall time is noisy; wall time printed
beside it) and the adapter for scale. Target: well under a second for 1,024 entrants in single
elimination and 256 in double elimination.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import time

from tests.tournaments.competitions import bracket_boxes
from tournaments.competitions.bracket_svg import bracket_drawing
from tournaments.competitions.formats.base import FormatKey

CASES = [
    ("single elimination", FormatKey.SINGLE_ELIMINATION, 1024, {}, 8),
    (
        "single elimination, tables of 4, top 2",
        FormatKey.SINGLE_ELIMINATION,
        1024,
        {"table_size": 4, "advance": 2},
        4,
    ),
    ("double elimination", FormatKey.DOUBLE_ELIMINATION, 256, {}, 10),
    ("double elimination", FormatKey.DOUBLE_ELIMINATION, 1024, {}, 14),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(
        "| stage | entrants | boxes | draw (CPU, median) | draw (wall, median) | adapter | SVG size | gzipped |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, key, entrants, options, rounds in CASES:
        played = bracket_boxes.play(key, entrants, options=dict(options), seed=1, rounds=rounds)
        start = time.process_time()
        sections = bracket_boxes.sections(played)
        adapter = time.process_time() - start
        boxes = sum(len(c.boxes) for s in sections for c in s.columns)
        cpu, wall = [], []
        for _ in range(args.repeat):
            start, start_wall = time.process_time(), time.perf_counter()
            drawing = bracket_drawing(sections, title=name, aria_label=name)
            cpu.append(time.process_time() - start)
            wall.append(time.perf_counter() - start_wall)
        svg = (drawing.header_svg + drawing.body_svg).encode()
        size, packed = len(svg), len(gzip.compress(svg))
        print(
            f"| {name} | {entrants:,} | {boxes:,} | {statistics.median(cpu) * 1000:.0f} ms "
            f"| {statistics.median(wall) * 1000:.0f} ms | {adapter * 1000:.0f} ms | {size / 1024:.0f} KiB | {packed / 1024:.0f} KiB |"
        )


if __name__ == "__main__":
    main()
