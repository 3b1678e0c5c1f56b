"""A standings recompute never holds a lock a player's write needs, and still never goes backwards.

Real threads, each with its own connection, on PostgreSQL (under CI=true the server the test command
starts; the tests insist on it). A recompute is held mid-way on one of its signals while the test acts.
On SQLite, one writer at a time, a held recompute would hold every writer: these tests skip there.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.dispatch import Signal
from django.test.utils import CaptureQueriesContext

from battles.models import BattleReport
from battles.services import report_confirm, report_submit
from campaign.models import Battle, BattleStatus, Campaign
from config.celery import app
from standings.models import Standings
from standings.services import standings_recompute
from standings.signals import recompute_computed, recompute_half_written
from tests.races import at_once, require_postgresql
from tests.standings.builders import add_result, populated_campaign
from tests.standings.test_race import from_scratch, stored

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

RECOMPUTE = "standings.tasks.standings_recompute"
PROMPT_S = 10.0  # a write that is not held by anything finishes well within this, even on a busy machine


@pytest.fixture
def postgresql() -> None:
    require_postgresql()
    if connection.vendor != "postgresql":
        pytest.skip("a recompute held mid-way on SQLite holds its one writer lock: PostgreSQL only")


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    """The tasks sent after commit (the tests run the recomputes themselves: no worker)."""
    sent: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(app, "send_task", lambda name, args=(), **_kw: sent.append((name, tuple(args))))
    return sent


_started: list[threading.Thread] = []


@pytest.fixture(autouse=True)
def _joined() -> Iterator[None]:
    """Every thread a test started has ended before its database is emptied, also when the test failed."""
    yield
    while _started:
        _started.pop().join(timeout=90)


class Thread:
    """``call`` in a thread of its own (its own connection, closed at the end); what it returned or raised."""

    def __init__(self, call: Callable[[], Any]) -> None:
        self.answer: Any = None
        self.failure: BaseException | None = None

        def run() -> None:
            try:
                self.answer = call()
            except BaseException as exc:  # reported by the main thread
                self.failure = exc
            finally:
                connection.close()

        self.thread = threading.Thread(target=run)
        self.thread.start()
        _started.append(self.thread)

    def done_within(self, seconds: float) -> bool:
        self.thread.join(timeout=seconds)
        return not self.thread.is_alive()

    def result(self) -> Any:
        assert self.done_within(60), "the thread never finished"
        if self.failure is not None:
            raise self.failure
        return self.answer


class Hold:
    """The first recompute to send ``signal`` waits there until released."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.release = threading.Event()

    def __call__(self, **_kwargs: Any) -> None:
        if not self.reached.is_set():
            self.reached.set()
            self.release.wait(timeout=60)


@contextmanager
def held_at(signal: Signal) -> Iterator[Hold]:
    hold = Hold()
    signal.connect(hold, weak=False, dispatch_uid="test-recompute-hold")
    try:
        yield hold
    finally:
        hold.release.set()  # also when an assertion failed: the recompute would wait on, holding its locks
        signal.disconnect(dispatch_uid="test-recompute-hold")


@contextmanager
def counted(signal: Signal) -> Iterator[list[dict[str, Any]]]:
    """What each sending of ``signal`` said, from whichever thread."""
    said: list[dict[str, Any]] = []
    guard = threading.Lock()

    def record(**kwargs: Any) -> None:
        with guard:
            said.append({key: value for key, value in kwargs.items() if key != "signal"})

    signal.connect(record, weak=False, dispatch_uid="test-recompute-count")
    try:
        yield said
    finally:
        signal.disconnect(dispatch_uid="test-recompute-count")


def version_of(campaign: Campaign) -> int:
    return Campaign.objects.values_list("results_version", flat=True).get(pk=campaign.pk)


@pytest.mark.parametrize(
    "hold_at", [recompute_computed, recompute_half_written], ids=["while-computing", "while-writing"]
)
def test_it_lets_a_player_confirm_a_battle_while_a_recompute_is_held(
    postgresql, queued, hold_at, battle, report_data, running_campaign
):
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    standings_recompute(campaign_id=running_campaign.pk)
    before = version_of(running_campaign)

    with held_at(hold_at) as hold:
        recompute = Thread(lambda: standings_recompute(campaign_id=running_campaign.pk, force=True))
        assert hold.reached.wait(timeout=60), "the recompute never got there"
        confirmation = Thread(
            lambda: report_confirm(
                report=BattleReport.objects.get(pk=report.pk), actor=battle.defender.player
            )
        )

        assert confirmation.done_within(PROMPT_S), "the confirmation waited for the recompute"
        assert not recompute.done_within(0)  # still held: the confirmation did not wait for it
        confirmation.result()
        hold.release.set()
        assert recompute.result() is True

    assert Battle.objects.get(pk=battle.pk).status == BattleStatus.CONFIRMED
    assert version_of(running_campaign) == before + 1
    assert (RECOMPUTE, (running_campaign.pk,)) in queued  # the confirmation queued the next recompute
    assert (
        Standings.objects.get(campaign=running_campaign).results_version == before
    )  # the held one's version
    assert standings_recompute(campaign_id=running_campaign.pk) is True  # the queued one
    standings = Standings.objects.get(campaign=running_campaign)
    assert standings.results_version == before + 1
    assert standings.reports_counted == 1


