"""Unique heroes and the joining rules, including every skill that restricts joining."""

from __future__ import annotations

import pytest

from armies.validation.types import ArmyList

from .builders import army, catalogue, check, codes, entry, hero, platoon, unit, units


def joined(hero_key: str, unit_key: str) -> ArmyList:
    return army(entry("u", unit_key), entry("h", hero_key, joined_to="u"))


def test_it_rejects_the_same_hero_twice() -> None:
    verdict = check(army(*units("koshka", "koshka")))
    assert verdict.codes == {"duplicate-hero"}


def test_it_treats_two_versions_of_a_hero_as_the_same_hero() -> None:
    cat = catalogue(hero("koshka-late", name="Koshka (1948)"))
    assert codes(army(*units("koshka", "koshka-late")), cat) == {"duplicate-hero"}


def test_it_accepts_different_heroes() -> None:
    assert codes(army(*units("koshka", "nikolai", "red-ace"))) == set()


def test_it_accepts_a_hero_joining_a_unit_of_the_same_armour() -> None:
    assert codes(joined("koshka", "rg-squad")) == set()


def test_it_rejects_a_hero_joining_a_unit_of_another_armour() -> None:
    verdict = check(joined("koshka", "rg-heavy-squad"))
    (problem,) = verdict.problems
    assert problem.code == "join-armour-mismatch"
    assert problem.entry_ids == ("h", "u")
    assert "armour 2" in problem.message
    assert "armour 3" in problem.message


def test_it_rejects_joining_a_vehicle_or_a_hero() -> None:
    assert codes(joined("koshka", "rg-walker")) == {"join-target-not-infantry"}
    assert codes(joined("koshka", "nikolai")) == {"join-target-hero"}


def test_it_rejects_a_hero_joined_to_itself() -> None:
    assert codes(army(entry("h", "koshka", joined_to="h"))) == {"join-target-hero"}


def test_it_rejects_a_unit_that_is_no_hero_joining() -> None:
    assert codes(joined("ssu-squad", "rg-squad")) == {"join-not-hero"}


def test_it_rejects_two_heroes_in_one_unit() -> None:
    army_list = army(
        entry("u", "rg-squad"), entry("a", "koshka", joined_to="u"), entry("b", "nikolai", joined_to="u")
    )
    verdict = check(army_list)
    assert verdict.codes == {"join-too-many-heroes"}
    assert verdict.problems[0].entry_ids == ("u", "a", "b")


def test_it_lets_a_pair_of_siblings_share_a_unit() -> None:
    army_list = army(
        entry("u", "ssu-squad"),
        entry("a", "the-dragon", joined_to="u"),
        entry("b", "the-phoenix", joined_to="u"),
    )
    assert codes(army_list) == set()


def test_it_rejects_a_sibling_with_a_hero_that_is_not_their_sibling() -> None:
    cat = catalogue(hero("the-tiger", skills={"Siblings": "The Crane"}))
    for other in ("koshka", "the-tiger"):
        army_list = army(
            entry("u", "ssu-squad"), entry("a", "the-dragon", joined_to="u"), entry("b", other, joined_to="u")
        )
        assert codes(army_list, cat) == {"join-too-many-heroes"}, other


def test_it_rejects_three_siblings_in_one_unit() -> None:
    cat = catalogue(
        hero("sib-a", skill_names=["Siblings"]),
        hero("sib-b", skill_names=["Siblings"]),
        hero("sib-c", skill_names=["Siblings"]),
    )
    army_list = army(
        entry("u", "ssu-squad"), *(entry(k, k, joined_to="u") for k in ("sib-a", "sib-b", "sib-c"))
    )
    assert codes(army_list, cat) == {"join-too-many-heroes"}


def test_it_keeps_steel_guard_with_steel_guard() -> None:
    assert codes(joined("steel-guard-hero", "steel-guard-squad")) == set()
    assert codes(joined("steel-guard-hero", "rg-heavy-squad")) == {"join-steel-guard"}
    cat = catalogue(hero("heavy-hero", armour=3))
    assert codes(joined("heavy-hero", "steel-guard-squad"), cat) == {"join-steel-guard"}


ZOMBIES = catalogue(
    unit("zombies", skills={"Zombie": None}),
    unit("mindless", skills={"Mindless": None}),
    hero("zombie-hero", skill_names=["Zombie"]),
    hero("priest", skill_names=["Blutkreuz"]),
)


@pytest.mark.parametrize(
    ("hero_key", "unit_key", "expected"),
    [
        ("zombie-hero", "zombies", set()),
        ("zombie-hero", "mindless", set()),
        ("priest", "mindless", set()),
        ("priest", "zombies", {"join-zombie"}),
        ("koshka", "zombies", {"join-zombie"}),
        ("koshka", "mindless", {"join-zombie"}),
        ("zombie-hero", "ssu-squad", {"join-zombie"}),
        ("priest", "ssu-squad", set()),
    ],
)
def test_it_applies_the_zombie_and_mindless_joining_rules(
    hero_key: str, unit_key: str, expected: set[str]
) -> None:
    assert codes(joined(hero_key, unit_key), ZOMBIES) == expected


