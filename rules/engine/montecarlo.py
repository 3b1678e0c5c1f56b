"""Monte Carlo odds: the same attack rolled many times, to cross-check the exact odds.

It rolls the compiled plan with the real dice code (``rolling``), so it checks
the exact odds and the resolver against each other. Like the exact odds it
covers the attacker's own attack: every declared die, no retaliation.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine.damage import models_left
from rules.engine.dice import DiceRoller
from rules.engine.errors import EngineInputError
from rules.engine.plan import build_plan
from rules.engine.requests import AttackRequest, check_request
from rules.engine.rolling import Tally, roll_cheat_death, roll_critical, roll_weapons
from rules.engine.ruleset import RuleSet
from rules.engine.state import is_whole

_MEANS = ("hits", "saved", "unsaved", "damage", "models_removed", "damage_removed")


@dataclass(frozen=True)
class MonteCarloResult:
    trials: int
    seed: int
    expected: dict[str, float]
    p_destroyed: float
    p_critical_hit: float
    p_cheat_death: float

    def to_dict(self) -> dict[str, object]:
        return {
            "trials": self.trials,
            "seed": self.seed,
            "expected": dict(self.expected),
            "p_destroyed": self.p_destroyed,
            "p_critical_hit": self.p_critical_hit,
            "p_cheat_death": self.p_cheat_death,
        }


def monte_carlo_odds(*, request: AttackRequest, ruleset: RuleSet, trials: int, seed: int) -> MonteCarloResult:
    if not is_whole(trials) or trials < 1:
        raise EngineInputError("trials", "must be a whole number of at least 1")
    check_request(request, ruleset)
    plan = build_plan(request, ruleset)
    roller = DiceRoller(seed=seed)
    sums = dict.fromkeys(_MEANS, 0)
    destroyed = criticals = cheats = 0
    for _ in range(trials):
        tally = Tally(remaining=plan.remaining)
        roll_weapons(plan.weapons, plan, roller, tally)
        final = tally.remaining
        if roll_critical(plan, roller, plan.remaining, final, plan.existing_criticals) is not None:
            criticals += 1
        if roll_cheat_death(plan, roller, final):
            cheats += 1
            final = 1
        for outcome in tally.outcomes:
            sums["hits"] += outcome.hits
            sums["saved"] += outcome.saved
            sums["unsaved"] += outcome.unsaved
            sums["damage"] += outcome.damage
        sums["models_removed"] += plan.models - models_left(final, plan.per_model)
        sums["damage_removed"] += plan.remaining - final
        destroyed += final <= 0
        roller.log.clear()  # only the counts matter here
    return MonteCarloResult(
        trials=trials,
        seed=seed,
        expected={name: total / trials for name, total in sums.items()},
        p_destroyed=destroyed / trials,
        p_critical_hit=criticals / trials,
        p_cheat_death=cheats / trials,
    )
