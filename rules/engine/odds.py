"""Exact odds of an attack: distributions, expected values, chance to destroy.

``attack_odds`` checks and compiles the request like ``resolve_attack`` does,
refuses a computation too big to answer quickly (``budget``), and runs the
exact dynamic program (``exact``). A close-combat attack by a known attacker
also gets the odds of the target striking back (``strikeback``): the
attacker's losses, and, when the defender strikes first, the target's losses
from the attackers left standing. The hits, saves and damage distributions
always count every die the attacker declares.

Imports run one way: ``exact`` (the program and the result types) <-
``strikeback`` <- this module.
"""

from __future__ import annotations

from rules.engine.budget import check_odds_work
from rules.engine.distributions import clear_series_cache
from rules.engine.exact import QUANTITIES, Distribution, OddsResult, StrikeBackOdds, odds_of_plan
from rules.engine.plan import build_plan
from rules.engine.requests import AttackRequest, check_request
from rules.engine.ruleset import RuleSet
from rules.engine.strikeback import close_combat_odds

__all__ = [
    "QUANTITIES",
    "Distribution",
    "OddsResult",
    "StrikeBackOdds",
    "attack_odds",
    "clear_caches",
    "odds_of_plan",
]


def attack_odds(*, request: AttackRequest, ruleset: RuleSet) -> OddsResult:
    check_request(request, ruleset)
    plan = build_plan(request, ruleset)
    check_odds_work(request, ruleset, plan)
    if plan.melee and request.attacker is not None:
        return close_combat_odds(request, ruleset, plan)
    return odds_of_plan(plan)


def clear_caches() -> None:
    """Forget compiled plans and dice series (benchmarks time the work, not the cache)."""
    build_plan.cache_clear()
    clear_series_cache()
