"""The terms a list is checked under for one battle: its role, the mission's limits, the sector's fortification.

A defender in a fortified sector fields that fortification for free, up to
what the mission allows; the mission sets each side's reserve placements and
which fortifications the defender may buy; the battle's points limit and the
campaign's rules apply. The same validator that checks every list checks it.
"""

from __future__ import annotations

from typing import Literal

from armies import validation as v
from armies.selectors import catalogue_for_validation
from campaign.engine.map import Fortification
from campaign.engine.missions import DEFAULT_MISSION, MISSIONS_BY_KEY, Mission
from campaign.models import Battle, Registration
from campaign.services.registrations import campaign_terms

Side = Literal["attacker", "defender"]
_LADDER = (Fortification.STRONGPOINT, Fortification.BUNKER)


def mission_named(key: str) -> Mission:
    """The mission a battle's ``mission`` column names (the default one for a key no longer known)."""
    return MISSIONS_BY_KEY.get(key, DEFAULT_MISSION)


def battle_mission(battle: Battle) -> Mission:
    return mission_named(battle.mission)


def battle_terms(*, battle: Battle, side: Side) -> v.Terms:
    mission = battle_mission(battle)
    base = campaign_terms(campaign=battle.campaign, role=side, points_limit=battle.points_limit)
    granted: tuple[str, ...] = ()
    purchases: tuple[str, ...] = ()
    if side == "defender":
        held = Fortification(battle.sector.fortification) if battle.sector is not None else Fortification.NONE
        # The sector's fortification, as far as the mission lets a defender field one (a bunker where
        # only a strongpoint is allowed is fought as a strongpoint).
        if held == Fortification.BUNKER and mission.allows(Fortification.BUNKER):
            granted = (Fortification.BUNKER.value,)
        elif held != Fortification.NONE and mission.allows(Fortification.STRONGPOINT):
            granted = (Fortification.STRONGPOINT.value,)
        purchases = tuple(kind.value for kind in _LADDER if mission.allows(kind))
    return v.Terms(
        points_limit=base.points_limit,
        role=side,
        granted_fortifications=granted,  # type: ignore[arg-type]
        fortification_purchases=purchases,  # type: ignore[arg-type]
        rtz=base.rtz,
        reserve_limit=mission.attacker_reserves if side == "attacker" else mission.defender_reserves,
        catalogue_version=base.catalogue_version,
    )


def battle_list_check(*, battle: Battle, side: Side, registration: Registration) -> v.Verdict:
    """The verdict on a registered list fielded on ``side`` of ``battle`` (its frozen document, today's catalogue)."""
    plain = v.army_list_from_json(registration.document)
    # The snapshot keeps the charts it was registered with, though staff retired one since; its campaign's own
    # charts are among them.
    catalogue = catalogue_for_validation(
        catalogue=registration.catalogue, campaign_ids=(registration.campaign_id,)
    ).with_retired_charts
    return v.validate(plain, catalogue, battle_terms(battle=battle, side=side))