@pytest.mark.parametrize(
    ("skill", "code"), [("Gorilla", "join-gorilla"), ("Flying", "join-flying"), ("Airborne", "join-airborne")]
)
def test_it_keeps_matching_skills_together_both_ways(skill: str, code: str) -> None:
    cat = catalogue(unit("special", skills={skill: None}), hero("special-hero", skill_names=[skill]))
    assert codes(joined("special-hero", "special"), cat) == set()
    assert codes(joined("special-hero", "ssu-squad"), cat) == {code}
    assert codes(joined("koshka", "special"), cat) == {code}


def test_it_forbids_loners_and_superhumans_from_joining() -> None:
    cat = catalogue(hero("lone", skill_names=["Loner"]), unit("super", skills={"Superhuman": None}))
    assert codes(joined("lone", "ssu-squad"), cat) == {"join-loner"}
    assert codes(joined("super", "ssu-squad"), cat) == {"join-superhuman"}
    assert codes(army(*units("lone", "super", "ssu-squad")), cat) == set()


def test_it_treats_a_superhuman_as_a_hero_even_without_the_flag() -> None:
    cat = catalogue(unit("super", skills={"Superhumans": None}))
    assert codes(army(*units("super", "super")), cat) == {"duplicate-hero"}


def test_it_requires_a_commissar_to_join_a_unit() -> None:
    assert codes(army(*units("commissar", "ssu-squad"))) == {"commissar-not-joined"}
    assert codes(joined("commissar", "ssu-squad")) == set()
    assert codes(joined("commissar", "rg-heavy-squad")) == {"join-armour-mismatch"}


NKVD = unit("nkvd", ap=3, skills={"Commissar": None, "Brave": None})


def test_it_lets_a_commissar_who_is_no_hero_join_a_unit_of_its_armour() -> None:
    cat = catalogue(NKVD)
    verdict = check(joined("nkvd", "ssu-squad"), cat)
    assert verdict.codes == set()
    assert verdict.totals.unit_ap == 20 + 3
    assert codes(joined("nkvd", "rg-heavy-squad"), cat) == {"join-armour-mismatch"}
    assert codes(joined("nkvd", "ssu-walker"), cat) == {"join-target-not-infantry"}


def test_it_requires_a_commissar_who_is_no_hero_to_join_a_unit() -> None:
    verdict = check(army(*units("nkvd", "ssu-squad")), catalogue(NKVD))
    (problem,) = verdict.problems
    assert (problem.code, problem.entry_ids) == ("commissar-not-joined", ("e1",))


def test_it_allows_one_commissar_per_unit() -> None:
    two = army(entry("u", "ssu-squad"), entry("a", "nkvd", joined_to="u"), entry("b", "nkvd", joined_to="u"))
    verdict = check(two, catalogue(NKVD))
    (problem,) = verdict.problems
    assert problem.code == "join-too-many-commissars"
    assert problem.entry_ids == ("u", "a", "b")
    # One commissar in each of two units is fine.
    each = army(
        entry("u", "ssu-squad"),
        entry("v", "ssu-squad"),
        entry("a", "nkvd", joined_to="u"),
        entry("b", "nkvd", joined_to="v"),
    )
    assert codes(each, catalogue(NKVD)) == set()


def test_it_lets_a_hero_and_a_commissar_join_the_same_unit() -> None:
    both = army(
        entry("u", "ssu-squad"), entry("h", "koshka", joined_to="u"), entry("c", "nkvd", joined_to="u")
    )
    assert codes(both, catalogue(NKVD)) == set()


def test_it_keeps_everyone_else_out_of_a_hero_commissars_unit() -> None:
    # A hero with the Commissar skill counts as the unit's hero and as its commissar.
    with_nkvd = army(
        entry("u", "ssu-squad"), entry("p", "commissar", joined_to="u"), entry("c", "nkvd", joined_to="u")
    )
    with_hero = army(
        entry("u", "ssu-squad"), entry("p", "commissar", joined_to="u"), entry("k", "koshka", joined_to="u")
    )
    assert codes(with_nkvd, catalogue(NKVD)) == {"join-too-many-commissars"}
    assert codes(with_hero, catalogue(NKVD)) == {"join-too-many-heroes"}


def test_it_refuses_a_commissar_joined_to_another_commissar() -> None:
    chain = army(
        entry("u", "ssu-squad"), entry("a", "nkvd", joined_to="u"), entry("b", "nkvd", joined_to="a")
    )
    assert codes(chain, catalogue(NKVD)) == {"join-target-hero"}


def test_it_counts_a_commissar_joined_to_a_faction_unit_for_that_faction() -> None:
    force = army(entry("u", "rg-squad"), entry("c", "nkvd", joined_to="u"), faction="red-guard")
    verdict = check(force, catalogue(NKVD))
    assert verdict.codes == set()
    assert verdict.totals.army_type == "faction"
    assert verdict.totals.faction_share == 1


def test_it_lets_a_joined_commissar_ride_with_its_platoon_unit() -> None:
    force = army(
        entry("c", "rg-command", platoon="p1", slot="command"),
        entry("s1", "rg-squad", platoon="p1", slot="combat-1"),
        entry("s2", "rg-squad", platoon="p1", slot="combat-2"),
        entry("n", "nkvd", joined_to="s1", platoon="p1"),
        platoons=[platoon("p1", "rg-platoon", "c", "s1", "s2", "n")],
    )
    assert codes(force, catalogue(NKVD)) == set()


def test_it_lets_heroes_stand_alone() -> None:
    assert codes(army(*units("koshka", "nikolai", "ssu-squad"))) == set()
