"""The Snap simulator's command line: a few games through ``main``."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from games.cli.snap_simulate import histogram_svg, main, percentile


def test_main_prints_the_issue_figures_and_writes_the_histogram(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = tmp_path / "lengths.svg"
    code = main(
        [
            "--players",
            "3",
            "--games",
            "4",
            "--level",
            "club",
            "--seed",
            "2",
            "--svg",
            str(svg),
            "--no-progress",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    for heading in ("wins by seat", "how games ended", "tie rate", "wrong-call rate", "game length in flips"):
        assert heading in out
    wins = [float(x) for x in re.findall(r"\d: ([\d.]+)%", out.split("wins by seat:")[1].splitlines()[0])]
    draws = float(re.search(r"drawn games: ([\d.]+)%", out).group(1))  # type: ignore[union-attr]
    assert sum(wins) + draws == pytest.approx(100, abs=0.2)  # every game has a winner or is a draw
    endings = re.findall(r"([\d.]+)%", out.split("how games ended:")[1].splitlines()[0])
    assert sum(float(x) for x in endings) == pytest.approx(100, abs=0.2)
    root = ET.parse(svg).getroot()
    bars = [
        el
        for el in root.iter("{http://www.w3.org/2000/svg}rect")
        if el.find("{http://www.w3.org/2000/svg}title") is not None
    ]
    counts = [int(el.find("{http://www.w3.org/2000/svg}title").text.split(": ")[1]) for el in bars]  # type: ignore[union-attr]
    assert sum(counts) == 4  # one count per game


def test_percentile_is_nearest_rank() -> None:
    values = list(range(1, 11))
    assert [percentile(values, q) for q in (50, 90, 99, 100)] == [5, 9, 10, 10]


def test_histogram_bins_every_value_once() -> None:
    text = histogram_svg([0, 1, 1, 59, 60, 61, 300], "t & <x>")
    assert "t &amp; &lt;x&gt;" in text
    titles = re.findall(r"<title>(\d+)-(\d+): (\d+)</title>", text)
    assert sum(int(c) for _lo, _hi, c in titles) == 7
    assert ET.fromstring(text) is not None
