"""The open round's battles as the map draws them (plain data for ``campaign.engine.svg``)."""

from __future__ import annotations

from armies.blocs import Bloc
from campaign.engine.svg import MapBattle
from campaign.models import Battle, BattleStatus, Campaign, RoundStatus


def battles_on_map(*, campaign: Campaign) -> list[MapBattle]:
    """Every published battle of the open round over a sector, in the order they were made (one query).

    Only who attacks whom where: a battle's status and result stay off the map, so a result the campaign
    hides until the round closes changes nothing there.
    """
    battles = (
        Battle.objects.filter(campaign=campaign, round__status=RoundStatus.OPEN, sector__isnull=False)
        .exclude(status__in=[BattleStatus.DRAFT, BattleStatus.VOID])
        .select_related("sector", "attacker__player", "defender__player")
        .order_by("pk")
    )
    return [
        MapBattle(
            sector=battle.sector.key,
            attacker=battle.attacker.display_name,
            attacker_bloc=Bloc(battle.attacker_bloc),
            defender=battle.defender.display_name,
            defender_bloc=Bloc(battle.defender_bloc),
        )
        for battle in battles
        if battle.sector is not None
    ]
