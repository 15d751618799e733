"""Live pages by push: the ``/ws/live/`` socket through the whole ASGI stack (origin check, session,
consumer) and the process's version watcher, with Channels' WebsocketCommunicator.

Every message type and every error frame; the draft rule; what a result, a correction and stored
standings push. The watcher reads in a thread of its own, so these tests commit
(``transaction=True``) and share one connection on SQLite's in-memory database
(``one_connection_for_all_threads``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import OperationalError, connection
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from snapleague.asgi import application
from tests.conftest import record_result, snap_win, snapszer_win
from tests.tournaments.live_sockets import (
    LIVE_TESTS,
    ORIGIN,
    ask,
    opened,
    run,
    session,
    still_answers,
    until_version,
)
from tournaments.competitions.selectors.series import series_version_get
from tournaments.competitions.selectors.standings import stage_version_get
from tournaments.live import consumers
from tournaments.live import watcher as watcher_module
from tournaments.live.selectors import series_versions, stage_versions, topic_state_get
from tournaments.live.topics import Topic, TopicKind, parse_topic
from tournaments.live.watcher import _read, get_watcher
from tournaments.models import Player, Series, Stage, StageFormat, Tournament

pytestmark = LIVE_TESTS


def topics(series: Series) -> tuple[str, str]:
    return f"stage:{series.stage_id}", f"series:{series.pk}"


async def record_game_1(referee: Any, series: Series, players: list[Player]) -> None:
    """From the scenario: the referee records game 1 of the table (Anna wins)."""
    await sync_to_async(record_result)(
        user=referee, series_id=series.pk, game_number=1, result=snap_win(*players[:4])
    )


# --- The socket is the site's own ---------------------------------------------------------------


def test_a_socket_from_another_sites_page_is_refused() -> None:
    async def scenario() -> None:
        host = (b"host", b"testserver")
        refused = (b"http://evil.example", b"null", b"http://testserver:8001", b"https://testserver")
        for headers in ([(b"origin", origin), host] for origin in refused):
            communicator = WebsocketCommunicator(application, "/ws/live/", headers=headers)
            connected, _ = await communicator.connect()
            assert not connected, headers
        for headers in ([host], [(b"origin", b"http://testserver")]):  # no Origin, no Host
            communicator = WebsocketCommunicator(application, "/ws/live/", headers=headers)
            assert not (await communicator.connect())[0], headers
        for own, at in (
            (b"http://testserver", b"testserver"),
            (b"http://127.0.0.1:8000", b"127.0.0.1:8000"),
            (b"http://localhost:9000", b"localhost:9000"),
        ):
            communicator = await opened((b"origin", own), (b"host", at))
            await communicator.disconnect()

    run(scenario)


# --- Every message type -------------------------------------------------------------------------


def test_ping_is_answered_with_pong() -> None:
    async def scenario() -> None:
        communicator = await opened()
        await still_answers(communicator)
        await communicator.disconnect()

    run(scenario)


def test_a_subscriber_is_told_the_version_then_each_result_and_the_standings(
    table: Series, players: list[Player], referee: Any
) -> None:
    series = table
    stage_topic, series_topic = topics(series)

    async def scenario() -> None:
        communicator = await opened()
        assert await ask(communicator, {"type": "subscribe", "topic": stage_topic}) == {
            "type": "subscribed",
            "topic": stage_topic,
            "version": "0.0",
        }
        assert await ask(communicator, {"type": "subscribe", "topic": series_topic}) == {
            "type": "subscribed",
            "topic": series_topic,
            "version": "0",
        }
        # A result (the standings follow on commit: Celery runs eagerly here).
        await record_game_1(referee, series, players)
        pushed: dict[str, str] = {}
        while pushed != {stage_topic: "1.1", series_topic: "1"}:
            frame = await communicator.receive_json_from(timeout=10)
            assert frame["type"] == "changed", frame
            pushed[frame["topic"]] = frame["version"]
        assert await communicator.receive_nothing(timeout=0.2)  # nothing more moved
        await communicator.disconnect()

    run(scenario)


def test_a_correction_that_voids_a_later_game_is_pushed(
    recorded_wrongly: Series, players: list[Player], organiser: Any
) -> None:
    """test_void.py's scenario: Bence, Anna (wrongly), Bence; game 2 corrected to Bence decides the
    series 2-0, so game 3 gets a void version. Two new versions: the series page's version 3 -> 5."""
    anna, bence = players[:2]
    series = recorded_wrongly
    topic = f"series:{series.pk}"
    one_connection = connection.vendor == "sqlite" and connection.is_in_memory_db()

    async def scenario() -> None:
        communicator = await opened()
        assert (await ask(communicator, {"type": "subscribe", "topic": topic}))["version"] == "3"
        await sync_to_async(record_result)(
            user=organiser,
            series_id=series.pk,
            game_number=2,
            result=snapszer_win(bence, anna, 4),
            expected_version=1,
            reason="Bence won game 2",
            void_later_games=True,
        )
        pushed = await until_version(communicator, topic, "5")
        # 3 -> 5 in one transaction. (On SQLite's in-memory database the watcher shares this
        # thread's connection, so it may read inside the transaction, between its two rows.)
        assert pushed in (["5"], ["4", "5"]) if one_connection else pushed == ["5"]
        await communicator.disconnect()

    run(scenario)


