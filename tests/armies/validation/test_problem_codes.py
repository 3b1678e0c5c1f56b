"""Every registered problem code has a list that triggers it, and the registry is well-formed."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

import pytest

from armies.validation import PROBLEM_CODES, Catalogue, validate
from armies.validation.problems import SPECS
from armies.validation.types import ArmyList, CapturedVehicleEntry, Terms

from .builders import (
    army,
    catalogue,
    entry,
    fort,
    hero,
    legal_army,
    platoon,
    unit,
    units,
)

Scenario = Callable[[], tuple[ArmyList, Catalogue]]


def std(army_list: ArmyList) -> tuple[ArmyList, Catalogue]:
    return army_list, catalogue()


def _retired(army_list: ArmyList, chart_key: str) -> tuple[ArmyList, Catalogue]:
    """The standard catalogue with the chart ``chart_key`` retired by staff."""
    full = catalogue()
    return army_list, dataclasses.replace(
        full,
        platoon_charts=tuple(c for c in full.platoon_charts if c.key != chart_key),
        retired_charts=tuple(c for c in full.platoon_charts if c.key == chart_key),
    )


def _rg_platoon(*members: tuple[str, str, str]) -> ArmyList:
    """A Red Guard list whose platoon p1 holds (entry id, unit key, slot) members."""
    return army(
        *(entry(eid, key, platoon="p1", slot=slot_name) for eid, key, slot_name in members),
        platoons=[platoon("p1", "rg-platoon", *(eid for eid, _, _ in members))],
    )


FULL = (("c", "rg-command", "command"), ("s1", "rg-squad", "combat-1"), ("s2", "rg-squad", "combat-2"))

TRIGGERS: dict[str, Scenario] = {
    "empty-list": lambda: std(army()),
    "points-limit-invalid": lambda: std(army(*units("rg-squad"), limit=0)),
    "duplicate-entry-id": lambda: std(army(entry("e1", "rg-squad"), entry("e1", "rg-command"))),
    "duplicate-platoon-id": lambda: std(
        army(*units("rg-squad"), platoons=[platoon("p", "rg-platoon"), platoon("p", "rg-platoon")])
    ),
    "duplicate-fortification-id": lambda: std(
        army(*units("rg-squad"), role="defender", forts=[fort("f", "bunker"), fort("f", "strongpoint")])
    ),
    "unknown-entry-reference": lambda: std(army(entry("e1", "koshka", joined_to="nobody"))),
    "unknown-platoon": lambda: std(army(entry("e1", "rg-squad", platoon="p9", slot="combat-1"))),
    "unknown-unit": lambda: std(army(*units("no-such-unit"))),
    "catalogue-version-mismatch": lambda: std(army(*units("rg-squad"), version="old")),
    "unknown-bloc": lambda: std(army(*units("rg-squad"), bloc="Atlantis")),
    "unknown-faction": lambda: std(army(*units("rg-squad"), faction="no-such-faction")),
    "faction-wrong-bloc": lambda: std(army(*units("rg-squad"), faction="usmc")),
    "wrong-bloc": lambda: std(army(*units("rg-squad", "axis-squad"))),
    "captured-vehicle-limit": lambda: std(
        army(entry("a", "axis-walker", captured=True), entry("b", "allied-walker", captured=True))
    ),
    "captured-not-on-chart": lambda: std(army(entry("a", "axis-squad", captured=True))),
    "captured-own-bloc": lambda: (
        army(entry("a", "ssu-walker", captured=True)),
        catalogue(captured=[CapturedVehicleEntry("ssu-walker")]),
    ),
    "duplicate-unique-unit": lambda: std(army(*units("koshka-walker", "koshka-walker"))),
    "scout-predeploy-limit": lambda: std(army(*units(*["recon-squad"] * 4))),
    "points-limit-exceeded": lambda: std(army(*units(*["rg-walker"] * 6))),
    "faction-share-too-low": lambda: std(army(*units("rg-squad", "ssu-walker"), faction="red-guard")),
    "faction-force-mixed": lambda: std(army(*units("rg-squad", "sp-squad"), faction="red-guard")),
    "duplicate-hero": lambda: std(army(*units("koshka", "koshka"))),
    "join-not-hero": lambda: std(army(entry("a", "rg-squad"), entry("b", "ssu-squad", joined_to="a"))),
    "join-target-hero": lambda: std(army(entry("a", "nikolai"), entry("b", "koshka", joined_to="a"))),
    "join-target-not-infantry": lambda: std(
        army(entry("a", "rg-walker"), entry("b", "koshka", joined_to="a"))
    ),
    "join-armour-mismatch": lambda: std(
        army(entry("a", "rg-heavy-squad"), entry("b", "koshka", joined_to="a"))
    ),
    "join-too-many-heroes": lambda: std(
        army(
            entry("a", "rg-squad"), entry("b", "koshka", joined_to="a"), entry("c", "nikolai", joined_to="a")
        )
    ),
    "join-too-many-commissars": lambda: (
        army(entry("a", "ssu-squad"), entry("b", "nkvd", joined_to="a"), entry("c", "nkvd", joined_to="a")),
        catalogue(unit("nkvd", ap=3, skills={"Commissar": None})),
    ),
    "join-steel-guard": lambda: std(
        army(entry("a", "rg-heavy-squad"), entry("b", "steel-guard-hero", joined_to="a"))
    ),
    "join-zombie": lambda: (
        army(entry("a", "zombies"), entry("b", "koshka", joined_to="a"), bloc="SSU"),
        catalogue(unit("zombies", skills={"Zombie": None})),
    ),
    "join-gorilla": lambda: (
        army(entry("a", "ssu-squad"), entry("b", "ape", joined_to="a")),
        catalogue(hero("ape", skill_names=["Gorilla"])),
    ),
    "join-flying": lambda: (
        army(entry("a", "ssu-squad"), entry("b", "flyer", joined_to="a")),
        catalogue(hero("flyer", skill_names=["Flying"])),
    ),
    "join-airborne": lambda: (
        army(entry("a", "paras"), entry("b", "koshka", joined_to="a")),
        catalogue(unit("paras", skills={"Airborne": None})),
    ),
    "join-loner": lambda: (
        army(entry("a", "ssu-squad"), entry("b", "lone", joined_to="a")),
        catalogue(hero("lone", skill_names=["Loner"])),
    ),
    "join-superhuman": lambda: (
        army(entry("a", "ssu-squad"), entry("b", "super", joined_to="a")),
        catalogue(unit("super", skills={"Superhumans": None})),
    ),
    "commissar-not-joined": lambda: std(army(*units("commissar", "ssu-squad"))),
    "pilot-not-hero": lambda: std(army(entry("a", "rg-walker"), entry("b", "rg-squad", pilot_of="a"))),
    "pilot-target-not-vehicle": lambda: std(army(entry("a", "rg-squad"), entry("b", "koshka", pilot_of="a"))),
    "pilot-lacks-skill": lambda: std(army(entry("a", "ssu-plane"), entry("b", "koshka", pilot_of="a"))),
    "pilot-too-many": lambda: std(
        army(entry("a", "rg-walker"), entry("b", "koshka", pilot_of="a"), entry("c", "nikolai", pilot_of="a"))
    ),
    "named-pilot-mismatch": lambda: std(
        army(entry("a", "koshka-walker"), entry("b", "nikolai", pilot_of="a"))
    ),
    "hero-joined-and-piloting": lambda: std(
        army(
            entry("a", "rg-walker"),
            entry("s", "ssu-squad"),
            entry("b", "koshka", pilot_of="a", joined_to="s"),
        )
    ),
    "platoon-unknown-chart": lambda: std(army(*units("rg-squad"), platoons=[platoon("p1", "nope", "e1")])),
    "platoon-chart-retired": lambda: _retired(
        army(*units("rg-squad"), platoons=[platoon("p1", "rg-platoon", "e1")]), "rg-platoon"
    ),
    "platoon-wrong-bloc": lambda: std(
        army(
            entry("a", "axis-squad", platoon="p1", slot="command"),
            platoons=[platoon("p1", "axis-platoon", "a")],
        )
    ),
    "platoon-members-unspecified": lambda: std(
        army(*units("rg-squad"), platoons=[platoon("p1", "rg-platoon")])
    ),
    "platoon-membership-mismatch": lambda: std(
        army(entry("c", "rg-command"), platoons=[platoon("p1", "rg-platoon", "c")])
    ),
    "platoon-slot-missing": lambda: std(_rg_platoon(*FULL, ("x", "ssu-squad", None))),  # type: ignore[arg-type]
    "platoon-unknown-slot": lambda: std(_rg_platoon(*FULL, ("x", "rg-walker", "artillery"))),
    "platoon-missing-command": lambda: std(_rg_platoon(*FULL[1:])),
    "platoon-missing-required": lambda: std(_rg_platoon(*FULL[:2])),
    "platoon-slot-overfilled": lambda: std(_rg_platoon(*FULL, ("x", "rg-squad", "combat-1"))),
    "platoon-unit-not-allowed": lambda: std(_rg_platoon(*FULL, ("x", "rg-squad", "support"))),
    "platoon-mercenary-mismatch": lambda: std(_rg_platoon(*FULL[:2], ("m", "merc-walker", "combat-2"))),
    "platoon-too-many-mercenaries": lambda: std(
        _rg_platoon(FULL[0], ("m1", "merc-squad", "combat-1"), ("m2", "merc-heavy", "combat-2"))
    ),
    "fortification-not-defender": lambda: std(
        army(*units("rg-squad"), role="attacker", forts=[fort("f", "bunker")])
    ),
    "fortification-role-unknown": lambda: std(army(*units("rg-squad"), forts=[fort("f", "strongpoint")])),
    "fortification-not-strongpoint-unit": lambda: std(
        army(*units("rg-squad"), role="defender", forts=[fort("f", "bunker", "e1")])
    ),
    "fortification-duplicate-upgrade": lambda: std(
        army(
            *units("bunker-crew"),
            role="defender",
            forts=[fort("f1", "bunker", "e1"), fort("f2", "bunker", "e1")],
        )
    ),
    "strongpoint-unit-attacker": lambda: std(army(*units("bunker-crew"), role="attacker")),
    "reserve-hero": lambda: std(army(entry("a", "koshka", reserve=True))),
    "reserve-strongpoint-unit": lambda: std(army(entry("a", "bunker-crew", reserve=True))),
}


# Codes only campaign terms can raise: each with its list and the terms that trigger it.
TERMS_TRIGGERS: dict[str, tuple[Scenario, Terms]] = {
    "catalogue-version-wrong": (lambda: std(army(*units("rg-squad"))), Terms(catalogue_version="test-2")),
    "fortification-not-offered": (
        lambda: std(army(*units("rg-squad"), role="defender", forts=[fort("f", "bunker")])),
        Terms(fortification_purchases=("strongpoint",)),
    ),
    "reserve-over-limit": (
        lambda: std(army(entry("a", "rg-squad", reserve=True), entry("b", "ssu-squad", reserve=True))),
        Terms(reserve_limit=1),
    ),
}


def test_it_has_a_trigger_for_every_registered_code() -> None:
    triggered = set(TRIGGERS) | set(TERMS_TRIGGERS)
    assert sorted(set(PROBLEM_CODES) - triggered) == []
    assert sorted(triggered - set(PROBLEM_CODES)) == []


@pytest.mark.parametrize("code", sorted(set(TRIGGERS) | set(TERMS_TRIGGERS)))
def test_it_reports_each_code_from_its_trigger(code: str) -> None:
    scenario, terms = TERMS_TRIGGERS.get(code, (TRIGGERS.get(code), None))
    assert scenario is not None
    army_list, cat = scenario()
    verdict = validate(army_list, cat, terms)
    found = [p for p in verdict.problems if p.code == code]
    assert found, f"{code} not reported; got {sorted(verdict.codes)}"
    for problem in found:
        assert problem.severity == SPECS[code].severity
        assert problem.rule == SPECS[code].rule
        assert problem.rule in problem.message
    assert verdict.ok is (not verdict.errors)


@pytest.mark.parametrize("code", sorted(PROBLEM_CODES))
def test_it_registers_kebab_case_codes_with_a_description(code: str) -> None:
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", code)
    assert PROBLEM_CODES[code].endswith(".")
    assert SPECS[code].severity in ("error", "warning")


def test_it_keeps_the_legal_list_free_of_every_code() -> None:
    assert validate(legal_army(), catalogue()).problems == ()


def test_it_names_units_by_name_and_number_in_messages_and_gives_their_ids_apart() -> None:
    verdict = validate(*TRIGGERS["duplicate-hero"]())
    (problem,) = [p for p in verdict.problems if p.code == "duplicate-hero"]
    assert "Koshka 1, Koshka 2 are the same hero" in problem.message
    assert "[e" not in problem.message
    assert problem.entry_ids == ("e1", "e2")
