"""The open round's battles as the map draws them (plain data for ``campaign.engine.svg``)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from armies.blocs import Bloc
from campaign.engine.svg import MapBattle
from campaign.models import Battle, BattleStatus, Campaign, RoundStatus
from campaign.selectors.names import place_name
from core.compiled import CompiledRows

# A bloc by its stored value, as Bloc(value) gives it at a fifth of the cost (500 sides a page).
_BLOCS = {bloc.value: bloc for bloc in Bloc}


def _on_map(campaign: int) -> QuerySet[Battle, tuple[Any, ...]]:
    return (
        Battle.objects.filter(campaign_id=campaign, round__status=RoundStatus.OPEN, sector__isnull=False)
        .exclude(status__in=[BattleStatus.DRAFT, BattleStatus.VOID])
        .annotate(attacker_name=place_name("attacker__"), defender_name=place_name("defender__"))
        .order_by("pk")
        .values_list("sector__key", "attacker_name", "attacker_bloc", "defender_name", "defender_bloc")
    )


_ON_MAP = CompiledRows(_on_map, "campaign")


def battles_on_map(*, campaign: Campaign) -> list[MapBattle]:
    """Every published battle of the open round over a sector, in the order they were made (one query,
    compiled once per thread: ``core.compiled``).

    Only who attacks whom where: a battle's status and result stay off the map, so a result the campaign
    hides until the round closes changes nothing there. Read as five columns, not as battles with their
    sectors, places and accounts (250 battles: 1,500 rows the map never looks at).
    """
    rows = _ON_MAP.converted(_ON_MAP.raw(campaign=campaign.pk))
    return [
        MapBattle(sector=sector, attacker=attacker, attacker_bloc=_BLOCS[attacker_bloc],
                  defender=defender, defender_bloc=_BLOCS[defender_bloc])
        for sector, attacker, attacker_bloc, defender, defender_bloc in rows
    ]  # fmt: skip
