"""A values() query compiled once and run with each call's values answers what the ORM answers."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import Exists, OuterRef, QuerySet
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from campaign.models import Campaign, Enrolment, EnrolmentStatus
from core.compiled import CompiledRows, CompiledValues
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


def _places(campaign: int) -> QuerySet[Enrolment, tuple[Any, ...]]:
    return (
        Enrolment.objects.filter(campaign_id=campaign)
        .exclude(status=EnrolmentStatus.REFUSED)
        .order_by("pk")
        .values_list("pk", "bloc", "mercenary", "joined_at", "player__username")
    )


ROWS = CompiledRows(_places, "campaign")


def test_it_answers_the_rows_the_orm_answers_once_converted():
    one, other = CampaignFactory(), CampaignFactory()
    for campaign, count in ((one, 3), (other, 2)):
        for n in range(count):
            EnrolmentFactory(campaign=campaign, mercenary=n % 2 == 1)
    EnrolmentFactory(campaign=one, status=EnrolmentStatus.REFUSED)

    for campaign in (one, other):
        converted = ROWS.converted(ROWS.raw(campaign=campaign.pk))
        assert converted == list(_places(campaign.pk))
    assert len(ROWS.raw(campaign=one.pk)) == 3
    assert {row[2] for row in ROWS.converted(ROWS.raw(campaign=one.pk))} == {True, False}
    assert all(timezone.is_aware(row[3]) for row in ROWS.converted(ROWS.raw(campaign=other.pk)))


def test_its_raw_rows_are_hashable_and_equal_for_equal_rows():
    campaign = CampaignFactory()
    EnrolmentFactory(campaign=campaign)

    first, second = ROWS.raw(campaign=campaign.pk), ROWS.raw(campaign=campaign.pk)

    assert first == second
    assert hash(first) == hash(second)
    assert ROWS.raw(campaign=999_999) == ()


def test_it_runs_one_query_for_the_rows():
    campaign = CampaignFactory()
    ROWS.raw(campaign=campaign.pk)

    with CaptureQueriesContext(connection) as captured:
        ROWS.converted(ROWS.raw(campaign=campaign.pk))

    assert len(captured.captured_queries) == 1
