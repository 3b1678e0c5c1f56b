"""The Dust 1947 / Return to Zverograd rules engine: plain Python, no Django.

Attack entry points (all keyword-only):

- ``resolve_attack(request=, ruleset=, seed=)`` rolls one attack -> ``AttackResult``
- ``attack_odds(request=, ruleset=)`` exact odds -> ``OddsResult`` (with the
  target's ``StrikeBackOdds`` in close combat by a known attacker)
- ``monte_carlo_odds(request=, ruleset=, trials=, seed=)`` sampled odds, a cross-check

``parse_attack_request(data, ruleset=)`` builds an ``AttackRequest`` from the
plain dict every caller sends (its shape is documented in ``requests``).
"""

from rules.engine.attack import resolve_attack, resolve_attack_with
from rules.engine.dice import DUST_DIE, DiceRoller, DieRecord, Face
from rules.engine.errors import EngineInputError
from rules.engine.exact import Distribution, OddsResult, StrikeBackOdds
from rules.engine.montecarlo import MonteCarloResult, monte_carlo_odds
from rules.engine.odds import attack_odds
from rules.engine.requests import AttackRequest, check_request, parse_attack_request
from rules.engine.results import AmmoState, AttackResult, SuppressionEffect, WeaponOutcome
from rules.engine.ruleset import RuleSet
from rules.engine.saves import SaveStage, SaveType, save_stages
from rules.engine.targets import (
    AircraftMove,
    Conditions,
    CriticalHit,
    Fortification,
    Height,
    Skill,
    Target,
)
from rules.engine.weapons import Cell, Weapon, WeaponKind, WeaponLine, WeaponTrait, parse_cell, parse_line

__all__ = [
    "DUST_DIE",
    "AircraftMove",
    "AmmoState",
    "AttackRequest",
    "AttackResult",
    "Cell",
    "Conditions",
    "CriticalHit",
    "DiceRoller",
    "DieRecord",
    "Distribution",
    "EngineInputError",
    "Face",
    "Fortification",
    "Height",
    "MonteCarloResult",
    "OddsResult",
    "RuleSet",
    "SaveStage",
    "SaveType",
    "Skill",
    "StrikeBackOdds",
    "SuppressionEffect",
    "Target",
    "Weapon",
    "WeaponKind",
    "WeaponLine",
    "WeaponOutcome",
    "WeaponTrait",
    "attack_odds",
    "check_request",
    "monte_carlo_odds",
    "parse_attack_request",
    "parse_cell",
    "parse_line",
    "resolve_attack",
    "resolve_attack_with",
    "save_stages",
]