def test_unsubscribe_stops_the_pushes_of_that_topic_only(
    table: Series, players: list[Player], referee: Any
) -> None:
    series = table
    stage_topic, series_topic = topics(series)

    async def scenario() -> None:
        communicator = await opened()
        await ask(communicator, {"type": "subscribe", "topic": stage_topic})
        await ask(communicator, {"type": "subscribe", "topic": series_topic})
        assert await ask(communicator, {"type": "unsubscribe", "topic": stage_topic}) == {
            "type": "unsubscribed",
            "topic": stage_topic,
        }
        await record_game_1(referee, series, players)
        assert await until_version(communicator, series_topic, "1") == ["1"]
        assert await communicator.receive_nothing(timeout=0.3)  # no stage:… frame
        await communicator.disconnect()

    run(scenario)


def test_a_subscribe_after_a_change_answers_the_new_version_at_once(
    table: Series, players: list[Player], referee: Any
) -> None:
    """The page was rendered at 0.0; by the time its socket subscribes, a result is in: the answer
    carries the new version, so the page catches up without waiting for a push."""
    series = table
    record_result(user=referee, series_id=series.pk, game_number=1, result=snap_win(*players[:4]))

    async def scenario() -> None:
        communicator = await opened()
        answer = await ask(communicator, {"type": "subscribe", "topic": f"stage:{series.stage_id}"})
        assert answer["version"] == "1.1"
        await communicator.disconnect()

    run(scenario)


def test_subscribing_twice_is_one_subscription(table: Series, players: list[Player], referee: Any) -> None:
    series = table
    topic = f"series:{series.pk}"

    async def scenario() -> None:
        communicator = await opened()
        for _ in range(2):
            assert (await ask(communicator, {"type": "subscribe", "topic": topic}))["type"] == "subscribed"
        assert get_watcher().topics == {Topic(TopicKind.SERIES, series.pk)}
        await record_game_1(referee, series, players)
        assert await until_version(communicator, topic, "1") == ["1"]  # once, not twice
        assert await communicator.receive_nothing(timeout=0.3)
        await ask(communicator, {"type": "unsubscribe", "topic": topic})
        assert get_watcher().topics == frozenset()
        await communicator.disconnect()

    run(scenario)


# --- Who may follow what ------------------------------------------------------------------------


def test_a_draft_stage_is_followed_only_by_those_who_may_see_it(
    make_tournament: Callable[..., Tournament], organiser: Any, referee: Any, other_referee: Any
) -> None:
    """The draft rule of docs/web.md (selectors.tournaments_visible): a draft without rounds is its
    organisers' and referees' only. Anyone else gets the answer a page gives (not found), and no
    push, while the organiser's socket follows it."""
    tournament = make_tournament()
    assert tournament.status == Tournament.Status.DRAFT
    stage = Stage.objects.create(
        tournament=tournament, order=1, name="League", format=StageFormat.ROUND_ROBIN
    )
    topic = f"stage:{stage.pk}"

    cookies = {user: session(user) for user in (organiser, referee, other_referee)}

    async def scenario() -> None:
        outsiders = [await opened(), await opened(cookies[other_referee])]
        for outsider in outsiders:
            answer = await ask(outsider, {"type": "subscribe", "topic": topic})
            assert answer == {
                "type": "error",
                "code": "stage_not_found",
                "message": "No such stage.",
                "topic": topic,
            }
        insiders = [await opened(cookies[organiser]), await opened(cookies[referee])]
        for insider in insiders:
            assert (await ask(insider, {"type": "subscribe", "topic": topic}))["version"] == "0.0"
        await sync_to_async(Stage.objects.filter(pk=stage.pk).update)(results_version=1)
        for insider in insiders:
            assert await until_version(insider, topic, "1.0") == ["1.0"]
        for outsider in outsiders:
            assert await outsider.receive_nothing(timeout=0.3)
            await still_answers(outsider)
        for communicator in outsiders + insiders:
            await communicator.disconnect()

    run(scenario)


