"""Campaigns of any size for query-count and concurrency tests, written with bulk_create (no services)."""

from __future__ import annotations

import random
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Campaign,
    Enrolment,
    EnrolmentStatus,
    Round,
    sides_recorded,
)
from campaign.options import Status
from campaign.services.map import campaign_map_load
from campaign.services.versions import results_changed
from tests.factories import CampaignFactory, UserFactory
from tests.standings.conftest import result

BLOCS = ("Allies", "Axis", "SSU")


def populated_campaign(
    *, players: int, rounds: int, battles_per_round: int | None = None, seed: int = 1
) -> Campaign:
    """A running campaign on the default map: ``players`` spread over the blocs, ``rounds`` of confirmed
    battles (one per two players a round unless ``battles_per_round``), a forfeit or two among them."""
    rng = random.Random(seed)
    organiser = UserFactory()
    campaign = CampaignFactory(organiser=organiser)
    campaign_map_load(campaign=campaign, actor=organiser)
    tag = f"c{campaign.pk}"
    users = User.objects.bulk_create(User(username=f"{tag}-p{n}") for n in range(players))
    places = Enrolment.objects.bulk_create(
        Enrolment(
            campaign=campaign,
            player=user,
            bloc=BLOCS[n % 3],
            status=EnrolmentStatus.ADMITTED,
            faction=f"faction-{n % 5}",
        )
        for n, user in enumerate(users)
    )
    deadline = timezone.now() + timedelta(days=7)
    made = Round.objects.bulk_create(
        Round(campaign=campaign, number=n, deadline=deadline, status="closed" if n < rounds else "open")
        for n in range(1, rounds + 1)
    )
    battles = []
    for played in made:
        for _ in range(battles_per_round if battles_per_round is not None else players // 2):
            attacker, defender = rng.sample(places, 2)
            roll = rng.random()
            if roll < 0.03:
                battles.append(_battle(campaign, played, attacker, defender, BattleStatus.FORFEITED, None))
                continue
            winner = "attacker" if roll < 0.5 else "defender" if roll < 0.9 else None
            outcome = result(
                winner, (rng.randint(0, 9), rng.randint(0, 9)), (rng.randint(0, 200), rng.randint(0, 200))
            )
            battles.append(_battle(campaign, played, attacker, defender, BattleStatus.CONFIRMED, outcome))
    Battle.objects.bulk_create(battles, batch_size=500)
    Campaign.objects.filter(pk=campaign.pk).update(
        status=Status.RUNNING, current_round=rounds, results_version=1
    )
    campaign.refresh_from_db()
    return campaign


def _battle(campaign: Campaign, played: Round, attacker: Enrolment, defender: Enrolment, status: str,
            outcome: dict[str, object] | None) -> Battle:  # fmt: skip
    winner = {"attacker": attacker, "defender": defender}.get(str(outcome["winner"])) if outcome else None
    return Battle(
        campaign=campaign, round=played, attacker=attacker, defender=defender, mission="hold-the-line",
        **sides_recorded(attacker=attacker, defender=defender),
        points_limit=150, status=status, source=BattleSource.PAIRING, result=outcome, winner=winner,
    )  # fmt: skip


def add_result(campaign: Campaign, n: int) -> None:
    """A confirmed result recorded as a confirmation records one: under the campaign's lock, bumping its version."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        places = list(locked.enrolments.order_by("pk"))
        attacker, defender = places[n % len(places)], places[(n + 7) % len(places)]
        Battle.objects.create(
            campaign=locked, round=Round.objects.get(campaign=locked, number=locked.current_round),
            attacker=attacker, defender=defender, mission="hold-the-line", points_limit=150,
            **sides_recorded(attacker=attacker, defender=defender),
            status=BattleStatus.CONFIRMED, source=BattleSource.PAIRING, winner=attacker,
            result=result("attacker", (n % 9, 2), (40 + n, 10)),
        )  # fmt: skip
        results_changed(campaign=locked)
