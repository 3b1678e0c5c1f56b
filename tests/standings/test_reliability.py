"""The standings with the real parts: a separate worker process, bursts, a worker killed mid-recompute, readers.

Under CI=true these run on the PostgreSQL server and the Redis broker the test
command starts, with a separate ``celery worker`` process, and fail (never
skip) when those are missing; without CI, on the SQLite test database and the
embedded filesystem broker, with the same worker process.
"""

# ruff: noqa: F811 (the battle fixtures are imported below, and named as arguments)

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from battles.models import BattleReport
from battles.services import ReportInput, SideInput, report_confirm, report_submit
from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Campaign,
    Round,
    WebhookDelivery,
    sides_recorded,
)
from config.celery import app
from standings.models import Standings
from standings.selectors import StandingsView, standings_for
from standings.services import standings_recompute, standings_stale
from tests.battles.conftest import ALLIED_UNITS, AXIS_UNITS, register, round_one  # noqa: F401
from tests.conftest import services_required, start_celery_worker, stop_celery_worker
from tests.standings.builders import add_result, populated_campaign
from tests.standings.test_race import burst, from_scratch, stored
from tests.worker_hooks import PAUSE_FILE_ENV

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

CONVERGE_SECONDS = 180.0


def require_the_real_parts() -> None:
    """Under CI the database must be PostgreSQL and the broker Redis: anything else is a failure."""
    if not services_required():
        return
    if connection.vendor != "postgresql" or settings.BROKER_IS_EMBEDDED:
        pytest.fail(
            f"CI=true needs PostgreSQL and Redis (database {connection.vendor}, broker {settings.CELERY_BROKER_URL})",
            pytrace=False,
        )


def purge_queue() -> None:
    """Drop messages earlier tests left in the broker, so that only this test's work is queued."""
    app.control.purge()


def wait_until(
    condition: Callable[[], bool], what: str | Callable[[], str], worker: Any = None,
    timeout: float = CONVERGE_SECONDS,
) -> None:  # fmt: skip
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        if worker is not None and worker.poll() is not None:
            pytest.fail(
                f"the worker process exited ({worker.returncode}) before {_said(what)}", pytrace=False
            )
        time.sleep(0.2)
    pytest.fail(f"timed out after {timeout:.0f}s waiting for {_said(what)}", pytrace=False)


def _said(what: str | Callable[[], str]) -> str:
    return what if isinstance(what, str) else what()


def current(campaign: Campaign) -> bool:
    """The stored standings are at the campaign's results version."""
    version = Campaign.objects.values_list("results_version", flat=True).get(pk=campaign.pk)
    return Standings.objects.filter(campaign=campaign, results_version=version).exists()


# --------------------------------------------------------------------------- (a) a burst of confirmations


class Hook:
    def __init__(self) -> None:
        self.events: list[str] = []
        self.url = ""