def test_it_lets_a_player_report_a_battle_while_a_recompute_is_held(
    postgresql, queued, battle, report_data, running_campaign
):
    standings_recompute(campaign_id=running_campaign.pk)

    with held_at(recompute_computed) as hold:
        recompute = Thread(lambda: standings_recompute(campaign_id=running_campaign.pk, force=True))
        assert hold.reached.wait(timeout=60), "the recompute never got there"
        submission = Thread(
            lambda: report_submit(
                battle=battle, actor=battle.attacker.player, side="attacker", data=report_data()
            )
        )

        assert submission.done_within(PROMPT_S), "the report waited for the recompute"
        assert not recompute.done_within(0)
        submission.result()
        hold.release.set()
        recompute.result()

    assert Battle.objects.get(pk=battle.pk).status == BattleStatus.REPORTED


def test_it_ends_two_recomputes_racing_a_result_at_the_newest_version_without_going_backwards(
    postgresql, queued
):
    campaign = populated_campaign(players=30, rounds=3, seed=21)
    standings_recompute(campaign_id=campaign.pk)
    add_result(campaign, 1)
    seen: list[int] = []
    newest: list[int] = []  # set once both recomputes are done: the reader reads until it sees it

    def watch() -> None:
        deadline = time.monotonic() + 120  # never reading on after a failed test
        while not (newest and seen and seen[-1] >= newest[0]) and time.monotonic() < deadline:
            seen.append(Standings.objects.values_list("results_version", flat=True).get(campaign=campaign))

    with counted(recompute_computed) as computed, held_at(recompute_computed) as hold:
        watcher = Thread(watch)
        first = Thread(lambda: standings_recompute(campaign_id=campaign.pk))
        assert hold.reached.wait(timeout=60), "the first recompute never got there"
        add_result(campaign, 2)  # the campaign moves on while the first computes the version before
        second = Thread(lambda: standings_recompute(campaign_id=campaign.pk))
        assert not second.done_within(1.0)  # it waits for the first: one recompute of a campaign at a time
        hold.release.set()
        assert first.result() is True
        assert second.result() is True
        newest.append(version_of(campaign))
        watcher.result()

    assert [said["results_version"] for said in computed] == [newest[0] - 1, newest[0]]
    assert stored(campaign)[0] == newest[0]
    assert seen == sorted(seen)  # never backwards, as a reader saw them
    assert len(set(seen)) > 1
    assert from_scratch(campaign) == stored(campaign)


def test_it_computes_a_burst_of_recomputes_once_per_version(postgresql, queued):
    campaign = populated_campaign(players=30, rounds=3, seed=22)

    with counted(recompute_computed) as computed:
        at_once([lambda: standings_recompute(campaign_id=campaign.pk)] * 8, timeout=120)
        add_result(campaign, 1)
        answers = at_once([lambda: standings_recompute(campaign_id=campaign.pk)] * 8, timeout=120)

    assert sorted(answers) == [False] * 7 + [True]
    assert [said["results_version"] for said in computed] == [1, 2]
    assert stored(campaign)[0] == version_of(campaign) == 2


def test_it_reads_from_a_snapshot_and_locks_only_the_standings_row(postgresql, queued):
    campaign = populated_campaign(players=12, rounds=2, seed=23)
    standings_recompute(campaign_id=campaign.pk)
    add_result(campaign, 1)

    with CaptureQueriesContext(connection) as captured:
        assert standings_recompute(campaign_id=campaign.pk) is True

    sql = [query["sql"] for query in captured.captured_queries]
    assert sql[0].startswith("SELECT pg_advisory_lock(")
    assert sql[1:3] == [
        "BEGIN",
        "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY",
    ]  # first, as it must be
    assert sql.count("BEGIN") == 2  # the snapshot, then the short write
    assert sql[-1].startswith("SELECT pg_advisory_unlock(")
    locking = [statement for statement in sql if "FOR UPDATE" in statement or "FOR SHARE" in statement]
    assert len(locking) == 1
    assert 'FROM "standings_standings"' in locking[0]


def test_it_fails_for_the_task_to_retry_and_leaves_no_lock_when_its_connection_dies_mid_way(
    postgresql, queued
):
    campaign = populated_campaign(players=12, rounds=2, seed=24)
    backend: list[int] = []

    def remember(**_kwargs: Any) -> None:
        backend.append(connection.connection.info.backend_pid)  # the recompute's own connection

    recompute_computed.connect(remember, weak=False, dispatch_uid="test-recompute-backend")
    try:
        with held_at(recompute_computed) as hold:
            recompute = Thread(lambda: standings_recompute(campaign_id=campaign.pk))
            assert hold.reached.wait(timeout=60), "the recompute never got there"
            with connection.cursor() as cursor:  # as a database restart or a killed session would
                cursor.execute("SELECT pg_terminate_backend(%s)", [backend[0]])
            hold.release.set()
            with pytest.raises(OperationalError):  # what the task retries (autoretry_for)
                recompute.result()
    finally:
        recompute_computed.disconnect(dispatch_uid="test-recompute-backend")

    assert not Standings.objects.filter(campaign=campaign).exists()
    assert Thread(lambda: standings_recompute(campaign_id=campaign.pk)).result() is True
