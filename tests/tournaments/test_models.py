"""The models' choices are the pure modules' values: one GameKind, one reading of a series length."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine import protocol
from tournaments.competitions.series.values import SeriesLength, series_length
from tournaments.models import GAME_KIND_CHOICES, GameKind, SeriesFormat, Tournament


def test_the_models_game_kind_is_the_engines() -> None:
    assert GameKind is protocol.GameKind
    assert [value for value, _label in GAME_KIND_CHOICES] == [kind.value for kind in protocol.GameKind]
    assert Tournament._meta.get_field("game").choices == GAME_KIND_CHOICES


def test_game_kinds_have_translated_labels(hu_catalogue: None) -> None:
    with translation.override("hu"):
        assert [str(label) for _value, label in GAME_KIND_CHOICES] == ["[hu] Snap", "[hu] Snapszer"]
    assert Tournament(game=GameKind.SNAPSZER).get_game_display() == "Snapszer"


@pytest.mark.parametrize("choice", SeriesFormat.values)
def test_every_series_format_choice_reads_as_a_series_length(choice: str) -> None:
    length = series_length(choice)
    assert isinstance(length, SeriesLength) and length.code == choice