def test_a_topic_that_does_not_exist_is_not_found(make_series: Callable[..., Series], players: list) -> None:
    series = make_series(players[:2])

    async def scenario() -> None:
        communicator = await opened()
        for topic, code in (
            (f"stage:{series.stage_id + 1000}", "stage_not_found"),
            (f"series:{series.pk + 1000}", "series_not_found"),
        ):
            answer = await ask(communicator, {"type": "subscribe", "topic": topic})
            assert (answer["type"], answer["code"], answer["topic"]) == ("error", code, topic)
        assert get_watcher().topics == frozenset()
        await communicator.disconnect()

    run(scenario)


# --- Error frames: the connection stays, nothing else changes -----------------------------------


MALFORMED = [
    "not json",
    "[1, 2]",
    '"subscribe"',
    "{}",
    '{"type": "shout"}',
    '{"type": "subscribe"}',
    '{"type": "subscribe", "topic": 12}',
    '{"type": "subscribe", "topic": "club:1"}',
    '{"type": "subscribe", "topic": "stage:0"}',
    '{"type": "subscribe", "topic": "stage:012"}',
    '{"type": "subscribe", "topic": "stage:-1"}',
    '{"type": "subscribe", "topic": "stage:١٢"}',  # Arabic-Indic digits are not an id
    '{"type": "subscribe", "topic": " stage:1"}',
    '{"type": "unsubscribe", "topic": "series:x"}',
    "[" * 1000,  # nesting deep enough to exhaust the JSON parser's recursion
]


def test_malformed_frames_get_an_error_frame_and_the_socket_keeps_working(
    table: Series, players: list[Player], referee: Any
) -> None:
    series = table
    topic = f"series:{series.pk}"

    async def scenario() -> None:
        communicator = await opened()
        await ask(communicator, {"type": "subscribe", "topic": topic})
        for frame in MALFORMED:
            answer = await ask(communicator, frame)
            assert (answer["type"], answer["code"]) == ("error", "malformed"), frame
            assert answer["message"].startswith("The server could not read this message")
        await communicator.send_to(bytes_data=b'{"type": "ping"}')
        assert (await communicator.receive_json_from(timeout=5))["code"] == "malformed"
        await communicator.send_input({"type": "websocket.receive", "text": ""})  # an empty frame
        assert (await communicator.receive_json_from(timeout=5))["code"] == "malformed"
        # The subscription made before is untouched.
        await record_game_1(referee, series, players)
        assert await until_version(communicator, topic, "1") == ["1"]
        await communicator.disconnect()

    run(scenario)


def test_an_oversized_frame_gets_an_error_frame() -> None:
    async def scenario() -> None:
        communicator = await opened()
        frame = json.dumps({"type": "ping", "padding": "x" * consumers.MAX_MESSAGE_CHARS})
        answer = await ask(communicator, frame)
        assert (answer["code"], answer["message"]) == (
            "too_large",
            "This message is too long: at most 1024 characters.",
        )
        await still_answers(communicator)
        await communicator.disconnect()

    run(scenario)


def test_a_connection_follows_a_bounded_number_of_topics(
    monkeypatch: pytest.MonkeyPatch, make_series: Callable[..., Series], players: list[Player]
) -> None:
    monkeypatch.setattr(consumers, "MAX_TOPICS", 2)
    series = make_series(players[:2])
    other = make_series(players[2:4])

    async def scenario() -> None:
        communicator = await opened()
        for topic in (f"series:{series.pk}", f"series:{other.pk}"):
            assert (await ask(communicator, {"type": "subscribe", "topic": topic}))["type"] == "subscribed"
        third = f"stage:{series.stage_id}"
        answer = await ask(communicator, {"type": "subscribe", "topic": third})
        assert (answer["code"], answer["topic"]) == ("too_many_topics", third)
        assert answer["message"] == "A page can follow at most 2 things at once."
        # Following one again is not one more; leaving one makes room.
        assert (await ask(communicator, {"type": "subscribe", "topic": f"series:{series.pk}"}))[
            "type"
        ] == "subscribed"
        await ask(communicator, {"type": "unsubscribe", "topic": f"series:{other.pk}"})
        assert (await ask(communicator, {"type": "subscribe", "topic": third}))["type"] == "subscribed"
        await communicator.disconnect()

    run(scenario)


