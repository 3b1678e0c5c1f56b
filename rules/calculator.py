"""The odds calculator between its form and the referee: build the request, ask, present the answer.

``build_request`` turns a valid ``OddsForm`` into the referee request
(``{"attack", "ruleset", "seed"}``, the shape the API takes), remembering which
form input each part came from, so that ``form_field`` can put an
``EngineInputError`` such as ``attack.weapons[1].ammo`` next to the right input.
``calculate`` runs the whole thing for a view, with ``rules.presenters``
shaping the answers for the templates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict

from core.errors import DomainError
from rules.catalogue import engine_cell, folded_weapon, strike_back_weapons, unit_target
from rules.charts import BarChart, percent
from rules.engine import EngineInputError, WeaponTrait
from rules.engine.ruleset import SWITCHES
from rules.engine.state import ARMOUR_RANGE, UnitKind
from rules.forms import CATALOGUE, MANUAL, OddsForm
from rules.presenters import (
    StrikeBack,
    log_groups,
    odds_charts,
    odds_figures,
    permalink,
    plural,
    roll_outcome,
    strike_back,
)
from rules.referee import referee_odds, referee_resolve

CLASSES = ("infantry", "vehicle", "aircraft")
TARGET_FLAGS = ("in_cover", "in_smoke", "in_trench")


class Incomplete(Exception):  # noqa: N818 - a state of the form, not a failure
    """The form does not say enough yet to ask the referee (no unit picked, no weapon ticked)."""


class FormInputError(DomainError):
    """Input the calculator refuses before the engine sees it, named by form field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__("invalid", message, field)


@dataclass(frozen=True)
class BuiltRequest:
    data: dict[str, Any]  # the referee request, as the API takes it
    weapon_fields: tuple[str, ...]  # form prefix of weapons[j]: "w3" (a catalogue row) or "m"
    attacker_source: str
    target_source: str
    models_left: bool  # the target's model count came from "models left"
    notes: tuple[str, ...] = ()


# -- building ---------------------------------------------------------------


def manual_line(text: str, kind: str, field: str) -> str | list[str]:
    """A typed class entry: empty (cannot target), one cell for every armour, or one cell per armour."""
    tokens = [token for token in re.split(r"[\s,;|]+", text.strip()) if token]
    if not tokens:
        return "-"
    size = ARMOUR_RANGE[UnitKind(kind)][1]
    if len(tokens) not in (1, size):
        raise FormInputError(field, f"give one cell for every armour, or {size} cells (armour 1 to {size})")
    try:
        cells = [engine_cell(token, field) for token in tokens]
    except EngineInputError as exc:
        raise FormInputError(field, exc.reason) from exc
    return cells[0] if len(cells) == 1 else cells


