"""The five languages (issue 15): every catalogue holds every message of the code, each translated,
none fuzzy, with the same placeholders as the English; the pages and the engines' messages come out
in the reader's language; the switcher and the browser's language choose it.

A catalogue that lags behind the code fails here: `manage.py messages_update`, translate what is
empty or fuzzy, done (docs/web.md, "Languages").
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings
from django.utils import translation

from snapleague.catalogues import compile_catalogues
from snapleague.management.commands.messages_update import makemessages_options, translated_languages

ROOT = Path(settings.BASE_DIR)
LANGUAGES = translated_languages()
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%[sd]|\{[a-z_0-9]*\}")


def _catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def test_the_five_languages_are_offered() -> None:
    assert [code for code, _name in settings.LANGUAGES] == ["en", "it", "es", "pt", "hu"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(language: str) -> None:
    catalogue = _catalogue(language)
    assert len(catalogue) > 500
    untranslated = [e.msgid for e in catalogue if not e.obsolete and not e.translated()]
    fuzzy = [e.msgid for e in catalogue if "fuzzy" in e.flags and not e.obsolete]
    assert not untranslated, f"{language}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    assert not fuzzy, f"{language}: {len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders_and_no_straight_double_quote(language: str) -> None:
    """A lost or renamed %(name)s breaks the message at run time; a straight double quote breaks the
    JSON the table pages build with {% translate %} (typographic quotes are fine)."""
    problems = []
    for entry in _catalogue(language):
        if entry.obsolete:
            continue
        pairs = (
            [(entry.msgid, entry.msgstr)]
            if not entry.msgid_plural
            else [(entry.msgid_plural, text) for text in entry.msgstr_plural.values()]
        )
        for english, translated in pairs:
            if not translated:
                continue  # the test above names the untranslated ones
            if sorted(set(PLACEHOLDER.findall(english))) != sorted(set(PLACEHOLDER.findall(translated))):
                problems.append((english, translated))
            if ('"' in translated and '"' not in english) or "\\" in translated:
                problems.append((english, translated))
    assert not problems, f"{language}: {problems[:5]}"


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext's xgettext is not installed")
def test_no_message_of_the_code_is_missing_from_a_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Extract the code's messages afresh (the project's own makemessages options) in a copy of the
    project with empty catalogues, and compare: a message the code has and a catalogue lacks fails."""
    src = tmp_path / "src"
    shutil.copytree(
        ROOT,
        src,
        symlinks=True,
        ignore=shutil.ignore_patterns(
            ".venv", ".oracle-venv", "var", ".git", "locale", "*.pyc", "__pycache__"
        ),
    )
    for language in LANGUAGES:
        (src / "locale" / language / "LC_MESSAGES").mkdir(parents=True)
    monkeypatch.chdir(src)
    with override_settings(LOCALE_PATHS=[src / "locale"]):
        call_command("makemessages", **makemessages_options())
    for language in LANGUAGES:
        fresh = polib.pofile(str(src / "locale" / language / "LC_MESSAGES" / "django.po"))
        have = {(e.msgctxt, e.msgid) for e in _catalogue(language) if not e.obsolete}
        missing = sorted({(e.msgctxt or "", e.msgid) for e in fresh if (e.msgctxt, e.msgid) not in have})
        assert len(fresh) > 500
        assert not missing, f"{language}: {len(missing)} messages missing, e.g. {missing[:5]}"


def test_the_catalogues_compile(tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "locale", locale, ignore=shutil.ignore_patterns("*.mo"))
    written = compile_catalogues(locale)
    assert len(written) == len(LANGUAGES)
    assert compile_catalogues(locale) == []  # nothing changed: nothing rewritten


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_browsers_language_chooses_the_page_language(language: str) -> None:
    with translation.override(language):
        expected = translation.gettext("Log in")
    assert expected != "Log in"
    page = Client(HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5").get("/").content.decode()
    assert f'<html lang="{language}"' in page
    assert expected in page


@pytest.mark.django_db
def test_the_switcher_sets_the_language_and_returns_to_the_page() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = client.post("/i18n/setlang/", {"language": "hu", "next": "/play/"})
    assert response.status_code == 302 and response.headers["Location"] == "/play/"
    page = client.get("/").content.decode()
    assert '<html lang="hu"' in page and '<option value="hu" lang="hu" selected>Magyar</option>' in page


def test_snapszer_cards_use_the_hungarian_decks_names_and_snap_the_french_ones() -> None:
    from games.card_names import card_names

    with translation.override("hu"):
        snapszer, snap = card_names("snapszer"), card_names("snap")
    assert snapszer["long"]["J"] == "alsó" and snapszer["long"]["Q"] == "felső"
    assert (
        snapszer["long"]["A"] == "ász"
        and snapszer["long"]["10"] == "tízes"
        and snapszer["long"]["K"] == "király"
    )
    assert snapszer["suits"]["H"] == "piros"
    assert snap["long"]["J"] == "bubi"  # a French-suited pack's Jack
