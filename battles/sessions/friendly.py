"""A friendly game outside any campaign: the setup from two army lists, frozen when both are known.

The starter plays the attacker with a list of their own. Either they name a second list of theirs for
the defender (one phone for both sides), or the opponent joins by the code with a list of their own,
and the setup is frozen then. No report is filed at the end: there is no campaign to file it in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from armies.models import ArmyList, Unit
from armies.selectors import army_list_plain, catalogue_for_list
from armies.validation.pricing import priced_entries
from battles.sessions.codes import create_session
from battles.sessions.models import BattleSession, SessionStatus
from battles.sessions.setup import build_setup, snapshot_units
from campaign.engine.missions import MISSIONS_BY_KEY, Mission
from campaign.services.registrations import UNIT_FIELDS
from core.errors import ConflictError, DomainError
from rules.engine.ruleset import NAMES


@dataclass(frozen=True)
class Snapshot:
    """What a registration freezes of a list, taken from an army list as it stands now."""

    document: dict[str, Any]
    profiles: list[dict[str, Any]]
    costs: dict[str, Any]


def list_snapshot(army_list: ArmyList) -> Snapshot:
    plain = army_list_plain(army_list=army_list)
    keys = {entry.unit for entry in plain.entries}
    rows = Unit.objects.filter(catalogue_id=army_list.catalogue_id, key__in=keys).order_by("key")
    profiles = [{name: getattr(row, name) for name in UNIT_FIELDS} for row in rows]
    costs = priced_entries(plain, catalogue_for_list(army_list=army_list)).to_dict()
    return Snapshot(document=army_list.content, profiles=profiles, costs=costs)


def _mission(key: str) -> Mission:
    found = MISSIONS_BY_KEY.get(key)
    if found is None:
        raise DomainError("unknown-mission", f"choose one of: {', '.join(MISSIONS_BY_KEY)}", "mission")
    return found


def _own(army_list: ArmyList, actor: Any, field: str) -> None:
    if army_list.owner_id != actor.pk:
        raise DomainError("not-your-list", "a friendly game is played with lists of your own", field)


def _partial(mission: Mission, ruleset: str, player: str, snapshot: Snapshot) -> dict[str, Any]:
    """The setup's attacker and mission, waiting for the defender's list (``defender`` missing)."""
    return {
        "ruleset": {"name": ruleset},
        "mission": {"key": mission.key},
        "attacker": {"player": player, "units": snapshot_units("attacker", snapshot)},
    }  # fmt: skip


def _complete(partial: dict[str, Any], defender_name: str, defender: Snapshot) -> dict[str, Any]:
    """The whole setup, checked by the engine: the two sides and the mission in the engine's shape."""
    attacker = partial["attacker"]
    return build_setup(
        ruleset=partial["ruleset"], mission=_mission(partial["mission"]["key"]),
        players={"attacker": attacker["player"], "defender": defender_name},
        units={"attacker": attacker["units"], "defender": snapshot_units("defender", defender)},
    )  # fmt: skip


def session_start_friendly(
    *, actor: Any, attacker_list: ArmyList, defender_list: ArmyList | None, mission: str, ruleset: str
) -> BattleSession:
    """A friendly game: the starter's list as the attacker; with a second list of theirs as the defender,
    one phone plays both sides at once, else the session waits for the opponent to join with theirs."""
    if ruleset not in NAMES:
        raise DomainError("unknown-ruleset", f"choose one of: {', '.join(NAMES)}", "ruleset")
    chosen = _mission(mission)
    _own(attacker_list, actor, "attacker_list")
    setup = _partial(chosen, ruleset, actor.public_name, list_snapshot(attacker_list))
    one_phone = defender_list is not None
    if defender_list is not None:
        _own(defender_list, actor, "defender_list")
        setup = _complete(setup, actor.public_name, list_snapshot(defender_list))
    return create_session(
        setup=setup, attacker_player=actor, defender_player=actor if one_phone else None, created_by=actor
    )


@transaction.atomic
def session_join_friendly(*, session: BattleSession, actor: Any, army_list: ArmyList | None) -> BattleSession:
    """The opponent takes a friendly game's free side with a list of their own: the setup is frozen."""
    locked = BattleSession.objects.select_for_update().get(pk=session.pk)
    if locked.status != SessionStatus.OPEN or locked.defender_player_id is not None:
        raise ConflictError("session-full", "both sides of this game are taken", "code")
    if army_list is None:
        raise DomainError("required", "join a friendly game with one of your lists", "list")
    _own(army_list, actor, "list")
    locked.setup = _complete(locked.setup, actor.public_name, list_snapshot(army_list))
    locked.defender_player = actor
    locked.save(update_fields=["setup", "defender_player", "updated_at"])
    return locked
