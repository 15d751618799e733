"""Template filters that word things for people: placings as ordinals, in the reader's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from tests.hu_catalogue import mo_file
from tournaments.templatetags.league import ordinal_place


@pytest.mark.parametrize(
    ("place", "text"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (22, "22nd"),
        (23, "23rd"),
        (101, "101st"),
        (111, "111th"),
        ("2", "2nd"),
        (None, ""),
    ],
)
def test_placings_read_as_english_ordinals(place: Any, text: str) -> None:
    with translation.override("en"):
        assert ordinal_place(place) == text


def test_placings_follow_the_catalogue_of_the_reader(settings: Any, tmp_path: Path) -> None:
    # A language that writes every ordinal as "n." (Hungarian, German): one message per ending,
    # told apart by context ("ordinal 1", …), so a catalogue can give each its own form.
    contexts = ["ordinal 1", "ordinal 2", "ordinal 3", "ordinal 0, 4-9", "ordinal 11, 12, 13"]
    endings = ["{}st", "{}nd", "{}rd", "{}th", "{}th"]
    catalogue = {f"{c}\x04{e}": "{}." for c, e in zip(contexts, endings, strict=True)}
    catalogue[""] = "Content-Type: text/plain; charset=UTF-8\n"
    folder = tmp_path / "locale" / "hu" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.mo").write_bytes(mo_file(catalogue))
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    try:
        with translation.override("hu"):
            assert [ordinal_place(n) for n in (1, 2, 3, 4, 12, 21)] == ["1.", "2.", "3.", "4.", "12.", "21."]
    finally:
        translation.activate(settings.LANGUAGE_CODE)


def test_every_tiebreak_has_a_column_label_a_meaning_and_a_reason() -> None:
    from tournaments.competitions.standings.chain import Tiebreak
    from tournaments.templatetags.league import TIEBREAKS, WHY_BELOW

    for tiebreak in Tiebreak:
        assert str(tiebreak) in TIEBREAKS and str(tiebreak) in WHY_BELOW, tiebreak
