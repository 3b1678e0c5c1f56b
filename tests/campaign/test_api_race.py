"""Two organisers admit two players into a bloc capped at one, at the same moment, through the API.

Real threads, each with its own database connection, against the real
database: under CI=true that is the PostgreSQL server the test command starts
(the test insists on it), where the admission's lock on the campaign row is
what keeps the cap. On the SQLite fallback, transactions begin IMMEDIATE, so
they are serialised too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from armies.blocs import Bloc
from campaign.models import Campaign, Enrolment, EnrolmentStatus
from tests.campaign.api_world import build_world
from tests.factories import EnrolmentFactory, UserFactory
from tests.races import at_once, require_postgresql

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_two_admissions_into_a_bloc_capped_at_one_let_exactly_one_in() -> None:
    require_postgresql()
    world = build_world()
    Campaign.objects.filter(pk=world.campaign.pk).update(max_players_per_bloc=1)
    other = EnrolmentFactory(
        campaign=world.campaign,
        player=UserFactory(username="ivan"),
        bloc=Bloc.AXIS,
        status=EnrolmentStatus.PENDING,
    )
    decisions = [("creator", world.applicant_place.pk), ("co_organiser", other.pk)]

    def admit(persona: str, enrolment_id: int) -> Callable[[], Any]:
        client = world.client(persona)
        return lambda: client.post(world.url(f"enrolments/{enrolment_id}/admit/"))

    answers = at_once([admit(persona, enrolment_id) for persona, enrolment_id in decisions])

    statuses = sorted(response.status_code for response in answers)
    assert statuses == [200, 409]
    refused = next(response for response in answers if response.status_code == 409)
    assert refused.json()["code"] == "bloc-full"
    admitted = Enrolment.objects.filter(
        campaign=world.campaign, bloc=Bloc.AXIS, status=EnrolmentStatus.ADMITTED
    )
    assert admitted.count() == 1
