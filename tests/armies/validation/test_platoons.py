"""Platoons: command and required units, support, mercenary replacement, membership."""

from __future__ import annotations

from dataclasses import replace

from armies.validation.types import ArmyList, PlatoonChart

from .builders import army, catalogue, check, codes, entry, mercenary, platoon, slot, units

COMMAND = ("c", "rg-command", "command")
COMBAT_1 = ("s1", "rg-squad", "combat-1")
COMBAT_2 = ("s2", "rg-heavy-squad", "combat-2")


def rg_platoon(*members: tuple[str, str, str | None], extra: tuple[object, ...] = ()) -> ArmyList:
    return army(
        *(entry(eid, key, platoon="p1", slot=slot_name) for eid, key, slot_name in members),
        *extra,  # type: ignore[arg-type]
        platoons=[platoon("p1", "rg-platoon", *(eid for eid, _, _ in members))],
        limit=400,
    )


def test_it_accepts_a_complete_platoon() -> None:
    assert codes(rg_platoon(COMMAND, COMBAT_1, COMBAT_2)) == set()


def test_it_accepts_any_number_of_support_units_and_independent_units() -> None:
    army_list = rg_platoon(
        COMMAND,
        COMBAT_1,
        COMBAT_2,
        ("w1", "rg-walker", "support"),
        ("w2", "rg-walker", "support"),
        ("w3", "ssu-walker", "support"),
        extra=(entry("free", "rg-squad"),),
    )
    assert codes(army_list) == set()


def test_it_rejects_a_platoon_without_its_command_unit() -> None:
    verdict = check(rg_platoon(COMBAT_1, COMBAT_2))
    assert verdict.codes == {"platoon-missing-command"}
    assert "Platoon 1 (Red Guard Rifle Platoon) has no command unit" in verdict.problems[0].message


def test_it_names_every_missing_required_slot() -> None:
    verdict = check(rg_platoon(COMMAND, ("w", "rg-walker", "support")))
    assert verdict.codes == {"platoon-missing-required"}
    assert "'combat-1', 'combat-2'" in verdict.problems[0].message


def test_it_does_not_ask_for_an_optional_combat_slot() -> None:
    """Seed 004, "Platoons": only the chart's required combat units must be present."""
    base = catalogue()
    chart = base.chart_by_key["rg-platoon"]
    optional = replace(chart, combat=(*chart.combat, replace(slot("combat-3", "rg-squad"), required=False)))
    charts = tuple(optional if c.key == "rg-platoon" else c for c in base.platoon_charts)
    with_optional_slot = replace(base, platoon_charts=charts)

    assert codes(rg_platoon(COMMAND, COMBAT_1, COMBAT_2), with_optional_slot) == set()
    assert codes(rg_platoon(COMMAND, COMBAT_1), with_optional_slot) == {"platoon-missing-required"}


def test_it_requires_the_list_to_say_which_units_form_a_claimed_platoon() -> None:
    army_list = army(*units("rg-command", "rg-squad", "rg-squad"), platoons=[platoon("p1", "rg-platoon")])
    assert codes(army_list) == {"platoon-members-unspecified"}


def test_it_lets_one_mercenary_replace_a_combat_unit_of_the_same_type_and_armour() -> None:
    # merc-heavy (infantry, armour 3) stands in for the armour-2 Red Guard squad.
    assert codes(rg_platoon(COMMAND, ("m", "merc-heavy", "combat-1"), COMBAT_2)) == set()
    assert codes(rg_platoon(COMMAND, COMBAT_1, ("m", "merc-squad", "combat-2"))) == set()


def test_it_rejects_a_mercenary_of_another_type_or_lower_armour() -> None:
    assert codes(rg_platoon(COMMAND, COMBAT_1, ("m", "merc-walker", "combat-2"))) == {
        "platoon-mercenary-mismatch"
    }
    cat = catalogue(mercenary("merc-light", armour=1))
    assert codes(rg_platoon(COMMAND, ("m", "merc-light", "combat-1"), COMBAT_2), cat) == {
        "platoon-mercenary-mismatch"
    }


def test_it_rejects_a_second_mercenary_replacement() -> None:
    army_list = rg_platoon(COMMAND, ("m1", "merc-squad", "combat-1"), ("m2", "merc-heavy", "combat-2"))
    verdict = check(army_list)
    assert verdict.codes == {"platoon-too-many-mercenaries"}
    assert verdict.problems[0].entry_ids == ("m1", "m2")


def test_it_keeps_mercenaries_out_of_command_and_support_slots() -> None:
    assert codes(rg_platoon(("m", "merc-squad", "command"), COMBAT_1, COMBAT_2)) == {
        "platoon-unit-not-allowed"
    }
    army_list = rg_platoon(COMMAND, COMBAT_1, COMBAT_2, ("m", "merc-walker", "support"))
    assert codes(army_list) == {"platoon-unit-not-allowed"}


def test_it_rejects_a_unit_in_a_slot_that_does_not_allow_it() -> None:
    verdict = check(rg_platoon(COMMAND, ("x", "rg-walker", "combat-1"), COMBAT_2))
    assert verdict.codes == {"platoon-unit-not-allowed"}