def test_a_flooding_socket_is_told_once_and_does_not_disturb_another(
    monkeypatch: pytest.MonkeyPatch, table: Series, players: list[Player], referee: Any
) -> None:
    monkeypatch.setattr(consumers, "BURST", 5)
    monkeypatch.setattr(consumers, "REFILL_PER_SECOND", 0.001)
    series = table
    topic = f"series:{series.pk}"

    async def scenario() -> None:
        flood, calm = await opened(), await opened()
        await ask(calm, {"type": "subscribe", "topic": topic})
        for _ in range(4):
            await flood.send_to(text_data='{"type": "ping"}')
        for _ in range(50):
            await flood.send_to(text_data='{"type": "subscribe", "topic": "stage:1"}')
        answers = [await flood.receive_json_from(timeout=5) for _ in range(5)]
        assert answers[:4] == [{"type": "pong"}] * 4
        assert answers[4]["code"] == "stage_not_found"  # the fifth frame was still allowed
        flooding = await flood.receive_json_from(timeout=5)
        assert (flooding["code"], flooding["message"]) == (
            "flooding",
            "Too many messages: wait a few seconds before sending more.",
        )
        assert await flood.receive_nothing(timeout=0.3)  # the rest dropped unread, unanswered
        await still_answers(calm)
        await record_game_1(referee, series, players)
        assert await until_version(calm, topic, "1") == ["1"]
        await flood.disconnect()
        await calm.disconnect()

    run(scenario)


def test_a_database_failure_on_subscribe_is_unavailable_and_the_socket_keeps_working(
    monkeypatch: pytest.MonkeyPatch, make_series: Callable[..., Series], players: list[Player]
) -> None:
    series = make_series(players[:2])
    topic = f"series:{series.pk}"
    real = consumers.topic_state_get

    def failing(**kwargs: Any) -> Any:
        raise OperationalError("the database went away")

    async def scenario() -> None:
        communicator = await opened()
        monkeypatch.setattr(consumers, "topic_state_get", failing)
        answer = await ask(communicator, {"type": "subscribe", "topic": topic})
        assert (answer["code"], answer["topic"]) == ("unavailable", topic)
        assert answer["message"].startswith("Live updates are unavailable at the moment")
        assert get_watcher().topics == frozenset()  # not followed: that page keeps polling
        monkeypatch.setattr(consumers, "topic_state_get", real)
        assert (await ask(communicator, {"type": "subscribe", "topic": topic}))["type"] == "subscribed"
        await communicator.disconnect()

    run(scenario)


def test_error_messages_are_in_the_visitors_language(hu_catalogue: None) -> None:
    async def scenario() -> None:
        cookie = f"{settings.LANGUAGE_COOKIE_NAME}=hu".encode()  # the footer switcher's cookie
        for headers in ([ORIGIN, (b"accept-language", b"hu")], [ORIGIN, (b"cookie", cookie)]):
            communicator = await opened(*headers)
            assert (await ask(communicator, "?"))["message"].startswith("[hu] The server could not read")
            answer = await ask(communicator, {"type": "subscribe", "topic": "stage:999999"})
            assert answer["message"] == "[hu] No such stage."
            await communicator.disconnect()

    run(scenario)


def test_every_live_error_code_has_a_message() -> None:
    assert set(consumers.ERROR_MESSAGES) == set(consumers.LiveErrorCode)


@hypothesis_settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    frames=st.lists(
        st.one_of(
            st.text(min_size=1, max_size=60),
            st.from_regex(
                r'\{"type": ?"(subscribe|unsubscribe|ping|pong)", ?"topic": ?"(stage|series|x):-?[0-9]{0,4}"\}',
                fullmatch=True,
            ),
            st.recursive(
                st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                lambda inner: (
                    st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["type", "topic", "x"]), inner, max_size=3)
                ),
                max_leaves=8,
            ).map(json.dumps),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_fuzz_any_frame_gets_one_answer_and_the_socket_survives(frames: list[str]) -> None:
    async def scenario() -> None:
        communicator = await opened()
        for frame in frames:
            answer = await ask(communicator, frame)
            assert answer["type"] in {"error", "pong", "subscribed", "unsubscribed"}, answer
            if answer["type"] == "error":
                assert answer["code"] in {"malformed", "too_large", "stage_not_found", "series_not_found"}
                assert answer["message"]
        await still_answers(communicator)
        await communicator.disconnect()
        assert get_watcher().topics == frozenset()

    run(scenario)


