"""An organiser schedules a battle directly: the club's paper slip, "Ada attacks Ivan over North Station".

The battle makes the checks a challenge makes (two admitted places of different blocs, a sector on the
attacker's front line, one battle per player and round) and is scheduled at once: both players are told.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign.engine.map import Terrain
from campaign.engine.missions import MISSIONS_BY_KEY, suggested_mission
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Campaign,
    Enrolment,
    EnrolmentStatus,
    LogKind,
    Round,
    RoundStatus,
    sides_recorded,
)
from campaign.permissions import can_schedule_battle
from campaign.services import notices
from campaign.services.challenges import byes_taken_back, fighting, sector_on_front
from campaign.services.log import log_write


@transaction.atomic
def battle_schedule(
    *,
    campaign: Campaign,
    actor: Any,
    attacker: Enrolment,
    defender: Enrolment,
    sector_key: str,
    mission: str | None = None,
) -> Battle:
    """Schedule ``attacker`` against ``defender`` over a sector in the open round (organisers).

    ``mission`` defaults to the one the sector's ground suggests. The campaign's row is locked first, so
    two organisers scheduling the same player at once make one battle and one ``already-fighting``.
    """
    if not can_schedule_battle(actor, campaign):
        raise CampaignError("not-organiser", "only the campaign's organisers schedule battles")
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    current = Round.objects.filter(campaign=campaign, status=RoundStatus.OPEN).first()
    if current is None:
        raise CampaignConflictError("round-not-open", "battles are scheduled while a round is open", "round")
    for field, place in (("attacker", attacker), ("defender", defender)):
        if place.campaign_id != campaign.pk:
            raise CampaignError("unknown-player", "this player is not in this campaign", field)
        place.refresh_from_db()
        if place.status != EnrolmentStatus.ADMITTED:
            raise CampaignError("not-admitted", f"{place.display_name} is not an admitted player", field)
    if attacker.pk == defender.pk:
        raise CampaignError("same-player", "a player cannot fight themselves", "defender")
    if attacker.bloc == defender.bloc:
        raise CampaignError(
            "same-bloc", f"{attacker.display_name} and {defender.display_name} both fight for {attacker.bloc}",
            "defender",
        )  # fmt: skip
    if mission is not None and mission not in MISSIONS_BY_KEY:
        raise CampaignError("unknown-mission", "choose a mission from the library", "mission")
    sector = sector_on_front(campaign=campaign, attacker=attacker, defender=defender, sector_key=sector_key)
    for field, place in (("attacker", attacker), ("defender", defender)):
        if fighting(current, place):
            raise CampaignConflictError(
                "already-fighting", f"{place.display_name} already has a battle this round", field
            )
    battle = Battle.objects.create(
        campaign=campaign, round=current, sector=sector, attacker=attacker, defender=defender,
        **sides_recorded(attacker=attacker, defender=defender),
        mission=mission or suggested_mission(Terrain(sector.terrain)).key, points_limit=campaign.points_limit,
        status=BattleStatus.SCHEDULED, source=BattleSource.SCHEDULED, published_at=timezone.now(),
    )  # fmt: skip
    byes_taken_back(current, attacker, defender)
    log_write(campaign=campaign, kind=LogKind.BATTLE_CHANGED, subject=f"battle:{battle.pk}", actor=actor,
              field="scheduled", after={"attacker": attacker.display_name, "defender": defender.display_name,
                                        "sector": sector.name, "mission": battle.mission,
                                        "round": current.number})  # fmt: skip
    notices.tell(
        enrolments=[attacker, defender], kind=notices.PAIRINGS_PUBLISHED,
        message=f"Round {current.number}: {attacker.display_name} attacks {defender.display_name} "
        f"over {sector.name}.",
        actor=actor, link=notices.battle_link(battle),
    )  # fmt: skip
    return battle
