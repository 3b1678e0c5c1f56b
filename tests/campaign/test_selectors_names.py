"""A place's name read as one column (``place_name``) says what ``Enrolment.display_name`` says."""

from __future__ import annotations

import pytest
from django.utils import timezone

from armies.blocs import Bloc
from campaign.models import Battle, Enrolment, Round, sides_recorded
from campaign.selectors.names import place_name
from tests.factories import EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def places(campaign) -> list[Enrolment]:
    return [
        EnrolmentFactory(campaign=campaign, player=UserFactory(username="anna", display_name="Anna K.")),
        EnrolmentFactory(
            campaign=campaign, player=UserFactory(username="boris", display_name=""), bloc=Bloc.SSU
        ),
        EnrolmentFactory(campaign=campaign, player=None, placeholder_name="Club member Otto", bloc=Bloc.AXIS),
    ]


def test_it_names_each_place_as_its_display_name(places):
    named = dict(Enrolment.objects.annotate(name=place_name()).values_list("pk", "name"))

    assert named == {place.pk: place.display_name for place in places}
    assert sorted(named.values()) == ["Anna K.", "Club member Otto", "boris"]


def test_it_names_the_places_at_the_end_of_a_path(campaign, places):
    round = Round.objects.create(campaign=campaign, number=1, deadline=timezone.now())
    attacker, defender = places[2], places[1]
    Battle.objects.create(campaign=campaign, round=round, attacker=attacker, defender=defender, mission="m",
                          points_limit=150, **sides_recorded(attacker=attacker, defender=defender))  # fmt: skip

    row = Battle.objects.annotate(a=place_name("attacker__"), d=place_name("defender__")).values_list(
        "a", "d"
    )

    assert list(row) == [("Club member Otto", "boris")]