# --- The watcher --------------------------------------------------------------------------------


def test_the_watcher_stops_when_the_last_follower_leaves(
    make_series: Callable[..., Series], players: list
) -> None:
    series = make_series(players[:2])

    async def scenario() -> None:
        first, second = await opened(), await opened()
        for communicator in (first, second):
            await ask(communicator, {"type": "subscribe", "topic": f"series:{series.pk}"})
        watcher = get_watcher()
        assert watcher.running and watcher.topics == {Topic(TopicKind.SERIES, series.pk)}
        await first.disconnect()
        assert watcher.topics == {Topic(TopicKind.SERIES, series.pk)}
        await second.disconnect()
        assert watcher.topics == frozenset()
        for _ in range(50):
            if not watcher.running:
                break
            await asyncio.sleep(0.02)
        assert not watcher.running

    run(scenario)


def test_a_failed_reading_is_logged_once_and_the_change_is_pushed_on_the_next_good_one(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    table: Series,
    players: list[Player],
    referee: Any,
) -> None:
    series = table
    topic = f"series:{series.pk}"
    real_read = watcher_module._read
    failing = {"on": False}

    def read(*args: Any) -> Any:
        if failing["on"]:
            raise OperationalError("the database went away")
        return real_read(*args)

    monkeypatch.setattr(watcher_module, "_read", read)

    async def scenario() -> None:
        communicator = await opened()
        await ask(communicator, {"type": "subscribe", "topic": topic})
        failing["on"] = True
        await record_game_1(referee, series, players)
        assert await communicator.receive_nothing(timeout=0.3)  # several ticks fail meanwhile
        failing["on"] = False
        assert await until_version(communicator, topic, "1") == ["1"]
        await communicator.disconnect()

    with caplog.at_level(logging.WARNING, logger="tournaments.live.watcher"):
        run(scenario)
    messages = [r.getMessage() for r in caplog.records if r.name == "tournaments.live.watcher"]
    assert messages == [
        "Live updates: the version watcher cannot read the database.",
        "Live updates: the version watcher reads the database again.",
    ]


def test_a_tick_reads_the_stages_in_one_query_and_counts_a_series_only_when_its_stage_moved(
    make_series: Callable[..., Series], players: list[Player], referee: Any, django_assert_num_queries: Any
) -> None:
    one, two = make_series(players[:2]), make_series(players[2:4])
    stage_ids = {one.stage_id, two.stage_id}
    with django_assert_num_queries(1):
        reading = _read(stage_ids, {one.pk: (one.stage_id, 0)})  # counted at 0, the stage is at 0
    assert reading.series == {}
    record_result(user=referee, series_id=one.pk, game_number=1, result=snap_win(*players[:2]))
    with django_assert_num_queries(2):
        reading = _read(stage_ids, {one.pk: (one.stage_id, 0), two.pk: (two.stage_id, 0)})
    assert reading.series == {one.pk: 1}  # two's stage did not move: not counted
    assert str(reading.stages[one.stage_id]) == "1.1"


def test_the_pushed_versions_are_the_ones_the_pages_and_their_pollers_show(
    table: Series, players: list[Player], referee: Any
) -> None:
    series = table
    record_result(user=referee, series_id=series.pk, game_number=1, result=snap_win(*players[:4]))
    Stage.objects.filter(pk=series.stage_id).update(results_version=2)  # a result in, standings behind
    anyone = Client().get("/").wsgi_request.user
    assert str(stage_versions(stage_ids=[series.stage_id])[series.stage_id]) == "2.1"
    assert stage_version_get(user=anyone, stage_id=series.stage_id) == "2.1"
    assert series_versions(series_ids=[series.pk]) == {series.pk: 1}
    assert str(series_version_get(user=anyone, series_id=series.pk)) == "1"
    pages = {
        f"stage:{series.stage_id}": f"/stages/{series.stage_id}/standings/",
        f"series:{series.pk}": f"/series/{series.pk}/",
    }
    for (topic, url), version in zip(pages.items(), ["2.1", "1"], strict=True):
        parsed = parse_topic(topic)
        assert parsed is not None
        assert topic_state_get(user=anyone, topic=parsed).version == version
        assert f'data-version="{version}" data-live-topic="{topic}"' in Client().get(url).content.decode()
