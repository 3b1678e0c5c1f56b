"""The per-process cache of a session's setup and replayed state, keyed by (session, version).

Never the truth: the steps are. A state is kept under the number of live steps it folds, so a step
or an undo (a new version) misses the old entry, and a process that never saw the session replays it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from rules.engine.battle import BattleSetup, BattleState, replay, setup_from_dict, step_from_dict

_KEPT = 128  # sessions kept per process: a club night's tables, with room to spare
_setups: OrderedDict[str, BattleSetup] = OrderedDict()
_states: OrderedDict[tuple[str, int], BattleState] = OrderedDict()
_rolls: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()  # the dice each rolling step wants


def _keep(store: OrderedDict[Any, Any], key: Any, value: Any) -> None:
    store[key] = value
    store.move_to_end(key)
    while len(store) > _KEPT:
        store.popitem(last=False)


def key_of(session: Any) -> str:
    """A session's key: its id, code and creation time (a test database reuses ids)."""
    return f"{session.pk}:{session.code}:{session.created_at.timestamp()}"


def setup_of(key: str, data: Any) -> BattleSetup:
    """The session's setup (frozen), parsed once per process."""
    found = _setups.get(key)
    if found is None:
        found = setup_from_dict(data)
        _keep(_setups, key, found)
    return found


def state_of(key: str, version: int, setup: BattleSetup, steps: Iterable[Any] | None) -> BattleState | None:
    """The state after ``version`` live steps: kept, or replayed from ``steps`` (their JSON) when given."""
    found = _states.get((key, version))
    if found is None and steps is not None:
        found = replay(setup, [step_from_dict(data) for data in steps])
        _keep(_states, (key, version), found)
    return found


def remember(key: str, version: int, state: BattleState) -> None:
    _keep(_states, (key, version), state)


def rolls_of(key: str, version: int) -> dict[str, Any]:
    """The dice the rolling steps of ``version`` want (step JSON to ``first_roll``), filled by the caller."""
    found = _rolls.get((key, version))
    if found is None:
        found = {}
        _keep(_rolls, (key, version), found)
    return found


def forget_all() -> None:
    """For tests that prove a replay from the stored steps."""
    _setups.clear()
    _states.clear()
    _rolls.clear()
