"""The live socket carries the fragments a page asked for (issue 27 item 1; tournaments/live/fragments.py).

A follower of a stage may name the fragments its page shows (``standings``, ``stage``); each
"changed" frame then brings them as the page's fetch would answer, in the follower's language,
rendered once for all followers. A draft stage's frames carry none (its followers fetch), and a
subscribe naming anything else is malformed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from tests.conftest import record_result, snap_win
from tests.tournaments.live_sockets import LIVE_TESTS, ORIGIN, ask, opened, run, session, still_answers
from tournaments.live import fragments as live_fragments
from tournaments.models import Player, Series, Stage, StageFormat, Tournament

pytestmark = LIVE_TESTS


FETCHED = {"standings": "/stages/{}/standings/table/", "stage": "/stages/{}/body/"}


async def changed_to(communicator: Any, topic: str, version: str) -> dict[str, Any]:
    """The "changed" frame of ``topic`` that brings ``version`` (fails after 10 s)."""
    while True:
        frame: dict[str, Any] = await communicator.receive_json_from(timeout=10)
        assert frame["type"] == "changed" and frame["topic"] == topic, frame
        if frame["version"] == version:
            return frame


def fetched(name: str, stage_id: int, **headers: str) -> str:
    return Client(**headers).get(FETCHED[name].format(stage_id)).content.decode()


def test_a_changed_frame_carries_the_fragments_the_page_asked_for_as_its_fetch_renders_them(
    settings: Any, table: Series, players: list[Player], referee: Any
) -> None:
    # Rendered afresh by every fetch: the frame must equal a new rendering, not the cached copy.
    settings.FRAGMENT_CACHE_SECONDS = 0
    topic = f"stage:{table.stage_id}"
    frames: list[dict[str, Any]] = []

    async def scenario() -> None:
        asking, plain = await opened(), await opened()
        subscribe = {"type": "subscribe", "topic": topic, "fragments": ["standings", "stage"]}
        assert await ask(asking, subscribe) == {"type": "subscribed", "topic": topic, "version": "0.0"}
        await ask(plain, {"type": "subscribe", "topic": topic})
        await sync_to_async(record_result)(
            user=referee, series_id=table.pk, game_number=1, result=snap_win(*players[:4])
        )
        frames.append(await changed_to(asking, topic, "1.1"))
        frames.append(await changed_to(plain, topic, "1.1"))
        for communicator in (asking, plain):
            await communicator.disconnect()

    run(scenario)
    asked, plain = frames
    assert set(asked["html"]) == {"standings", "stage"}
    for name, html in asked["html"].items():
        assert 'data-version="1.1"' in html, name
        assert html == fetched(name, table.stage_id), name
    assert "Anna" in asked["html"]["standings"]
    assert "html" not in plain  # it did not ask: the frame stays small


def test_each_follower_gets_the_fragment_in_its_own_language(
    table: Series, players: list[Player], referee: Any
) -> None:
    topic = f"stage:{table.stage_id}"
    got: dict[str, str] = {}

    async def scenario() -> None:
        english, hungarian = await opened(), await opened(ORIGIN, (b"accept-language", b"hu"))
        for communicator in (english, hungarian):
            await ask(communicator, {"type": "subscribe", "topic": topic, "fragments": ["standings"]})
        await sync_to_async(record_result)(
            user=referee, series_id=table.pk, game_number=1, result=snap_win(*players[:4])
        )
        got["en"] = (await changed_to(english, topic, "1.1"))["html"]["standings"]
        got["hu"] = (await changed_to(hungarian, topic, "1.1"))["html"]["standings"]
        for communicator in (english, hungarian):
            await communicator.disconnect()

    run(scenario)
    assert got["en"] != got["hu"]
    assert got["en"] == fetched("standings", table.stage_id)
    assert got["hu"] == fetched("standings", table.stage_id, HTTP_ACCEPT_LANGUAGE="hu")
    assert ">Játékos</th>" in got["hu"] and ">Player</th>" in got["en"]  # the real catalogue


def test_a_draft_stages_frames_carry_no_fragment(
    make_tournament: Callable[..., Tournament], organiser: Any
) -> None:
    """Only what anyone may see is rendered for the socket: a draft's organiser is told "changed"
    and fetches the fragment, as before."""
    tournament = make_tournament()
    assert tournament.status == Tournament.Status.DRAFT
    stage = Stage.objects.create(
        tournament=tournament, order=1, name="League", format=StageFormat.ROUND_ROBIN
    )
    topic = f"stage:{stage.pk}"
    cookie = session(organiser)
    frames: list[dict[str, Any]] = []

    async def scenario() -> None:
        communicator = await opened(cookie)
        answer = await ask(communicator, {"type": "subscribe", "topic": topic, "fragments": ["standings"]})
        assert answer["version"] == "0.0"
        await sync_to_async(Stage.objects.filter(pk=stage.pk).update)(results_version=1)
        frames.append(await changed_to(communicator, topic, "1.0"))
        await communicator.disconnect()

    run(scenario)
    assert frames == [{"type": "changed", "topic": topic, "version": "1.0"}]


@pytest.mark.parametrize(
    "fragments",
    [
        "standings",  # not a list
        ["nope"],  # no such fragment
        [{"name": "standings"}],  # not a name
        ["standings"] * (live_fragments.MAX_FRAGMENTS + 1),
    ],
)
def test_a_subscribe_naming_other_fragments_is_malformed(table: Series, fragments: Any) -> None:
    async def scenario() -> None:
        communicator = await opened()
        for topic in (f"stage:{table.stage_id}", f"series:{table.pk}"):
            answer = await ask(communicator, {"type": "subscribe", "topic": topic, "fragments": fragments})
            assert (answer["type"], answer["code"], answer["topic"]) == ("error", "malformed", topic)
        # A series has no fragments to carry.
        topic = f"series:{table.pk}"
        answer = await ask(communicator, {"type": "subscribe", "topic": topic, "fragments": ["standings"]})
        assert (answer["type"], answer["code"]) == ("error", "malformed")
        await still_answers(communicator)
        await communicator.disconnect()

    run(scenario)


def test_fragments_are_rendered_once_per_version_for_all_followers_and_not_after_they_leave(
    monkeypatch: pytest.MonkeyPatch, table: Series, players: list[Player], referee: Any
) -> None:
    topic = f"stage:{table.stage_id}"
    renderings: list[tuple[str, ...]] = []
    real = live_fragments.fragments_render

    def counted(topic_: Any, wanted: frozenset[tuple[str, str]]) -> dict[str, str]:
        renderings.append(tuple(sorted(f"{n}|{lang}" for n, lang in wanted)))
        return real(topic_, wanted)

    monkeypatch.setattr("tournaments.live.watcher.fragments_render", counted)

    async def scenario() -> None:
        followers = [await opened() for _ in range(5)]
        for communicator in followers:
            await ask(communicator, {"type": "subscribe", "topic": topic, "fragments": ["standings"]})
        await sync_to_async(record_result)(
            user=referee, series_id=table.pk, game_number=1, result=snap_win(*players[:4])
        )
        for communicator in followers:
            assert "standings" in (await changed_to(communicator, topic, "1.1"))["html"]
        for communicator in followers[1:]:  # they leave; the last one asks for nothing any more
            await communicator.disconnect()
        await ask(followers[0], {"type": "subscribe", "topic": topic})
        before = len(renderings)
        await sync_to_async(record_result)(
            user=referee, series_id=table.pk, game_number=2, result=snap_win(*players[:4])
        )
        assert "html" not in await changed_to(followers[0], topic, "2.2")
        assert len(renderings) == before
        await followers[0].disconnect()

    run(scenario)
    # One rendering per tick that moved (the result and its standings may land in one or two ticks),
    # never one per follower.
    assert 1 <= len(renderings) <= 2
    assert set(renderings) == {("standings|en",)}


def test_a_fragment_that_fails_to_render_leaves_the_frame_without_it(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    table: Series,
    players: list[Player],
    referee: Any,
) -> None:
    topic = f"stage:{table.stage_id}"

    def broken(name: str, stage_id: int) -> str | None:
        raise RuntimeError("template exploded")

    monkeypatch.setattr(live_fragments, "_renderer", broken)
    frames: list[dict[str, Any]] = []

    async def scenario() -> None:
        communicator = await opened()
        await ask(communicator, {"type": "subscribe", "topic": topic, "fragments": ["standings"]})
        await sync_to_async(record_result)(
            user=referee, series_id=table.pk, game_number=1, result=snap_win(*players[:4])
        )
        frames.append(await changed_to(communicator, topic, "1.1"))
        await communicator.disconnect()

    with caplog.at_level(logging.ERROR, logger="tournaments.live.watcher"):
        run(scenario)
    assert frames == [{"type": "changed", "topic": topic, "version": "1.1"}]
    assert any("could not be rendered" in r.getMessage() for r in caplog.records)
