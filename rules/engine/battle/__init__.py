"""A whole battle as a pure function of its steps (docs/battle-engine.md).

- ``setup_from_dict(data) -> BattleSetup``: the two forces, the mission, the rule set;
- steps (``steps``): frozen records with a ``kind`` and the side that made them,
  ``step_from_dict`` / ``step_to_dict`` their JSON;
- ``apply(setup, state, step) -> BattleState``, refusing with ``StepRefused(code, message)``;
  ``replay(setup, steps)`` folds them from ``initial_state(setup)``;
- ``legal_steps(setup, state)``: what may happen next;
- ``special`` steps: the command actions a unit's special actions give (``commands``);
- ``third-action`` steps: the roll of an ace for a third action (``third``);
- ``attack_request(setup, state, attack_step)``: the engine's request an attack would roll, for its odds;
- ``report_from_state(setup, state)``: what the battle report needs;
- ``first_roll(setup, state, step)``: the dice a step's first roll wants, before anything is rolled.
"""

from .actions import attack_request
from .apply import apply, replay
from .errors import CODES, StepRefused
from .legal import legal_steps
from .report import report_from_state, state_to_dict
from .rolls import counting, purpose_words
from .setup import SIDES, BattleSetup, Mission, SideSetup, UnitSetup, setup_from_dict
from .state import BattleState, Phase, initial_state
from .steps import (
    Action,
    Activate,
    Allocate,
    Attack,
    AttackConditions,
    ChooseFirst,
    Command,
    Concede,
    EndActivation,
    EndTurn,
    Escape,
    HoldFire,
    Initiative,
    MissionScore,
    Pass,
    PlaceInReserve,
    Reactive,
    Special,
    Step,
    ThirdAction,
    WeaponUse,
    step_from_dict,
    step_to_dict,
    with_seed,
)
from .wanted import DiceWanted, first_roll

__all__ = [
    "CODES",
    "SIDES",
    "Action",
    "Activate",
    "Allocate",
    "Attack",
    "AttackConditions",
    "BattleSetup",
    "BattleState",
    "ChooseFirst",
    "Command",
    "Concede",
    "DiceWanted",
    "EndActivation",
    "EndTurn",
    "Escape",
    "HoldFire",
    "Initiative",
    "Mission",
    "MissionScore",
    "Pass",
    "Phase",
    "PlaceInReserve",
    "Reactive",
    "SideSetup",
    "Special",
    "Step",
    "StepRefused",
    "ThirdAction",
    "UnitSetup",
    "WeaponUse",
    "apply",
    "attack_request",
    "counting",
    "first_roll",
    "initial_state",
    "legal_steps",
    "purpose_words",
    "replay",
    "report_from_state",
    "setup_from_dict",
    "state_to_dict",
    "step_from_dict",
    "step_to_dict",
    "with_seed",
]
