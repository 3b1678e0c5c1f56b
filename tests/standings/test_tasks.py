"""The Celery jobs: the recompute task (thin, late-acknowledged, idempotent) and the beat job that heals."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command

from campaign.models import Campaign
from campaign.options import Status
from campaign.services.versions import results_changed
from config.celery import app
from standings.models import Standings
from standings.services import standings_recompute, standings_stale
from standings.tasks import heal_standings, recompute_standings
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    calls: list[tuple[str, Any]] = []
    monkeypatch.setattr(app, "send_task", lambda name, args: calls.append((name, tuple(args))))
    return calls


def test_the_recompute_task_is_registered_late_acknowledged_and_idempotent(league):
    league.fight("a1", "x1", "attacker")
    task = app.tasks["standings.tasks.standings_recompute"]

    assert task.name == recompute_standings.name
    assert task.acks_late is True
    assert recompute_standings(league.campaign.pk) is True
    assert recompute_standings(league.campaign.pk) is False
    assert Standings.objects.get(campaign=league.campaign).reports_counted == 1


def test_beat_runs_the_heal_job_every_minute():
    entry = settings.CELERY_BEAT_SCHEDULE["standings-heal"]

    assert entry["task"] in app.tasks
    assert entry["task"] == heal_standings.name
    assert entry["schedule"] <= 60


def test_the_stale_campaigns_are_those_under_way_with_standings_missing_or_behind(league):
    behind = CampaignFactory(status=Status.RUNNING)
    current = CampaignFactory(status=Status.FINISHED)
    draft = CampaignFactory(status=Status.DRAFT, results_version=3)
    for campaign in (behind, current):
        standings_recompute(campaign_id=campaign.pk)
    Campaign.objects.filter(pk=behind.pk).update(results_version=2)

    assert standings_stale() == sorted([league.campaign.pk, behind.pk])
    assert current.pk not in standings_stale()
    assert draft.pk not in standings_stale()


def test_the_heal_job_queues_every_stale_campaign_and_their_standings_catch_up(
    league, sent, django_capture_on_commit_callbacks
):
    # A confirmation whose message was lost: the version moved, nothing was queued.
    standings_recompute(campaign_id=league.campaign.pk)
    league.fight("a1", "x1", "attacker")
    results_changed(campaign=league.campaign)  # the test transaction never commits: its message is never sent
    assert sent == []

    with django_capture_on_commit_callbacks(execute=True):
        queued = heal_standings()

    assert queued == 1
    assert sent == [("standings.tasks.standings_recompute", (league.campaign.pk,))]
    for _name, args in sent:
        recompute_standings(*args)
    assert standings_stale() == []
    standings = Standings.objects.get(campaign=league.campaign)
    assert standings.reports_counted == 1
    assert heal_standings() == 0


def test_the_demo_has_its_standings_computed_and_seeding_again_changes_nothing():
    call_command("seed_demo")
    campaign = Campaign.objects.get()
    standings = Standings.objects.get(campaign=campaign)

    assert standings.results_version == campaign.results_version
    assert standings.round_number == campaign.current_round
    assert list(standings.tables.values_list("round_number", flat=True)) == list(
        range(1, campaign.current_round + 1)
    )
    assert len(standings.tables.last().players) == campaign.enrolments.filter(status="admitted").count()

    call_command("seed_demo")

    assert Standings.objects.get(campaign=campaign).computed_at == standings.computed_at
