"""The one refusal ``apply`` raises: a stable code and a sentence naming the units."""

from __future__ import annotations

from core.errors import DomainError

# Every code ``apply`` may refuse a step with (docs/battle-engine.md explains each).
CODES = (
    "battle-over",
    "wrong-phase",
    "not-your-activation",
    "not-your-unit",
    "not-your-decision",
    "unknown-unit",
    "unit-already-activated",
    "unit-eliminated",
    "unit-in-reserve",
    "unit-not-eliminated",
    "actions-invalid",
    "first-action-nothing",
    "aircraft-must-move",
    "stunned-cannot-attack",
    "activation-open",
    "no-activation",
    "no-attack-left",
    "reaction-waiting",
    "no-reaction",
    "reaction-used",
    "reaction-not-triggered",
    "reaction-refused",
    "sustained-not-allowed",
    "target-friendly",
    "target-out-of-play",
    "pilot-not-a-target",
    "weapon-unknown",
    "weapon-repeated",
    "weapon-destroyed",
    "unit-immobilized",
    "close-combat-suppressed",
    "close-combat-in-reaction",
    "attack-invalid",
    "decision-waiting",
    "allocation-invalid",
    "pass-not-allowed",
    "turn-not-over",
    "not-initiative-winner",
    "reserve-not-allowed",
    "reserve-full",
    "reserve-hero",
    "reserve-strongpoint-unit",
    "reserve-with-squad",
    "reserve-too-late",
    "reserve-too-early",
    "no-special-left",
    "command-unavailable",
    "command-target-invalid",
    "command-no-effect",
    "target-enemy",
    "target-zombie",
    "target-not-activated",
    "unit-reactivated",
    "reactivation-waiting",
    "third-action-unavailable",
    "third-action-waiting",
    "dice-missing",
    "dice-both",
    "dice-too-few",
    "dice-too-many",
)


class StepRefused(DomainError):  # noqa: N818 (the name the issue gives it)
    """A step the rules do not allow now: ``code`` is stable, ``message`` a sentence for the players."""

    default_code = "step-refused"

    def __init__(self, code: str, message: str, field: str = "step") -> None:
        assert code in CODES, code
        super().__init__(code, message, field)
