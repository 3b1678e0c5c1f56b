"""What a resolved attack reports, every part of it ready for JSON."""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine.dice import DieRecord
from rules.engine.ruleset import RuleSet
from rules.engine.targets import CriticalHit


@dataclass(frozen=True)
class WeaponOutcome:
    index: int
    name: str
    dice: int
    hits: int
    saved: int
    unsaved: int
    damage: int  # damage of its unsaved hits after Damage Resilient, before losses are capped
    resisted: int  # damage points Damage Resilient negated

    def to_dict(self) -> dict[str, object]:
        return {
            "index": self.index,
            "name": self.name,
            "dice": self.dice,
            "hits": self.hits,
            "saved": self.saved,
            "unsaved": self.unsaved,
            "damage": self.damage,
            "resisted": self.resisted,
        }


@dataclass(frozen=True)
class SuppressionEffect:
    """What the attack asks the suppression rules to do to the target.

    ``hit``: at least one hit from a ranged weapon (saved or not), which is what
    makes a unit take suppression; ``automatic``: a flame weapon or And Stay
    Down hit, which suppresses outright; ``close_combat``: the target was hit
    in close combat only, which never suppresses. The suppression module
    rolls and applies it (see ``suppression.apply_hit``).
    """

    hit: bool
    automatic: bool
    close_combat: bool
    immune: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "hit": self.hit,
            "automatic": self.automatic,
            "close_combat": self.close_combat,
            "immune": self.immune,
        }


@dataclass(frozen=True)
class AmmoState:
    """A weapon's ammunition after the attack (None: the weapon does not track it)."""

    index: int
    name: str
    ammo: int | None
    loaded: bool | None

    def to_dict(self) -> dict[str, object]:
        return {"index": self.index, "name": self.name, "ammo": self.ammo, "loaded": self.loaded}


@dataclass(frozen=True)
class AttackResult:
    seed: int
    ruleset: RuleSet
    weapons: tuple[WeaponOutcome, ...]
    models_removed: int
    damage_removed: int
    destroyed: bool
    models_left: int
    damage_taken: int  # on the model now being worn down
    suppression: SuppressionEffect
    stunned: bool
    grappled: bool
    critical_hit: CriticalHit | None
    cheat_death: bool | None  # None: not rolled; True: the hero came back
    ammo: tuple[AmmoState, ...]
    retaliation: AttackResult | None
    log: tuple[DieRecord, ...]

    @property
    def hits(self) -> int:
        return sum(weapon.hits for weapon in self.weapons)

    @property
    def saved(self) -> int:
        return sum(weapon.saved for weapon in self.weapons)

    @property
    def unsaved(self) -> int:
        return sum(weapon.unsaved for weapon in self.weapons)

    @property
    def damage(self) -> int:
        return sum(weapon.damage for weapon in self.weapons)

    @property
    def resisted(self) -> int:
        return sum(weapon.resisted for weapon in self.weapons)

    def to_dict(self) -> dict[str, object]:
        return {
            "seed": self.seed,
            "ruleset": self.ruleset.to_dict(),
            "hits": self.hits,
            "saved": self.saved,
            "unsaved": self.unsaved,
            "damage": self.damage,
            "resisted": self.resisted,
            "models_removed": self.models_removed,
            "damage_removed": self.damage_removed,
            "destroyed": self.destroyed,
            "models_left": self.models_left,
            "damage_taken": self.damage_taken,
            "suppression": self.suppression.to_dict(),
            "stunned": self.stunned,
            "grappled": self.grappled,
            "critical_hit": None if self.critical_hit is None else self.critical_hit.value,
            "cheat_death": self.cheat_death,
            "weapons": [weapon.to_dict() for weapon in self.weapons],
            "ammo": [state.to_dict() for state in self.ammo],
            "retaliation": None if self.retaliation is None else self.retaliation.to_dict(),
            "log": [record.to_dict() for record in self.log],
        }
