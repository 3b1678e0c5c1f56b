"""Monte Carlo odds: the same attack rolled many times, to cross-check the exact odds.

Every trial is a real resolution (``attack``), strike back included, so it
checks the exact odds and the resolver against each other. One difference is
by definition: when the defender strikes first, the exact hits, saves and
damage count every die the attacker declares, while a rolled attack rolls only
the dice of the attackers left standing; the losses on both sides agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.engine.attack import resolve_attack_with
from rules.engine.dice import DiceRoller
from rules.engine.errors import EngineInputError
from rules.engine.requests import AttackRequest, check_request
from rules.engine.ruleset import RuleSet
from rules.engine.state import is_whole

_MEANS = ("hits", "saved", "unsaved", "damage", "models_removed", "damage_removed")
_BACK_MEANS = ("models_removed", "damage_removed")


@dataclass(frozen=True)
class MonteCarloResult:
    trials: int
    seed: int
    expected: dict[str, float]
    p_destroyed: float
    p_critical_hit: float
    p_cheat_death: float
    # The target's strike back, for close combat by a known attacker (empty otherwise).
    strike_back: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "trials": self.trials,
            "seed": self.seed,
            "expected": dict(self.expected),
            "p_destroyed": self.p_destroyed,
            "p_critical_hit": self.p_critical_hit,
            "p_cheat_death": self.p_cheat_death,
            "strike_back": dict(self.strike_back),
        }


def monte_carlo_odds(*, request: AttackRequest, ruleset: RuleSet, trials: int, seed: int) -> MonteCarloResult:
    if not is_whole(trials) or trials < 1:
        raise EngineInputError("trials", "must be a whole number of at least 1")
    check_request(request, ruleset)
    roller = DiceRoller(seed=seed)
    sums = dict.fromkeys(_MEANS, 0)
    back = dict.fromkeys(("strikes", "destroyed", *_BACK_MEANS), 0)
    destroyed = criticals = cheats = 0
    close_combat = request.attacker is not None and any(weapon.close_combat for weapon in request.weapons)
    for _ in range(trials):
        result = resolve_attack_with(request=request, ruleset=ruleset, roller=roller)
        roller.log.clear()  # only the counts matter here
        for outcome in result.weapons:
            sums["hits"] += outcome.hits
            sums["saved"] += outcome.saved
            sums["unsaved"] += outcome.unsaved
            sums["damage"] += outcome.damage
        sums["models_removed"] += result.models_removed
        sums["damage_removed"] += result.damage_removed
        destroyed += result.destroyed
        criticals += result.critical_hit is not None
        cheats += bool(result.cheat_death)
        if result.retaliation is not None:
            back["strikes"] += 1
            back["destroyed"] += result.retaliation.destroyed
            back["models_removed"] += result.retaliation.models_removed
            back["damage_removed"] += result.retaliation.damage_removed
    return MonteCarloResult(
        trials=trials,
        seed=seed,
        expected={name: total / trials for name, total in sums.items()},
        p_destroyed=destroyed / trials,
        p_critical_hit=criticals / trials,
        p_cheat_death=cheats / trials,
        strike_back={name: total / trials for name, total in back.items()} if close_combat else {},
    )
