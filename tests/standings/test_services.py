"""The recompute (idempotent, versioned, all or nothing), adjustments, and every change that makes it due."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from battles.services import report_confirm, report_submit
from campaign.models import BattleStatus, Campaign, LogEntry, LogKind, Sector
from campaign.options import Status, UnplayedPolicy
from campaign.services.economy import Holder, ledger_adjust
from campaign.services.map import sector_update
from campaign.services.players import enrolment_admit, enrolment_request, placeholder_add
from campaign.services.rounds import round_close, round_open
from config.celery import app
from core.errors import DomainError
from standings.models import Adjustment, Standings, StandingsTable
from standings.selectors import standings_for
from standings.services import adjustment_add, standings_recompute
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
TASK = "standings.tasks.standings_recompute"


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """The standings recomputes sent to the workers (after commit); other jobs (e-mails) are left out."""
    calls: list[tuple[str, Any]] = []

    def send(name: str, args: Any) -> None:
        if name.startswith("standings."):
            calls.append((name, tuple(args)))

    monkeypatch.setattr(app, "send_task", send)
    return calls


def snapshot(campaign: Campaign) -> tuple[Any, ...]:
    standings = Standings.objects.get(campaign=campaign)
    tables = list(
        StandingsTable.objects.filter(standings=standings).values_list("round_number", "players", "blocs")
    )
    return standings.results_version, standings.computed_at, tables


def version(campaign: Campaign) -> int:
    return Campaign.objects.values_list("results_version", flat=True).get(pk=campaign.pk)


def test_a_second_recompute_at_the_same_version_does_nothing(league):
    league.fight("a1", "x1", "attacker")

    assert standings_recompute(campaign_id=league.campaign.pk) is True
    first = snapshot(league.campaign)
    assert standings_recompute(campaign_id=league.campaign.pk) is False
    assert snapshot(league.campaign) == first


def test_it_recomputes_once_the_results_version_moves_and_records_the_version(league):
    standings_recompute(campaign_id=league.campaign.pk)
    league.fight("a1", "x1", "attacker")
    Campaign.objects.filter(pk=league.campaign.pk).update(results_version=7)

    assert standings_recompute(campaign_id=league.campaign.pk) is True

    standings = Standings.objects.get(campaign=league.campaign)
    assert standings.results_version == 7
    assert standings.reports_counted == 1


def test_a_recompute_that_finds_newer_standings_stored_leaves_them(league):
    standings_recompute(campaign_id=league.campaign.pk)
    Standings.objects.filter(campaign=league.campaign).update(results_version=version(league.campaign) + 3)
    before = snapshot(league.campaign)
    league.fight("a1", "x1", "attacker")

    assert standings_recompute(campaign_id=league.campaign.pk) is False
    assert snapshot(league.campaign) == before


def test_even_a_forced_recompute_never_replaces_standings_of_a_later_version(league):
    standings_recompute(campaign_id=league.campaign.pk)
    Standings.objects.filter(campaign=league.campaign).update(results_version=version(league.campaign) + 3)
    before = snapshot(league.campaign)
    league.fight("a1", "x1", "attacker")

    assert standings_recompute(campaign_id=league.campaign.pk, force=True) is False
    assert snapshot(league.campaign) == before


def test_forcing_recomputes_the_same_standings(league):
    league.fight("a1", "x1", "attacker", vp=(4, 1))
    standings_recompute(campaign_id=league.campaign.pk)
    _v, _at, tables = snapshot(league.campaign)

    assert standings_recompute(campaign_id=league.campaign.pk, force=True) is True
    assert snapshot(league.campaign)[2] == tables


def test_it_does_nothing_for_a_campaign_that_is_gone():
    assert standings_recompute(campaign_id=987654) is False


def test_a_recompute_that_fails_half_way_leaves_the_standings_as_they_were(league, monkeypatch):
    standings_recompute(campaign_id=league.campaign.pk)
    before = snapshot(league.campaign)
    league.fight("a1", "x1", "attacker")
    Campaign.objects.filter(pk=league.campaign.pk).update(results_version=version(league.campaign) + 1)

    def fail(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database went away after the old tables were deleted")

    monkeypatch.setattr(StandingsTable.objects, "bulk_create", fail)
    with pytest.raises(RuntimeError):
        standings_recompute(campaign_id=league.campaign.pk)

    assert snapshot(league.campaign) == before


def test_an_adjustment_is_logged_bumps_the_results_version_and_queues_the_recompute(
    league, organiser, sent, django_capture_on_commit_callbacks
):
    was = version(league.campaign)

    with django_capture_on_commit_callbacks(execute=True):
        adjustment = adjustment_add(campaign=league.campaign, enrolment=league.place("s1"), points=-3,
                                    reason="  reported a day late ", actor=organiser)  # fmt: skip

    assert (adjustment.points, adjustment.reason, adjustment.actor) == (-3, "reported a day late", organiser)
    assert version(league.campaign) == was + 1
    assert sent == [(TASK, (league.campaign.pk,))]
    entry = LogEntry.objects.filter(campaign=league.campaign, kind=LogKind.POINTS_ADJUSTED).get()
    assert (entry.subject, entry.actor, entry.reason) == (f"enrolment:{adjustment.enrolment_id}", organiser,
                                                          "reported a day late")  # fmt: skip
    assert entry.after == {
        "points": -3,
        "adjustment": adjustment.pk,
        "player": "S1",
    }  # the timeline names them


@pytest.mark.parametrize(
    ("changes", "code", "field"),
    [
        ({"points": 0}, "out-of-range", "points"),
        ({"points": 101}, "out-of-range", "points"),
        ({"points": -101}, "out-of-range", "points"),
        ({"points": True}, "invalid", "points"),
        ({"points": "3"}, "invalid", "points"),
        ({"reason": "  "}, "reason-required", "reason"),
        ({"reason": "x" * 501}, "too-long", "reason"),
    ],
)
def test_an_adjustment_is_refused_with_the_field_at_fault(league, organiser, changes, code, field):
    data: dict[str, Any] = {"points": 2, "reason": "bonus", **changes}

    with pytest.raises(DomainError) as refused:
        adjustment_add(campaign=league.campaign, enrolment=league.place("a1"), actor=organiser, **data)

    assert (refused.value.code, refused.value.field) == (code, field)
    assert not Adjustment.objects.exists()


def test_an_adjustment_is_only_for_a_player_of_a_running_campaign(league, organiser, make_player):
    applicant = make_player("applicant", status="pending")
    with pytest.raises(DomainError) as refused:
        adjustment_add(campaign=league.campaign, enrolment=applicant, points=1, reason="r", actor=organiser)
    assert refused.value.code == "not-a-player"

    Campaign.objects.filter(pk=league.campaign.pk).update(status=Status.FINISHED)
    with pytest.raises(DomainError) as refused:
        adjustment_add(
            campaign=league.campaign, enrolment=league.place("a1"), points=1, reason="r", actor=organiser
        )
    assert refused.value.code == "campaign-not-running"


def test_an_adjustment_is_never_changed(league, organiser):
    adjustment = adjustment_add(campaign=league.campaign, enrolment=league.place("a1"), points=1, reason="r",
                                actor=organiser)  # fmt: skip
    adjustment.points = 5

    with pytest.raises(ValueError, match="never changed"):
        adjustment.save()


# --- every change the standings read queues them --------------------------------------------------


def test_confirming_a_report_queues_the_recompute(
    battle, report_data, sent, django_capture_on_commit_callbacks
):
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    was = version(battle.campaign)

    with django_capture_on_commit_callbacks(execute=True):
        report_confirm(report=report, actor=battle.defender.player)

    assert version(battle.campaign) == was + 1
    assert (TASK, (battle.campaign_id,)) in sent


def test_closing_a_round_that_forfeits_battles_queues_the_recompute(
    battle, organiser, sent, django_capture_on_commit_callbacks
):
    Campaign.objects.filter(pk=battle.campaign_id).update(unplayed_battles=UnplayedPolicy.FORFEIT)
    was = version(battle.campaign)

    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=battle.round, actor=organiser)

    battle.refresh_from_db()
    assert battle.status == BattleStatus.FORFEITED
    assert version(battle.campaign) == was + 1
    assert (TASK, (battle.campaign_id,)) in sent
    standings_recompute(campaign_id=battle.campaign_id)
    view = standings_for(campaign=battle.campaign)
    assert view is not None
    rows = {row.enrolment_id: row for row in view.players}
    assert rows[battle.attacker_id].forfeited == rows[battle.defender_id].forfeited == 1


def test_resources_sectors_and_new_players_queue_the_recompute(
    league, organiser, sent, django_capture_on_commit_callbacks
):
    campaign = league.campaign
    neutral = Sector.objects.filter(campaign=campaign, owner="", headquarters_of="").first()
    assert neutral is not None
    changes = [
        lambda: ledger_adjust(
            campaign=campaign, holder=Holder(bloc="SSU"), amount=3, reason="r", actor=organiser
        ),
        lambda: sector_update(
            campaign=campaign, actor=organiser, key=neutral.key, changes={"owner": "SSU"}, reason="r"
        ),
        lambda: placeholder_add(campaign=campaign, actor=organiser, name="Vera", bloc="SSU"),
        lambda: enrolment_admit(
            enrolment=enrolment_request(campaign=campaign, user=UserFactory(), bloc="Axis"), actor=organiser
        ),
    ]
    for change in changes:
        was = version(campaign)
        sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            change()
        assert version(campaign) == was + 1
        assert sent == [(TASK, (campaign.pk,))]


def test_a_new_round_changes_no_result_and_queues_nothing(
    league, organiser, sent, django_capture_on_commit_callbacks
):
    was = version(league.campaign)
    with django_capture_on_commit_callbacks(execute=True):
        round_open(campaign=league.campaign, actor=organiser, deadline=timezone.now() + timedelta(days=3))

    assert version(league.campaign) == was
    assert sent == []