def _catalogue_weapons(
    form: OddsForm, data: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    if form.attacker is None:
        if "attacker_unit" in form.unit_problem:
            raise FormInputError("attacker_unit", form.unit_problem["attacker_unit"])
        raise Incomplete("Pick the attacking unit, or type a weapon line.")
    try:
        attacker = unit_target(form.attacker)
    except EngineInputError as exc:
        raise FormInputError("attacker_unit", f"this unit's card cannot be used ({exc})") from exc
    weapons, fields, notes, skipped = [], [], [], []
    for row in form.weapon_rows:
        prefix = row.prefix
        if not data.get(f"{prefix}_use"):
            continue
        if not row.can_fire:
            skipped.append(row)
            notes.append(f"{row.weapon.name} cannot fire at this target, so it is left out.")
            continue
        weapon = dict(row.weapon.weapon, count=data.get(f"{prefix}_count") or row.weapon.default_count)
        weapon["expert"] = bool(data.get(f"{prefix}_expert"))
        if data.get(f"{prefix}_fire_salvo"):
            weapon["fire_salvo"] = True
        if row.weapon.uses_ammo and data.get(f"{prefix}_ammo") is not None:
            weapon["ammo"] = data[f"{prefix}_ammo"]
        if WeaponTrait.VOLLEY in row.weapon.traits and data.get(f"{prefix}_volley") is not None:
            weapon["volley"] = data[f"{prefix}_volley"]
        weapons.append(folded_weapon(weapon, attacker["models"]))
        fields.append(prefix)
    if not weapons:
        if skipped:
            raise FormInputError(
                f"{skipped[0].prefix}_use", f"{skipped[0].weapon.name} cannot fire at this target"
            )
        raise Incomplete("Tick at least one weapon.")
    return weapons, fields, notes


def _manual_weapon(data: dict[str, Any]) -> dict[str, Any]:
    lines = {kind: manual_line(data.get(f"m_{kind}") or "", kind, f"m_{kind}") for kind in CLASSES}
    if all(cells == "-" for cells in lines.values()):
        raise Incomplete("Type the weapon's dice/damage against at least one class, for example 3/1.")
    weapon: dict[str, Any] = {
        "name": data.get("m_name") or "Weapon",
        "kind": data.get("m_kind") or "standard",
        "traits": list(data.get("m_traits") or []),
        "line": {kind: cells for kind, cells in lines.items() if cells != "-"},
        "count": data.get("m_count") or 1,
    }
    for flag in ("close_combat", "expert"):
        if data.get(f"m_{flag}"):
            weapon[flag] = True
    # The page shows the ammunition inputs only for the traits that use them; so does the request.
    traits = set(weapon["traits"])
    if data.get("m_fire_salvo") and "salvo" in traits:
        weapon["fire_salvo"] = True
    if data.get("m_ammo") is not None and traits & {"limited_ammo", "volley"}:
        weapon["ammo"] = data["m_ammo"]
    if data.get("m_volley") is not None and "volley" in traits:
        weapon["volley"] = data["m_volley"]
    return weapon


def _manual_attacker(data: dict[str, Any], weapon: dict[str, Any]) -> dict[str, Any] | None:
    unit_class = data.get("m_attacker_class") or ""
    if not unit_class:
        if data.get("fighting_spirit"):
            raise FormInputError(
                "m_attacker_class", "say what the firing unit is to spend its Fighting Spirit"
            )
        return None
    armour = data.get("m_attacker_armour")
    if not armour:
        raise FormInputError("m_attacker_armour", "give the firing unit's armour")
    attacker: dict[str, Any] = {"unit_class": unit_class, "armour": int(armour)}
    if unit_class == "infantry":
        attacker["models"] = weapon["count"]
    if data.get("fighting_spirit"):
        attacker["skills"] = ["fighting_spirit"]
    return attacker


def _target(form: OddsForm, data: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    models_left = False
    if data.get("target_source") == MANUAL:
        target: dict[str, Any] = {
            "unit_class": data.get("t_class") or "infantry",
            "armour": int(data.get("t_armour") or 1),
            "models": data.get("t_models") or 1,
            "damage_per_model": data.get("t_damage") or 1,
        }
        if data.get("t_hero"):
            target["hero"] = True
        if data.get("t_skills"):
            target["skills"] = list(data["t_skills"])
    else:
        if form.target is None:
            raise Incomplete("Pick the target unit, or type its profile.")
        try:
            target = unit_target(form.target)
        except EngineInputError as exc:
            raise FormInputError("target_unit", f"this unit's card cannot be used ({exc})") from exc
        if data.get("models_left") is not None:
            target["models"] = data["models_left"]
            models_left = True
    if data.get("damage_taken"):
        target["damage_taken"] = data["damage_taken"]
    for flag in TARGET_FLAGS:
        if data.get(flag):
            target[flag] = True
    for choice in ("fortification", "aircraft_move"):
        if data.get(choice) and data[choice] != "none":
            target[choice] = data[choice]
    return target, models_left


def build_request(form: OddsForm, *, seed: int | None = None) -> BuiltRequest:
    """The referee request a valid form describes; ``Incomplete`` or ``FormInputError`` when it cannot."""
    data = form.cleaned_data
    attacker_source = data.get("attacker_source") or CATALOGUE
    attack: dict[str, Any] = {"action": data.get("action") or "attack"}
    notes: list[str] = []
    if attacker_source == MANUAL:
        weapon = _manual_weapon(data)
        weapons, fields = [weapon], ["m"]
        attacker = _manual_attacker(data, weapon)
    else:
        weapons, fields, notes = _catalogue_weapons(form, data)
        assert form.attacker is not None  # _catalogue_weapons refuses a missing unit
        attacker = unit_target(form.attacker)
    target, models_left = _target(form, data)
    if attacker_source == CATALOGUE:
        shown = form.attacker_has
    else:  # one typed line: the spotter helps a sniper, and its close combat is sustained on its own
        shown = {"spotter": weapons[0]["kind"] == "sniper", "sustained_close_combat": False}
    for flag in ("fighting_spirit", "spotter"):
        # A toggle the page does not show for this unit (a stale address) is not sent.
        if data.get(flag) and shown.get(flag, True):
            attack[flag] = True
    melee = [bool(weapon.get("close_combat")) for weapon in weapons]
    # Only close combat to sustain: sustain it; with both, the player says which.
    chosen = data.get("sustained_close_combat") and shown.get("sustained_close_combat", True)
    if attack["action"] == "sustained_attack" and any(melee) and (all(melee) or chosen):
        attack["sustained_close_combat"] = True
    attack["weapons"] = weapons
    attack["target"] = target
    if attacker is not None:
        attack["attacker"] = attacker
        if any(melee) and data.get("target_source") != MANUAL and form.target is not None:
            # A catalogue target strikes back with the close-combat weapons on its card.
            cc_weapons = strike_back_weapons(form.target, int(target["models"]), attacker)
            if cc_weapons is not None:
                target["cc_weapons"] = cc_weapons
    conditions = {}
    if data.get("height") and data["height"] != "level":
        conditions["height"] = data["height"]
    if data.get("weather") and data["weather"] != "none":
        conditions["weather"] = data["weather"]
    if data.get("distance") is not None:
        conditions["distance"] = data["distance"]
    if conditions:
        attack["conditions"] = conditions
    ruleset: dict[str, Any] = {"name": data.get("ruleset") or "rtz"}
    ruleset.update({name: bool(data.get(name)) for name in SWITCHES})
    request: dict[str, Any] = {"attack": attack, "ruleset": ruleset}
    if seed is not None:
        request["seed"] = seed
    return BuiltRequest(
        data=request,
        weapon_fields=tuple(fields),
        attacker_source=attacker_source,
        target_source=data.get("target_source") or CATALOGUE,
        models_left=models_left,
        notes=tuple(notes),
    )


# -- errors back to the form ---------------------------------------------------

_WEAPON = re.compile(r"^weapons\[(\d+)\](?:\.(\w+))?(?:\.(\w+))?")
_MANUAL_WEAPON_FIELDS = {
    "name": "m_name",
    "kind": "m_kind",
    "traits": "m_traits",
    "count": "m_count",
    "close_combat": "m_close_combat",
    "expert": "m_expert",
    "fire_salvo": "m_fire_salvo",
    "loaded": "m_traits",
    "ammo": "m_ammo",
    "volley": "m_volley",
}
_MANUAL_TARGET_FIELDS = {
    "unit_class": "t_class",
    "armour": "t_armour",
    "models": "t_models",
    "damage_per_model": "t_damage",
    "hero": "t_hero",
    "skills": "t_skills",
}
_CONDITION_FIELDS = {"height": "height", "weather": "weather", "distance": "distance"}


def form_field(path: str, built: BuiltRequest) -> str | None:
    """The form input an engine error path (``attack.weapons[0].ammo``, ``ruleset.scout_rtz``) points at."""
    if path == "seed":
        return "seed"
    if path.startswith("ruleset"):
        switch = path.removeprefix("ruleset").lstrip(".")
        return switch if switch in SWITCHES else "ruleset"
    rest = path.removeprefix("attack").lstrip(".")
    head, _, tail = rest.partition(".")
    attr = tail.split(".")[0].split("[")[0]
    match = _WEAPON.match(rest)
    if match:
        return _weapon_field(built, int(match[1]), match[2] or "", match[3] or "")
    if head == "weapons":
        return "m_name" if built.attacker_source == MANUAL else "attacker_unit"
    if head == "target":
        return _target_field(built, attr)
    if head == "attacker":
        if built.attacker_source == MANUAL:
            return "m_attacker_armour" if attr == "armour" else "m_attacker_class"
        return "attacker_unit"
    if head == "conditions":
        if attr == "attacker_is_aircraft":
            return "m_attacker_class" if built.attacker_source == MANUAL else "attacker_unit"
        return _CONDITION_FIELDS.get(attr)
    if head in {"action", "fighting_spirit", "spotter", "sustained_close_combat"}:
        return head
    return None


def _weapon_field(built: BuiltRequest, index: int, attr: str, sub: str) -> str | None:
    if index >= len(built.weapon_fields):
        return None
    prefix = built.weapon_fields[index]
    if prefix == "m":
        if attr == "line":
            if sub in CLASSES:
                return f"m_{sub}"
            target_class = built.data["attack"]["target"].get("unit_class")
            return f"m_{target_class}" if target_class in CLASSES else "m_name"
        return _MANUAL_WEAPON_FIELDS.get(attr, "m_name")
    if attr in {"count", "expert", "fire_salvo", "ammo", "volley"}:
        return f"{prefix}_{attr}"
    return f"{prefix}_use"


def _target_field(built: BuiltRequest, attr: str) -> str:
    if attr in {*TARGET_FLAGS, "fortification", "aircraft_move", "damage_taken"}:
        return attr
    if attr == "structural_save":
        return "fortification"
    if built.target_source == MANUAL:
        return _MANUAL_TARGET_FIELDS.get(attr, "t_class")
    if attr == "models" and built.models_left:
        return "models_left"
    return "target_unit"


def add_engine_error(form: OddsForm, exc: EngineInputError, built: BuiltRequest) -> None:
    field_name = form_field(exc.field, built)
    if field_name in form.fields:
        form.add_problem(field_name, exc.reason)
    else:
        form.add_problem(None, f"{exc.field}: {exc.reason}")


# -- the whole calculation -----------------------------------------------------


@dataclass
class Calculation:
    """Everything a calculator page or partial shows."""

    form: OddsForm
    built: BuiltRequest | None = None
    odds: dict[str, Any] | None = None
    roll: dict[str, Any] | None = None
    prompt: str = ""
    charts: list[BarChart] = field(default_factory=list)
    figures: list[tuple[str, str]] = field(default_factory=list)
    chance: str = ""
    roll_groups: list[dict[str, Any]] = field(default_factory=list)
    matchup: str = ""
    roll_headline: str = ""
    roll_notes: list[str] = field(default_factory=list)
    retaliation_groups: list[dict[str, Any]] = field(default_factory=list)
    permalink: str = ""
    strike_back: StrikeBack | None = None


def calculate(form: OddsForm, *, roll: bool = False, seed: int | None = None) -> Calculation:
    """Check the form, ask the referee for the odds (and a roll), and shape the answers."""
    result = Calculation(form=form)
    if not form.is_bound:
        result.prompt = "Pick the attacking unit and its target to see the odds."
        return result
    if not form.is_valid():
        result.prompt = "Check the inputs marked in red."
        return result
    try:
        built = build_request(form, seed=seed)
    except Incomplete as exc:
        result.prompt = str(exc)
        return result
    except FormInputError as exc:
        form.add_problem(exc.field, exc.message)
        result.prompt = "Check the inputs marked in red."
        return result
    result.built = built
    try:
        result.odds = referee_odds(built.data)
        if roll:
            result.roll = referee_resolve(built.data)
    except EngineInputError as exc:
        add_engine_error(form, exc, built)
        result.prompt = "Check the inputs marked in red."
        result.odds = result.roll = None
        return result
    target = built.data["attack"]["target"]
    result.chance = percent(result.odds["p_destroyed"])
    result.figures = odds_figures(result.odds, target)
    result.charts = odds_charts(result.odds, target)
    result.strike_back = strike_back(result.odds, built.data["attack"].get("attacker"))
    result.matchup = matchup(form, built)
    if result.roll is not None:
        rolled = result.roll
        result.roll_groups = log_groups(rolled["log"], rolled["weapons"])
        result.roll_headline, result.roll_notes = roll_outcome(rolled, target)
        if rolled.get("retaliation"):
            back = rolled["retaliation"]
            result.retaliation_groups = log_groups(back["log"], back["weapons"])
        data = form.data if isinstance(form.data, QueryDict) else QueryDict()
        result.permalink = permalink(data, rolled["seed"])
    return result


def matchup(form: OddsForm, built: BuiltRequest) -> str:
    """Who fires at whom, in a few words: "Grauwolf Rifle Squad vs Volga Rifle Squad (3 left)"."""
    attack = built.data["attack"]
    if built.attacker_source == CATALOGUE and form.attacker is not None:
        shooter = form.attacker.name
    else:
        shooter = attack["weapons"][0]["name"]
    target = attack["target"]
    if built.target_source == CATALOGUE and form.target is not None:
        aimed = form.target.name + (f" ({target['models']} left)" if built.models_left else "")
    else:
        aimed = (
            f"{target['unit_class'].capitalize()} {target['armour']}, "
            f"{plural(target['models'], 'model')} × {target['damage_per_model']}"
        )
    return f"{shooter} vs {aimed}"
