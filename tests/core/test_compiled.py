"""A values() query compiled once and run with each call's values answers what the ORM answers."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import Exists, OuterRef, QuerySet
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from campaign.models import Campaign, Enrolment
from core.compiled import CompiledValues
from standings.models import Standings
from tests.factories import CampaignFactory, EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def _query(campaign: int, user: int) -> QuerySet[Campaign, dict[str, Any]]:
    enrolled = Exists(Enrolment.objects.filter(campaign=OuterRef("pk"), player_id=user))
    return (
        Campaign.objects.filter(pk=campaign)
        .annotate(enrolled=enrolled)
        .values("is_public", "name", "standings__computed_at", "enrolled", "organiser_id")
    )


COMPILED = CompiledValues(_query, "campaign", "user")


def _campaign_with_standings(**fields: Any) -> Campaign:
    campaign = CampaignFactory(**fields)
    Standings.objects.create(campaign=campaign, results_version=0, computed_at=timezone.now())
    return campaign


def test_it_answers_what_the_orm_answers_for_each_call_s_values():
    player: User = UserFactory()
    public, private = _campaign_with_standings(is_public=True), CampaignFactory(is_public=False)
    EnrolmentFactory(campaign=private, player=player)

    for campaign in (public, private):
        expected = _query(campaign.pk, player.pk).first()
        row = COMPILED.first(campaign=campaign.pk, user=player.pk)
        assert row == expected
    assert COMPILED.first(campaign=private.pk, user=player.pk)["enrolled"] is True  # type: ignore[index]
    assert COMPILED.first(campaign=public.pk, user=player.pk)["enrolled"] is False  # type: ignore[index]


def test_it_converts_values_as_the_orm_does():
    campaign = _campaign_with_standings()

    row = COMPILED.first(campaign=campaign.pk, user=campaign.organiser_id)

    assert row is not None
    assert timezone.is_aware(row["standings__computed_at"])
    assert row["standings__computed_at"] == Standings.objects.get(campaign=campaign).computed_at
    assert row["is_public"] in (True, False)


def test_it_answers_none_when_no_row_matches():
    assert COMPILED.first(campaign=999_999, user=1) is None


def test_it_runs_one_query_a_call():
    campaign = _campaign_with_standings()
    COMPILED.first(campaign=campaign.pk, user=1)

    with CaptureQueriesContext(connection) as captured:
        COMPILED.first(campaign=campaign.pk, user=2)

    assert len(captured.captured_queries) == 1


def test_it_refuses_a_call_missing_a_value():
    with pytest.raises(TypeError):
        COMPILED.first(campaign=1)
