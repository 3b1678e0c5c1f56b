"""Migration 0008 fills what each side of the battles made before it fought as, from their places, at once."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection

from campaign.models import Battle, BattleSource, BattleStatus, Enrolment, Round, sides_recorded

pytestmark = pytest.mark.django_db

migration = importlib.import_module("campaign.migrations.0008_battle_sides")


def test_it_fills_every_battles_sides_from_their_places_in_one_statement(
    running_campaign, place, django_assert_num_queries
):
    first = Round.objects.create(campaign=running_campaign, number=1, deadline=running_campaign.created_at)
    Enrolment.objects.filter(pk=place("a1").pk).update(faction="coastal-raiders")
    Enrolment.objects.filter(pk=place("s2").pk).update(mercenary=True)
    pairs = [("x1", "a1"), ("s2", "x2"), ("a2", "s1")]
    for attacker, defender in pairs:
        Battle.objects.create(
            campaign=running_campaign, round=first, attacker=place(attacker), defender=place(defender),
            **sides_recorded(attacker=place(defender), defender=place(attacker)), mission="landing",
            points_limit=150, status=BattleStatus.CONFIRMED, source=BattleSource.PAIRING,
        )  # fmt: skip

    with django_assert_num_queries(1):  # one UPDATE, however many battles
        migration.record_sides(apps, SimpleNamespace(connection=connection))

    for battle in Battle.objects.select_related("attacker", "defender"):
        assert {name: getattr(battle, name) for name in migration_columns()} == sides_recorded(
            attacker=battle.attacker, defender=battle.defender
        )
    filled = Battle.objects.get(attacker=place("x1"))
    assert (filled.attacker_bloc, filled.defender_bloc, filled.defender_faction) == (
        "Axis", "Allies", "coastal-raiders",
    )  # fmt: skip
    assert Battle.objects.get(attacker=place("s2")).attacker_mercenary is True


def migration_columns() -> list[str]:
    return [f"{side}_{name}" for side in ("attacker", "defender") for name in migration.COLUMNS]
