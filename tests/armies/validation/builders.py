"""Terse builders for catalogues and lists in validator tests.

``standard_catalogue()`` is a small SSU-centred catalogue with one of each kind
of unit the rules care about; tests add their own units with ``catalogue(...)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from armies.validation import validate
from armies.validation.types import (
    ArmyList,
    CapturedVehicleEntry,
    Catalogue,
    Faction,
    Fortification,
    ListEntry,
    PlatoonChart,
    PlatoonClaim,
    PlatoonSlot,
    UnitProfile,
    Verdict,
)

VERSION = "test-1"
BLOCS = ("Axis", "Allies", "SSU")
FACTIONS = (
    Faction("red-guard", "Red Guard", "SSU"),
    Faction("spetsnaz", "Spetsnaz", "SSU"),
    Faction("blutkreuz", "Blutkreuz Korps", "Axis"),
    Faction("usmc", "USMC", "Allies"),
)


def unit(
    key: str,
    *,
    ap: int = 20,
    armour: int = 2,
    bloc: str = "SSU",
    faction: str | None = None,
    unit_type: str = "infantry",
    skills: Mapping[str, str | None] | None = None,
    name: str | None = None,
    **extra: Any,
) -> UnitProfile:
    return UnitProfile(
        key=key,
        name=name or key.replace("-", " ").title(),
        bloc=bloc,
        unit_type=unit_type,  # type: ignore[arg-type]
        armour=armour,
        ap=ap,
        faction=faction,
        skills=dict(skills or {}),
        **extra,
    )


def hero(key: str, *, skill_names: Iterable[str] = (), **kwargs: Any) -> UnitProfile:
    skills = dict(kwargs.pop("skills", {}) or {})
    skills.update(dict.fromkeys(skill_names))
    return unit(key, hero=True, skills=skills, **kwargs)


def vehicle(key: str, *, ap: int = 40, armour: int = 3, **kwargs: Any) -> UnitProfile:
    return unit(key, ap=ap, armour=armour, unit_type="vehicle", **kwargs)


def aircraft(key: str, *, ap: int = 50, armour: int = 2, **kwargs: Any) -> UnitProfile:
    return unit(key, ap=ap, armour=armour, unit_type="aircraft", **kwargs)


def mercenary(key: str, **kwargs: Any) -> UnitProfile:
    kwargs.setdefault("bloc", "Mercenaries")
    maker = kwargs.pop("maker", unit)
    return maker(key, mercenary=True, **kwargs)  # type: ignore[no-any-return]


def slot(name: str, *keys: str, types: Iterable[str] = ()) -> PlatoonSlot:
    return PlatoonSlot(name, frozenset(keys), frozenset(types))  # type: ignore[arg-type]


def standard_units() -> tuple[UnitProfile, ...]:
    return (
        # Red Guard faction
        unit("rg-command", ap=20, faction="red-guard"),
        unit("rg-squad", ap=25, faction="red-guard"),
        unit("rg-heavy-squad", ap=30, armour=3, faction="red-guard"),
        vehicle("rg-walker", ap=40, faction="red-guard"),
        hero("nikolai", ap=25, faction="red-guard", skill_names=["Pilot"]),
        # Spetsnaz faction
        unit("sp-squad", ap=30, armour=3, faction="spetsnaz"),
        hero("sp-hero", ap=20, armour=3, faction="spetsnaz"),
        # SSU bloc units and heroes
        unit("ssu-squad", ap=20),
        vehicle("ssu-walker", ap=45, armour=4),
        aircraft("ssu-plane", ap=50),
        hero("koshka", ap=20, skill_names=["Ace Pilot"]),
        hero("red-ace", ap=25, skill_names=["Air Pilot"]),
        hero("commissar", ap=15, skill_names=["Commissar"]),
        vehicle("koshka-walker", ap=50, named_pilot="Koshka"),
        unit("steel-guard-squad", ap=35, armour=3, skills={"Steel Guard": None}),
        hero("steel-guard-hero", ap=25, armour=3, skill_names=["Steel Guard"]),
        hero("the-dragon", ap=20, skills={"Siblings": "The Phoenix"}),
        hero("the-phoenix", ap=20, skills={"Sibling: The Dragon": None}),
        unit("bunker-crew", ap=30, strongpoint_unit=True),
        unit("recon-squad", ap=20, skills={"Scout": None}),
        # Mercenaries
        mercenary("merc-squad", ap=25, armour=2),
        mercenary("merc-heavy", ap=30, armour=3),
        mercenary("merc-hero", ap=20, hero=True),
        mercenary("merc-walker", ap=40, armour=3, unit_type="vehicle"),
        # Other blocs
        vehicle("axis-walker", ap=35, bloc="Axis", capturable=True),
        unit("axis-squad", ap=20, bloc="Axis"),
        vehicle("allied-walker", ap=35, bloc="Allies"),
    )


def standard_charts() -> tuple[PlatoonChart, ...]:
    return (
        PlatoonChart(
            key="rg-platoon",
            name="Red Guard Rifle Platoon",
            bloc="SSU",
            faction="red-guard",
            command=slot("command", "rg-command"),
            combat=(slot("combat-1", "rg-squad"), slot("combat-2", "rg-squad", "rg-heavy-squad")),
            support=(slot("support", "rg-walker", "ssu-walker"),),
            advantage="Platoon units may share orders.",
        ),
        PlatoonChart(
            key="axis-platoon",
            name="Axis Platoon",
            bloc="Axis",
            command=slot("command", "axis-squad"),
            combat=(slot("combat-1", "axis-walker"),),
        ),
    )


def catalogue(
    *units: UnitProfile,
    charts: Iterable[PlatoonChart] = (),
    captured: Iterable[CapturedVehicleEntry] | None = None,
    version: str = VERSION,
    standard: bool = True,
) -> Catalogue:
    """A catalogue of the standard units plus ``units`` (which replace same-key ones)."""
    by_key = {profile.key: profile for profile in (standard_units() if standard else ())}
    by_key.update({profile.key: profile for profile in units})
    chart_list = (*(standard_charts() if standard else ()), *charts)
    if captured is None:
        captured = (CapturedVehicleEntry("axis-walker"), CapturedVehicleEntry("allied-walker"))
    return Catalogue(
        name="Test catalogue",
        version=version,
        blocs=BLOCS,
        factions=FACTIONS,
        units=tuple(by_key.values()),
        platoon_charts=chart_list,
        captured_vehicles=tuple(captured),
    )


def entry(entry_id: str, unit_key: str, **kwargs: Any) -> ListEntry:
    return ListEntry(id=entry_id, unit=unit_key, **kwargs)


def units(*keys: str) -> tuple[ListEntry, ...]:
    """Entries e1, e2, ... for the given unit keys."""
    return tuple(entry(f"e{index}", key) for index, key in enumerate(keys, start=1))


def army(
    *entries: ListEntry,
    bloc: str = "SSU",
    faction: str | None = None,
    limit: int = 200,
    version: str = VERSION,
    role: str | None = None,
    platoons: Iterable[PlatoonClaim] = (),
    forts: Iterable[Fortification] = (),
    name: str = "Test list",
) -> ArmyList:
    return ArmyList(
        name=name,
        bloc=bloc,
        faction=faction,
        points_limit=limit,
        catalogue_version=version,
        role=role,  # type: ignore[arg-type]
        entries=tuple(entries),
        platoons=tuple(platoons),
        fortifications=tuple(forts),
    )


def platoon(claim_id: str, chart: str, *members: str) -> PlatoonClaim:
    return PlatoonClaim(id=claim_id, chart=chart, members=members)


def fort(fort_id: str, kind: str, unit_id: str | None = None) -> Fortification:
    return Fortification(id=fort_id, kind=kind, unit=unit_id)  # type: ignore[arg-type]


def check(army_list: ArmyList, cat: Catalogue | None = None) -> Verdict:
    return validate(army_list, cat or catalogue())


def codes(army_list: ArmyList, cat: Catalogue | None = None) -> set[str]:
    return set(check(army_list, cat).codes)


def legal_army() -> ArmyList:
    """A Red Guard faction force that breaks no rule: platoon, heroes, pilot, captured vehicle."""
    return army(
        entry("cmd", "rg-command", platoon="p1", slot="command"),
        entry("sq1", "rg-squad", platoon="p1", slot="combat-1"),
        entry("sq2", "rg-heavy-squad", platoon="p1", slot="combat-2"),
        entry("walker", "rg-walker", platoon="p1", slot="support"),
        entry("nik", "nikolai", pilot_of="walker"),
        entry("kosh", "koshka", joined_to="sq1"),
        entry("axis", "axis-walker", captured=True),
        faction="red-guard",
        limit=200,
        platoons=[platoon("p1", "rg-platoon", "cmd", "sq1", "sq2", "walker")],
    )
