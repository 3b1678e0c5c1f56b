"""A player's next battles, for their home page: what they need at the club to play each.

A next battle is a scheduled battle (published, not yet reported) of an open round, where the person is the
player of one side and still admitted to the campaign. Nothing of a report or result is read or said: a battle
leaves this list as soon as it is reported, so a campaign that hides its results until the round closes hides
them here too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q

from campaign.engine.missions import DEFAULT_MISSION, MISSIONS_BY_KEY
from campaign.models import Battle, BattleStatus, EnrolmentStatus, Registration, RoundStatus
from campaign.selectors.names import place_name

# The most battles the home page lists (one a campaign is usual; a player in many campaigns sees the soonest).
NEXT_BATTLES_SHOWN = 5


@dataclass(frozen=True)
class OwnList:
    """One of the player's current registered lists in the battle's campaign."""

    pk: int
    name: str
    total_ap: int


@dataclass(frozen=True)
class NextBattle:
    pk: int
    campaign_id: int
    campaign: str
    round_number: int
    deadline: datetime
    sector: str | None
    mission: str  # the mission's name
    opponent: str
    attacks: bool  # the player attacks (else defends)
    points_limit: int
    lists: tuple[OwnList, ...]


_COLUMNS = ("id", "campaign_id", "campaign__name", "round__number", "round__deadline", "sector__name", "mission",
            "attacker_name", "defender_name", "attacker_id", "defender_id", "attacker__player_id",
            "points_limit")  # fmt: skip


def next_battles_for(*, user: Any) -> list[NextBattle]:
    """The person's next battles, soonest deadline first (at most ``NEXT_BATTLES_SHOWN``), each with their
    own current registered lists in its campaign: two queries, whatever the number of campaigns and battles."""
    if not user.is_authenticated:
        return []
    admitted = EnrolmentStatus.ADMITTED
    rows = list(
        Battle.objects.filter(
            Q(attacker__player_id=user.pk, attacker__status=admitted)
            | Q(defender__player_id=user.pk, defender__status=admitted)
        )
        .filter(status=BattleStatus.SCHEDULED, round__status=RoundStatus.OPEN)
        .annotate(attacker_name=place_name("attacker__"), defender_name=place_name("defender__"))
        .order_by("round__deadline", "id")
        .values(*_COLUMNS)[:NEXT_BATTLES_SHOWN]
    )
    own = {row["id"]: row["attacker_id"] if row["attacker__player_id"] == user.pk else row["defender_id"]
           for row in rows}  # fmt: skip
    lists: dict[int, list[OwnList]] = {}
    if own:
        registrations = (
            Registration.objects.filter(enrolment_id__in=set(own.values()), superseded_by__isnull=True)
            .order_by("enrolment_id", "-registered_at", "-id")
            .values_list("enrolment_id", "id", "name", "total_ap")
        )
        for enrolment_id, pk, name, total_ap in registrations:
            lists.setdefault(enrolment_id, []).append(OwnList(pk=pk, name=name, total_ap=total_ap))
    return [
        NextBattle(
            pk=row["id"],
            campaign_id=row["campaign_id"],
            campaign=row["campaign__name"],
            round_number=row["round__number"],
            deadline=row["round__deadline"],
            sector=row["sector__name"],
            mission=MISSIONS_BY_KEY.get(row["mission"], DEFAULT_MISSION).name,
            opponent=row["defender_name"] if own[row["id"]] == row["attacker_id"] else row["attacker_name"],
            attacks=own[row["id"]] == row["attacker_id"],
            points_limit=row["points_limit"],
            lists=tuple(lists.get(own[row["id"]], ())),
        )
        for row in rows
    ]
