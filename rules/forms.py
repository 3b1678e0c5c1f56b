"""The odds calculator's form: who fires what, at whom, where, under which rules.

The form only collects and checks the inputs; ``rules.calculator`` turns its
cleaned data into the referee request and puts the engine's complaints back
next to the right input (``calculator.add_engine_error``).

The attacker's weapon rows depend on the unit picked, so they are added per
unit (``w<i>_use``, ``w<i>_count``...). A hidden ``weapons_for`` says which unit
the submitted rows belong to: when the unit changes, the rows start again from
the unit card's defaults instead of keeping another unit's choices.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.forms import BoundField
from django.http import QueryDict
from django.urls import reverse

from armies.models import Unit
from core.fields import BoundedMultipleChoiceField
from rules.catalogue import CatalogueWeapon, unit_skills, unit_target, unit_weapons
from rules.engine import EngineInputError, WeaponKind, WeaponTrait
from rules.engine.requests import (
    MAX_AMMO,
    MAX_CELL_LENGTH,
    MAX_COUNT,
    MAX_DAMAGE_PER_MODEL,
    MAX_DISTANCE,
    MAX_MODELS,
    MAX_NAME_LENGTH,
    MAX_SKILLS,
    MAX_TRAITS,
)
from rules.engine.ruleset import SWITCHES
from rules.engine.state import ARMOUR_RANGE, UnitKind
from rules.engine.targets import BATTLE_ONLY_SKILLS, AircraftMove, Fortification, Height, Skill
from rules.engine.weather import Severity
from rules.selectors import OddsChoices

CATALOGUE, MANUAL = "catalogue", "manual"
SOURCES = [(CATALOGUE, "From the catalogue"), (MANUAL, "Type it in")]
UNIT_CLASSES = [("infantry", "Infantry"), ("vehicle", "Vehicle"), ("aircraft", "Aircraft")]
ARMOURS = [(str(n), str(n)) for n in range(1, 8)]
WEAPON_KINDS = [(kind.value, kind.value.replace("_", " ").capitalize()) for kind in WeaponKind]
WEAPON_KINDS = [choice for choice in WEAPON_KINDS if choice[0] != WeaponKind.IMPROVISED.value]
TRAITS = [(trait.value, trait.value.replace("_", " ").capitalize()) for trait in WeaponTrait]
SKILL_CHOICES = [
    (skill.value, skill.value.replace("_", " ").capitalize())
    for skill in Skill
    if skill not in BATTLE_ONLY_SKILLS
]
RULESETS = [("rtz", "Return to Zverograd"), ("rulebook", "Rulebook")]
SWITCH_LABELS: Mapping[str, str] = {
    name: name.removesuffix("_rtz").replace("_", " ").capitalize() for name in SWITCHES
}

# Pickers that redraw parts of the form when they change (see views.REFRESHES).
REFRESHING = {"catalogue": "catalogue", "attacker_unit": "attacker", "target_unit": "target"}
# Row fields per weapon of the picked unit; which ones a row shows depends on its traits.
ROW_FIELDS = ("use", "count", "expert", "fire_salvo", "ammo", "volley")


def _number(
    label: str, *, high: int, low: int = 0, required: bool = False, help_text: str = ""
) -> forms.IntegerField:
    """A whole number from ``low`` to ``high``: the engine's bound, so the form refuses what it would."""
    return forms.IntegerField(
        label=label,
        min_value=low,
        max_value=high,
        required=required,
        help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def _line_length(kind: UnitKind) -> int:
    """Room for one cell per armour of the class, and a separator after each."""
    return ARMOUR_RANGE[kind][1] * (MAX_CELL_LENGTH + 1)


def _flag(label: str, help_text: str = "", *, initial: bool = False) -> forms.BooleanField:
    return forms.BooleanField(label=label, required=False, help_text=help_text, initial=initial)


def _radio(choices: list[tuple[str, str]], label: str, initial: str) -> forms.ChoiceField:
    return forms.ChoiceField(label=label, choices=choices, initial=initial, widget=forms.RadioSelect)


def _select(choices: list[tuple[str, str]], label: str, initial: str = "") -> forms.ChoiceField:
    return forms.ChoiceField(label=label, choices=choices, initial=initial, required=False)


@dataclass(frozen=True)
class WeaponRow:
    """One weapon of the picked unit, with its inputs and what it does against the target."""

    weapon: CatalogueWeapon
    fields: dict[str, BoundField]
    cell: str | None  # its cell against the current target, None when no target is known

    @property
    def prefix(self) -> str:
        return f"w{self.weapon.index}"

    @property
    def can_fire(self) -> bool:
        return self.cell != "-"

    @property
    def meta(self) -> list[str]:
        """What the card says about the weapon, in words: range, mount, kind, ammunition."""
        weapon = self.weapon
        words = ["close combat" if weapon.close_combat else f"range {weapon.range or '?'}"]
        if weapon.mount:
            words.append(weapon.mount.lower())
        if weapon.kind is not WeaponKind.STANDARD:
            words.append(_words(weapon.kind.value))
        words += [_words(trait) for trait in weapon.weapon["traits"]]
        return words


class OddsForm(forms.Form):
    ruleset = _radio(RULESETS, "Rule set", "rtz")

    catalogue = forms.ChoiceField(label="Catalogue", required=False)
    attacker_source = _radio(SOURCES, "Attacker", CATALOGUE)
    attacker_unit = forms.ChoiceField(label="Attacking unit", required=False)
    weapons_for = forms.CharField(required=False, widget=forms.HiddenInput)
    action = _radio([("attack", "Attack"), ("sustained_attack", "Sustained attack")], "Action", "attack")
    fighting_spirit = _flag("Fighting Spirit", "Spend it: hits on bloc or target faces.")
    spotter = _flag("Spotter holds fire", "A spotter in the unit helps its sniper in a sustained attack.")
    sustained_close_combat = _flag(
        "Sustain close combat", "A sustained attack re-rolls the close-combat weapons instead of the ranged."
    )

    m_name = forms.CharField(label="Weapon", max_length=MAX_NAME_LENGTH, required=False, initial="My weapon")
    m_kind = _select(WEAPON_KINDS, "Kind", WeaponKind.STANDARD.value)
    m_traits = BoundedMultipleChoiceField(
        label="Ammunition",
        choices=TRAITS,
        max_items=MAX_TRAITS,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    m_count = _number("Models firing", low=1, high=MAX_COUNT, help_text="How many models fire this line.")
    m_infantry = forms.CharField(
        label="vs infantry", max_length=_line_length(UnitKind.INFANTRY), required=False
    )
    m_vehicle = forms.CharField(
        label="vs vehicles", max_length=_line_length(UnitKind.VEHICLE), required=False
    )
    m_aircraft = forms.CharField(
        label="vs aircraft", max_length=_line_length(UnitKind.AIRCRAFT), required=False
    )
    m_close_combat = _flag("Close combat (range C)")
    m_expert = _flag("Expert")
    m_fire_salvo = _flag("Fire a salvo")
    m_ammo = _number("Ammo boxes left", high=MAX_AMMO)
    m_volley = _number("Rockets fired", high=MAX_AMMO, help_text="Volley weapons: how many to fire now.")
    m_attacker_class = _select([("", "Not given"), *UNIT_CLASSES], "Firing unit")
    m_attacker_armour = _select([("", "-"), *ARMOURS[:7]], "Its armour")

    target_source = _radio(SOURCES, "Target", CATALOGUE)
    target_unit = forms.ChoiceField(label="Target unit", required=False)
    t_class = _select(UNIT_CLASSES, "Class", "infantry")
    t_armour = _select(ARMOURS, "Armour", "1")
    t_models = _number("Models", low=1, high=MAX_MODELS)
    t_damage = _number(
        "Damage each",
        low=1,
        high=MAX_DAMAGE_PER_MODEL,
        help_text="1 for soldiers; the damage track of a hero or vehicle.",
    )
    t_hero = _flag("Hero")
    t_skills = BoundedMultipleChoiceField(
        label="Skills",
        choices=SKILL_CHOICES,
        max_items=MAX_SKILLS,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    models_left = _number("Models left", low=1, high=MAX_MODELS, help_text="Empty: a full unit.")
    damage_taken = _number(
        "Damage taken", high=MAX_DAMAGE_PER_MODEL - 1, help_text="On the model being worn down."
    )

    in_cover = _flag("In cover")
    in_smoke = _flag("In smoke")
    in_trench = _flag("In a trench")
    fortification = _select([(f.value, f.value.capitalize()) for f in Fortification], "Fortification", "none")
    height = _select(
        [
            (Height.LEVEL.value, "Level"),
            (Height.ATTACKER_HIGHER.value, "Attacker higher"),
            (Height.TARGET_HIGHER.value, "Target higher"),
        ],
        "Height",
        Height.LEVEL.value,
    )
    weather = _select(
        [("none", "Clear"), *((s.value, s.value.capitalize()) for s in Severity)], "Weather", "none"
    )
    distance = _number("Range to target", low=1, high=MAX_DISTANCE, help_text="Needed with weather.")
    aircraft_move = _select(
        [
            (AircraftMove.NONE.value, "Did not move"),
            (AircraftMove.MOVE.value, "Moved"),
            (AircraftMove.MARCH.value, "Marched"),
        ],
        "Aircraft moved",
        AircraftMove.NONE.value,
    )

    def __init__(self, data: QueryDict | None = None, *, choices: OddsChoices | None = None) -> None:
        """``choices`` (catalogues, units, the picked ones) come from the view (``rules.selectors``)."""
        choices = choices or OddsChoices()
        self.catalogues = choices.catalogues
        self.chosen_catalogue = choices.catalogue
        self.units = choices.units
        self.attacker = choices.attacker
        self.target = choices.target
        self.catalogue_weapons: list[CatalogueWeapon] = []
        self.unit_problem: dict[str, str] = {}
        if self.attacker is not None:
            try:
                self.catalogue_weapons = unit_weapons(self.attacker)
            except EngineInputError as exc:
                self.unit_problem["attacker_unit"] = f"This unit's card cannot be read ({exc})."
        if data is not None:
            data = self._with_row_defaults(data, self._target_profile(data))
        super().__init__(data)
        self._set_choices()
        self._add_rows()
        self._describe_widgets()
        if data is None:
            self._set_initial()

    # -- choices and rows --------------------------------------------------

    def _set_choices(self) -> None:
        self._choice_field("catalogue").choices = [(str(c.pk), str(c)) for c in self.catalogues]
        groups: dict[str, list[tuple[str, str]]] = {}
        for unit in self.units:
            groups.setdefault(unit.bloc or "Other", []).append(
                (str(unit.pk), f"{unit.name} · {unit.armour_label}")
            )
        choices: list[Any] = [("", "Pick a unit…"), *groups.items()]
        self._choice_field("attacker_unit").choices = choices
        self._choice_field("target_unit").choices = choices

    def _choice_field(self, name: str) -> forms.ChoiceField:
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)
        return field

    def _set_initial(self) -> None:
        if self.chosen_catalogue is not None:
            self.initial["catalogue"] = str(self.chosen_catalogue.pk)
        else:
            self.initial["attacker_source"] = MANUAL
            self.initial["target_source"] = MANUAL
        self.initial.setdefault("m_count", 1)
        self.initial.setdefault("t_models", 1)
        self.initial.setdefault("t_damage", 1)
        for name in SWITCHES:
            self.initial.setdefault(name, True)

    def _with_row_defaults(self, data: QueryDict, target: dict[str, Any] | None) -> QueryDict:
        """Submitted data, with the weapon rows reset to the card when they belong to another unit."""
        unit_key = str(self.attacker.pk) if self.attacker is not None else ""
        if data.get("weapons_for", "") == unit_key:
            return data
        fresh = data.copy()
        for key in list(fresh):
            if key.startswith("w") and key[1:].split("_", 1)[0].isdigit():
                del fresh[key]
        for name, value in self._row_defaults(target).items():
            if value is True:
                fresh[name] = "on"
            elif value not in (None, False):
                fresh[name] = str(value)
        fresh["weapons_for"] = unit_key
        return fresh

    def _row_defaults(self, target: dict[str, Any] | None) -> dict[str, Any]:
        ranged = [w for w in self.catalogue_weapons if not w.close_combat]
        defaults: dict[str, Any] = {}
        for weapon in self.catalogue_weapons:
            prefix = f"w{weapon.index}"
            usable = target is None or weapon.can_target(target["unit_class"], target["armour"])
            # A unit fires its ranged weapons together; close combat is the player's call.
            defaults[f"{prefix}_use"] = usable and (weapon in ranged or not ranged)
            defaults[f"{prefix}_count"] = weapon.default_count
            defaults[f"{prefix}_expert"] = weapon.weapon["expert"]
            defaults[f"{prefix}_ammo"] = weapon.default_ammo
            defaults[f"{prefix}_volley"] = 1 if WeaponTrait.VOLLEY in weapon.traits else None
        return defaults

    def _add_rows(self) -> None:
        for weapon in self.catalogue_weapons:
            prefix = f"w{weapon.index}"
            self.fields[f"{prefix}_use"] = _flag(weapon.name)
            self.fields[f"{prefix}_count"] = _number("Firing", low=1, high=MAX_COUNT)
            self.fields[f"{prefix}_expert"] = _flag("Expert")
            traits = weapon.traits
            if WeaponTrait.SALVO in traits:
                self.fields[f"{prefix}_fire_salvo"] = _flag("Fire a salvo")
            if weapon.uses_ammo:
                self.fields[f"{prefix}_ammo"] = _number("Ammo left", high=MAX_AMMO)
            if WeaponTrait.VOLLEY in traits:
                self.fields[f"{prefix}_volley"] = _number("Fire now", low=1, high=MAX_AMMO)

    def _describe_widgets(self) -> None:
        """Point every input at its help and its error slot, which htmx refills in place.

        The catalogue and unit pickers also ask for the parts of the form they
        change (unit lists, weapon rows), and stop the form's own change
        request, which would not redraw them.
        """
        for name, field in self.fields.items():
            described = [f"id_{name}_helptext"] if field.help_text else []
            field.widget.attrs["aria-describedby"] = " ".join([*described, f"err-{name}"])
        for name, refresh in REFRESHING.items():
            self.fields[name].widget.attrs.update(
                {
                    "hx-get": reverse("rules:odds"),
                    "hx-include": "#odds-form",
                    "hx-target": "#odds-result",
                    "hx-trigger": "change consume",
                    "hx-vals": json.dumps({"refresh": refresh}),
                    "hx-replace-url": "true",
                }
            )

    # -- what the templates show -------------------------------------------

    def error_slots(self) -> list[tuple[str, list[str]]]:
        """(field name, its errors) for every input, and ``__all__``, so stale errors get cleared."""
        errors: Mapping[str, Any] = self.errors if self.is_bound else {}
        names = [
            name for name in self.field_names() if name == "__all__" or not self.fields[name].widget.is_hidden
        ]
        return [(name, list(errors.get(name, []))) for name in names]

    @property
    def weapon_rows(self) -> list[WeaponRow]:
        target = self._target_profile(self.data if self.is_bound else None)
        rows = []
        for weapon in self.catalogue_weapons:
            prefix = f"w{weapon.index}"
            fields = {
                name: self[f"{prefix}_{name}"] for name in ROW_FIELDS if f"{prefix}_{name}" in self.fields
            }
            cell = None
            if target is not None:
                cells = weapon.weapon["line"][target["unit_class"]]
                cell = cells[target["armour"] - 1] if target["armour"] <= len(cells) else "-"
            rows.append(WeaponRow(weapon=weapon, fields=fields, cell=cell))
        return rows

    @property
    def attacker_has(self) -> dict[str, bool]:
        """Which attack toggles mean something for the picked unit (all of them when typed in)."""
        if self.attacker is None:
            return {"fighting_spirit": True, "spotter": True, "sustained_close_combat": True}
        skills, _ = _safe_skills(self.attacker)
        melee = any(w.close_combat for w in self.catalogue_weapons)
        return {
            "fighting_spirit": "fighting_spirit" in skills,
            "spotter": any(w.kind is WeaponKind.SNIPER for w in self.catalogue_weapons),
            "sustained_close_combat": melee and any(not w.close_combat for w in self.catalogue_weapons),
        }

    @property
    def target_summary(self) -> dict[str, Any] | None:
        if self.target is None:
            return None
        try:
            profile = unit_target(self.target)
        except EngineInputError as exc:
            return {"problem": str(exc)}
        _, unmapped = _safe_skills(self.target)
        models = profile["models"]
        facts = [
            f"{profile['unit_class'].capitalize()} {profile['armour']}",
            f"{models} model{'' if models == 1 else 's'} × {profile['damage_per_model']} damage",
            *(["hero"] if profile["hero"] else []),
            *(_words(skill).capitalize() for skill in profile["skills"]),
        ]
        return {"unit": self.target, "profile": profile, "facts": facts, "unmapped": unmapped}

    @property
    def attacker_unmapped(self) -> list[str]:
        names = sorted({special for weapon in self.catalogue_weapons for special in weapon.unmapped})
        if self.attacker is not None:
            names += _safe_skills(self.attacker)[1]
        return names

    def switch_fields(self) -> list[BoundField]:
        return [self[name] for name in SWITCHES]

    def field_names(self) -> list[str]:
        return [*self.fields, "__all__"]

    # -- the engine's view of the target, when the form already says it ----

    def _target_profile(self, data: Mapping[str, Any] | None) -> dict[str, Any] | None:
        """Class and armour of the target as currently chosen, for the rows' cells and defaults."""
        data = data or {}
        source = data.get("target_source", CATALOGUE)
        if source == CATALOGUE:
            if self.target is None:
                return None
            try:
                return unit_target(self.target)
            except EngineInputError:
                return None
        unit_class = data.get("t_class", "infantry")
        armour = data.get("t_armour", "1")
        if unit_class not in {"infantry", "vehicle", "aircraft"} or not str(armour).isdigit():
            return None
        return {"unit_class": unit_class, "armour": int(armour)}

    # -- errors --------------------------------------------------------------

    def add_problem(self, field: str | None, message: str) -> None:
        if field is not None and field not in self.fields:
            field = None
        self.add_error(field, message)


def _words(name: str) -> str:
    return name.replace("_", " ")


def _safe_skills(unit: Unit) -> tuple[list[str], list[str]]:
    try:
        return unit_skills(unit)
    except EngineInputError:
        return [], []


SWITCH_FIELDS = list(SWITCHES)
for _switch in SWITCHES:
    OddsForm.base_fields[_switch] = _flag(SWITCH_LABELS[_switch], SWITCHES[_switch])