def test_it_rejects_two_units_in_one_combat_slot() -> None:
    army_list = rg_platoon(COMMAND, COMBAT_1, COMBAT_2, ("x", "rg-squad", "combat-1"))
    verdict = check(army_list)
    assert verdict.codes == {"platoon-slot-overfilled"}
    assert verdict.problems[0].entry_ids == ("s1", "x")


def test_it_places_members_that_name_no_slot_in_a_free_slot_that_takes_them() -> None:
    army_list = rg_platoon(
        ("c", "rg-command", None), ("s1", "rg-squad", None), COMBAT_2, ("w", "rg-walker", None)
    )
    assert codes(army_list) == set()
    heavy_first = rg_platoon(COMMAND, ("h", "rg-heavy-squad", None), ("s", "rg-squad", "combat-1"))
    assert codes(heavy_first) == set()


def test_it_never_guesses_a_mercenary_replacement() -> None:
    assert codes(rg_platoon(COMMAND, COMBAT_1, ("m", "merc-heavy", None))) == {
        "platoon-slot-missing",
        "platoon-missing-required",
    }


def test_it_rejects_a_member_without_a_usable_slot_or_with_an_unknown_slot() -> None:
    assert codes(rg_platoon(COMMAND, COMBAT_1, COMBAT_2, ("x", "ssu-squad", None))) == {
        "platoon-slot-missing"
    }
    assert codes(rg_platoon(COMMAND, COMBAT_1, COMBAT_2, ("w", "rg-walker", "tanks"))) == {
        "platoon-unknown-slot"
    }


def test_it_lets_a_joined_hero_ride_with_its_platoon_unit_without_a_slot() -> None:
    army_list = army(
        entry("c", "rg-command", platoon="p1", slot="command"),
        entry("s1", "rg-squad", platoon="p1", slot="combat-1"),
        entry("s2", "rg-heavy-squad", platoon="p1", slot="combat-2"),
        entry("h", "koshka", joined_to="s1", platoon="p1"),
        platoons=[platoon("p1", "rg-platoon", "c", "s1", "s2", "h")],
    )
    assert codes(army_list) == set()


def test_it_reports_both_halves_of_a_membership_disagreement() -> None:
    listed_only = army(
        entry("c", "rg-command"),
        entry("s1", "rg-squad", platoon="p1", slot="combat-1"),
        entry("s2", "rg-squad", platoon="p1", slot="combat-2"),
        platoons=[platoon("p1", "rg-platoon", "c", "s1", "s2")],
    )
    assert codes(listed_only) == {"platoon-membership-mismatch"}
    entry_only = army(
        entry("c", "rg-command", platoon="p1", slot="command"),
        entry("s1", "rg-squad", platoon="p1", slot="combat-1"),
        entry("s2", "rg-squad", platoon="p1", slot="combat-2"),
        platoons=[platoon("p1", "rg-platoon", "c", "s1")],
    )
    verdict = check(entry_only)
    assert verdict.codes == {"platoon-membership-mismatch"}
    assert verdict.problems[0].entry_ids == ("s2",)


def test_it_rejects_an_unknown_chart_and_a_chart_of_another_bloc() -> None:
    assert codes(army(*units("rg-squad"), platoons=[platoon("p1", "nope", "e1")])) >= {
        "platoon-unknown-chart"
    }
    axis = army(
        entry("a", "axis-squad", platoon="p1", slot="command"),
        entry("b", "axis-walker", captured=True, platoon="p1", slot="combat-1"),
        platoons=[platoon("p1", "axis-platoon", "a", "b")],
    )
    assert codes(axis) == {"platoon-wrong-bloc", "wrong-bloc"}


def test_it_lets_any_bloc_use_a_mercenary_chart() -> None:
    chart = PlatoonChart(
        key="merc-band",
        name="Mercenary Band",
        bloc="Mercenaries",
        command=slot("boss", "merc-hero"),
        combat=(slot("muscle", "merc-squad"),),
    )
    cat = catalogue(charts=[chart])
    army_list = army(
        entry("b", "merc-hero", platoon="p", slot="boss"),
        entry("m", "merc-squad", platoon="p", slot="muscle"),
        platoons=[platoon("p", "merc-band", "b", "m")],
    )
    assert codes(army_list, cat) == set()


def test_it_fills_slots_open_to_a_whole_unit_type() -> None:
    chart = PlatoonChart(
        key="mixed",
        name="Mixed Platoon",
        bloc="SSU",
        command=slot("command", "rg-command"),
        combat=(slot("any-infantry", types=["infantry"]),),
    )
    cat = catalogue(charts=[chart])
    for key, expected in (
        ("ssu-squad", set()),
        ("merc-squad", set()),
        ("ssu-walker", {"platoon-unit-not-allowed"}),
    ):
        army_list = army(
            entry("c", "rg-command", platoon="p", slot="command"),
            entry("x", key, platoon="p", slot="any-infantry"),
            platoons=[platoon("p", "mixed", "c", "x")],
        )
        assert codes(army_list, cat) == expected, key