@pytest.fixture
def hook() -> Iterator[Hook]:
    state = Hook()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.events.append(body["event"])
            self.send_response(204)
            self.end_headers()

        def log_message(self, *_: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    yield state
    server.shutdown()
    server.server_close()


def deliveries(campaign: Campaign) -> list[tuple[str, int, str]]:
    return list(
        WebhookDelivery.objects.filter(campaign=campaign).values_list("status", "attempts", "last_error")
    )


def submitted_reports(campaign: Campaign, opened: Round, count: int) -> list[BattleReport]:
    """``count`` battles of round one between the Axis and the Allies, each reported by its attacker."""
    axis = [campaign.enrolments.get(player__username=name) for name in ("x1", "x2")]
    allies = [campaign.enrolments.get(player__username=name) for name in ("a1", "a2")]
    lists = {place.pk: register(place, AXIS_UNITS, "Axis") for place in axis}
    lists |= {place.pk: register(place, ALLIED_UNITS, "Allies") for place in allies}
    sectors = list(campaign.sectors.filter(headquarters_of="").order_by("key"))
    reports = []
    for n in range(count):
        attacker, defender = (
            (axis[n % 2], allies[n // 2 % 2]) if n % 4 < 2 else (allies[n % 2], axis[n // 2 % 2])
        )
        battle = Battle.objects.create(
            campaign=campaign, round=opened, sector=sectors[n % len(sectors)], attacker=attacker,
            defender=defender, mission="hold-the-line", points_limit=150, status=BattleStatus.SCHEDULED,
            **sides_recorded(attacker=attacker, defender=defender),
            source=BattleSource.PAIRING,
        )  # fmt: skip
        losses = {"attacker": SideInput(), "defender": SideInput()}
        if n % 3 < 2:  # two in three won by one side or the other, the rest level
            losses["defender" if n % 3 == 0 else "attacker"] = SideInput(lost=("e1",))
        data = ReportInput(
            attacker_registration=lists[attacker.pk], defender_registration=lists[defender.pk], turns=6,
            ending="turn_limit", attacker=losses["attacker"], defender=losses["defender"],
        )  # fmt: skip
        reports.append(report_submit(battle=battle, actor=attacker.player, side="attacker", data=data))
    return reports


@pytest.mark.parametrize("gap_ms", [0, 1000], ids=["a-recompute-each", "batched"])
def test_fifty_confirmations_in_a_burst_end_in_the_standings_a_recompute_from_scratch_gives(
    running_campaign, round_one, hook, settings, gap_ms
):
    require_the_real_parts()
    settings.BATCHED_JOB_GAP_MS = gap_ms  # batched: the burst queues a few recomputes, the last reads all
    Campaign.objects.filter(pk=running_campaign.pk).update(webhook_url=hook.url)
    reports = submitted_reports(running_campaign, round_one, 50)
    purge_queue()
    worker = start_celery_worker({"ZVEROGRAD_BATCHED_JOB_GAP_MS": str(gap_ms)})
    try:

        def confirm(n: int) -> None:  # each of 5 threads confirms 10 reports, as their defenders
            for report in reports[n::5]:
                report_confirm(report=report, actor=report.battle.defender.player)

        burst(confirm, threads=5)

        wait_until(
            lambda: current(running_campaign), "the standings to reach the last results version", worker
        )
        wait_until(
            lambda: hook.events.count("result.confirmed") == 50,
            lambda: f"the 50 results to be posted (deliveries: {deliveries(running_campaign)})",
            worker,
        )
    finally:
        stop_celery_worker(worker)

    assert running_campaign.battles.filter(status=BattleStatus.CONFIRMED).count() == 50
    by_worker = stored(running_campaign)
    assert Standings.objects.get(campaign=running_campaign).reports_counted == 50
    assert from_scratch(running_campaign) == by_worker


# --------------------------------------------------------------------------- (b) a worker killed mid-recompute


def test_a_worker_killed_in_the_middle_of_a_recompute_leaves_the_old_standings_which_the_heal_job_updates(
    tmp_path: Path, monkeypatch
):
    require_the_real_parts()
    campaign = populated_campaign(players=30, rounds=3, seed=11)
    standings_recompute(campaign_id=campaign.pk)
    old = stored(campaign)
    old_rows = standings_for(campaign=campaign)
    purge_queue()
    marker = tmp_path / "recompute-paused"
    # The worker loads a test-only hook that stops it half-way through writing the recompute.
    worker = start_celery_worker({PAUSE_FILE_ENV: str(marker)}, include=["tests.worker_hooks"])
    try:
        add_result(campaign, 1)  # queues the recompute after commit, as every confirmation does
        wait_until(marker.exists, "the worker to be half-way through the recompute", worker)
        # The worker has rewritten the header and deleted the tables, uncommitted: readers see the old ones.
        assert stored(campaign) == old
        assert standings_for(campaign=campaign) == old_rows
    finally:
        worker.send_signal(
            signal.SIGKILL
        )  # also when an assertion failed: it would sleep on, holding its lock
        worker.wait(timeout=30)

    assert worker.returncode == -signal.SIGKILL
    assert stored(campaign) == old  # the old standings, whole: the killed transaction left nothing
    assert standings_stale() == [campaign.pk]

    purge_queue()  # whatever the broker might deliver again is gone: only the heal job can bring them up
    healer = start_celery_worker()
    try:
        app.send_task("standings.tasks.standings_heal")  # what beat sends every minute
        wait_until(lambda: current(campaign), "the heal job's recompute", healer)
    finally:
        stop_celery_worker(healer)

    healed = stored(campaign)
    assert healed[0] == Campaign.objects.get(pk=campaign.pk).results_version > old[0]
    assert from_scratch(campaign) == healed


# --------------------------------------------------------------------------- (c) never half-written


def snapshot(view: StandingsView | None) -> tuple[int, int, list[Any], list[Any]] | None:
    if view is None:
        return None
    return view.info.standings_version, view.info.reports_counted, list(view.players), list(view.blocs)


def test_a_reader_polling_during_recomputes_sees_only_whole_standings(monkeypatch):
    require_the_real_parts()
    monkeypatch.setattr(app, "send_task", lambda *_a, **_k: None)  # this test runs the recomputes itself
    campaign = populated_campaign(players=90, rounds=4, seed=12)
    standings_recompute(campaign_id=campaign.pk)
    expected = {stored(campaign)[0]: snapshot(standings_for(campaign=campaign))}
    stop = threading.Event()
    seen: list[Any] = []
    failures: list[BaseException] = []

    def read() -> None:
        try:
            while not stop.is_set():
                seen.append(snapshot(standings_for(campaign=campaign)))
        except BaseException as exc:  # reported by the main thread
            failures.append(exc)
        finally:
            connection.close()

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for n in range(15):
            add_result(campaign, n)
            assert standings_recompute(campaign_id=campaign.pk)
            expected[stored(campaign)[0]] = snapshot(standings_for(campaign=campaign))
            time.sleep(0.02)
    finally:
        stop.set()
        reader.join(timeout=60)

    assert not failures, failures
    assert len(seen) > 15
    versions = {view[0] for view in seen if view is not None}
    assert len(versions) > 1  # the reader did read while the standings changed
    half_written = [view for view in seen if view is None or expected.get(view[0]) != view]
    assert half_written == []
