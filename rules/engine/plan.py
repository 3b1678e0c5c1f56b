"""An attack request compiled into the numbers every resolver needs.

The dice roller (``attack``), the exact odds (``odds``) and the Monte Carlo
cross-check all read the same ``AttackPlan``, so they cannot disagree on a
rule: how many dice, which faces hit, what is re-rolled, which save stages,
how much damage per hit and how much of it Damage Resilient rolls for.
Plans are cached: the calculator asks the same question many times.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache

from rules.engine.damage import can_cheat_death, hit_damage, is_resilient, resilient_dice, takes_criticals
from rules.engine.dice import BLOC_ONLY, BLOC_OR_TARGET, DUST_DIE, FaceSet
from rules.engine.requests import AttackRequest
from rules.engine.ruleset import RuleSet
from rules.engine.saves import SaveStage, save_stages, unsaved_probability
from rules.engine.targets import SUPPRESSION_IMMUNE, CriticalHit, Skill, Target
from rules.engine.weapons import SUPPRESSING_KINDS, Cell, Weapon, WeaponKind, WeaponTrait

# Follow-up dice of lasers and cutting weapons hit on [BLOC] only, whatever the first roll used.
FOLLOW_UP_FACES: FaceSet = BLOC_ONLY


@dataclass(frozen=True)
class WeaponPlan:
    index: int  # position in the request's weapons
    tag: str  # prefix of this weapon's dice in the log
    name: str
    kind: WeaponKind
    close_combat: bool
    dice: int
    hit_faces: FaceSet
    reroll_misses: bool
    reroll_hits: bool  # the attacker's targeting system is damaged (a critical hit)
    chain: bool
    stages: tuple[SaveStage, ...]
    damage: int
    resilient: int  # damage points of each hit that Damage Resilient rolls for (0: none)
    snipe: bool
    suppresses: bool  # hits suppress outright (flame weapons, And Stay Down)

    @cached_property
    def first_hit(self) -> Fraction:
        """Chance that one die of the first roll ends up a hit, forced re-roll of a hit and re-roll of a
        miss included (a die is re-rolled once at most)."""
        p = DUST_DIE.probability(self.hit_faces)
        kept = p * p if self.reroll_hits else p
        return kept + (1 - p) * p if self.reroll_misses else kept

    @cached_property
    def unsaved(self) -> Fraction:
        return unsaved_probability(self.stages)


@dataclass(frozen=True)
class AttackPlan:
    weapons: tuple[WeaponPlan, ...]  # in resolution order: ranged lines, then close combat
    per_model: int
    remaining: int
    models: int
    cheat_death: bool
    criticals: bool
    existing_criticals: frozenset[CriticalHit]
    suppression_immune: bool

    @property
    def ranged(self) -> tuple[WeaponPlan, ...]:
        return tuple(weapon for weapon in self.weapons if not weapon.close_combat)

    @property
    def melee(self) -> tuple[WeaponPlan, ...]:
        return tuple(weapon for weapon in self.weapons if weapon.close_combat)


@lru_cache(maxsize=1024)
def build_plan(request: AttackRequest, ruleset: RuleSet) -> AttackPlan:
    """Compile a checked request (see ``requests.check_request``)."""
    target = request.target
    plans = [_weapon_plan(i, weapon, request, ruleset) for i, weapon in enumerate(request.weapons)]
    # Ranged attacks are resolved, and their casualties removed, before close combat (seed 004).
    ordered = sorted(plans, key=lambda plan: plan.close_combat)
    return AttackPlan(
        weapons=tuple(ordered),
        per_model=target.damage_per_model,
        remaining=target.remaining,
        models=target.models,
        cheat_death=can_cheat_death(target),
        criticals=takes_criticals(target),
        existing_criticals=target.critical_hits,
        suppression_immune=bool(target.skills & SUPPRESSION_IMMUNE),
    )


def _weapon_plan(index: int, weapon: Weapon, request: AttackRequest, ruleset: RuleSet) -> WeaponPlan:
    target = request.target
    cell = weapon.line.cell(target.unit_class, target.armour)
    if cell is None:  # check_request refuses these; a plan is never built for one
        raise AssertionError(f"weapons[{index}] cannot target this unit")
    sustained = _sustained(weapon, request)
    damage = hit_damage(cell, target)
    resilient = 0
    if is_resilient(target, close_combat=weapon.close_combat, ruleset=ruleset):
        resilient = resilient_dice(damage, automatic_kill=cell.automatic_kill, ruleset=ruleset)
    attacker = request.attacker
    stay_down = attacker is not None and attacker.has(Skill.AND_STAY_DOWN) and not weapon.close_combat
    # Seed 004, Critical hits: a damaged targeting system re-rolls every hit of the first roll and never
    # re-rolls the misses of a sustained attack.
    blind = attacker is not None and CriticalHit.TARGETING_SYSTEM_DAMAGED in attacker.critical_hits
    return WeaponPlan(
        index=index,
        tag=f"weapons[{index}]",
        name=weapon.name,
        kind=weapon.kind,
        close_combat=weapon.close_combat,
        dice=dice_count(weapon, cell, target),
        hit_faces=_hit_faces(weapon, request, sustained),
        reroll_misses=(sustained and not blind) or _lone_wire_guided(weapon, request),
        reroll_hits=blind,
        chain=weapon.chains,
        stages=save_stages(
            kind=weapon.kind,
            close_combat=weapon.close_combat,
            target=target,
            conditions=request.conditions,
            ruleset=ruleset,
        ),
        damage=damage,
        resilient=resilient,
        snipe=weapon.snipe,
        suppresses=weapon.kind in SUPPRESSING_KINDS or stay_down,
    )


def dice_count(weapon: Weapon, cell: Cell, target: Target) -> int:
    """Dice this line rolls: its cell (per model for blasts) times the models firing it.

    A blast rolls its B dice for each infantry model it covers; a vehicle or an
    aircraft is one model. Salvo doubles, volley multiplies by rockets fired.
    """
    per_line = cell.dice
    if cell.blast:
        covered = weapon.models_touched if weapon.models_touched is not None else target.models
        per_line = cell.dice * (covered if target.is_infantry else 1)
    dice = per_line * weapon.count
    if weapon.fire_salvo:
        dice *= 2
    if WeaponTrait.VOLLEY in weapon.traits:
        dice *= weapon.volley
    return dice


def _sustained(weapon: Weapon, request: AttackRequest) -> bool:
    """Whether this line re-rolls its misses as part of a sustained attack."""
    if not request.sustained or weapon.close_combat != request.sustained_close_combat:
        return False
    attacker = request.attacker
    # Light infantry flamers carry too little fuel to sustain fire (seed 001, Flame Weapons).
    short_fuel = (
        weapon.kind is WeaponKind.FLAME
        and attacker is not None
        and attacker.is_infantry
        and attacker.armour <= 2
    )
    return not short_fuel


def _lone_wire_guided(weapon: Weapon, request: AttackRequest) -> bool:
    """A plain attack with one wire-guided weapon and nothing else re-rolls its misses (seed 001)."""
    return (
        weapon.kind is WeaponKind.WIRE_GUIDED
        and not request.sustained
        and len(request.weapons) == 1
        and weapon.count == 1
    )


def _hit_faces(weapon: Weapon, request: AttackRequest, sustained: bool) -> FaceSet:
    wide = (
        weapon.expert
        or weapon.savage_animal
        or request.fighting_spirit
        or (sustained and WeaponTrait.POWER_SCOPE in weapon.traits)
        or (sustained and request.spotter and weapon.kind is WeaponKind.SNIPER)
    )
    return BLOC_OR_TARGET if wide else BLOC_ONLY
