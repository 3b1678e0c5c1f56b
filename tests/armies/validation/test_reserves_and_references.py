"""Reserves, and the list as data: ids, references, catalogue keys and versions."""

from __future__ import annotations

from .builders import army, catalogue, check, codes, entry, fort, platoon, units


def test_it_lets_ordinary_units_go_to_reserve() -> None:
    assert codes(army(entry("a", "rg-squad", reserve=True), entry("b", "rg-walker", reserve=True))) == set()


def test_it_keeps_heroes_and_strongpoint_units_out_of_reserve() -> None:
    assert codes(army(entry("a", "koshka", reserve=True))) == {"reserve-hero"}
    assert codes(army(entry("a", "bunker-crew", reserve=True), role="defender")) == {
        "reserve-strongpoint-unit"
    }


def test_it_lets_a_unit_with_a_joined_hero_go_to_reserve() -> None:
    army_list = army(entry("u", "rg-squad", reserve=True), entry("h", "koshka", joined_to="u"))
    assert codes(army_list) == set()


def test_it_reports_an_unknown_unit_and_leaves_it_out_of_the_totals() -> None:
    verdict = check(army(*units("rg-squad", "ghost-unit")))
    assert verdict.codes == {"unknown-unit"}
    assert verdict.problems[0].entry_ids == ("e2",)
    assert verdict.totals.unit_ap == 25


def test_it_warns_about_another_catalogue_version_without_blocking() -> None:
    verdict = check(army(*units("rg-squad"), version="2019"))
    assert verdict.codes == {"catalogue-version-mismatch"}
    assert verdict.ok
    assert "'2019'" in verdict.problems[0].message


def test_it_reports_each_dangling_reference() -> None:
    army_list = army(
        entry("a", "koshka", joined_to="x1"),
        entry("b", "nikolai", pilot_of="x2"),
        entry("c", "rg-squad", platoon="x3", slot="combat-1"),
        role="defender",
        platoons=[platoon("p", "rg-platoon", "x4")],
        forts=[fort("f", "strongpoint", "x5")],
    )
    verdict = check(army_list)
    references = [p for p in verdict.problems if p.code == "unknown-entry-reference"]
    assert len(references) == 4
    for missing in ("x1", "x2", "x4", "x5"):
        assert any(repr(missing) in p.message for p in references), missing
    assert "unknown-platoon" in verdict.codes


def test_it_reports_repeated_ids() -> None:
    army_list = army(
        entry("a", "rg-squad"),
        entry("a", "rg-squad"),
        role="defender",
        platoons=[platoon("p", "rg-platoon", "a"), platoon("p", "rg-platoon", "a")],
        forts=[fort("f", "strongpoint"), fort("f", "strongpoint")],
    )
    found = codes(army_list)
    assert {"duplicate-entry-id", "duplicate-platoon-id", "duplicate-fortification-id"} <= found


def test_it_checks_the_bloc_and_claimed_faction_names() -> None:
    assert codes(army(*units("rg-squad"), bloc="Atlantis")) == {"unknown-bloc"}
    assert codes(army(*units("rg-squad"), faction="ghost")) == {"unknown-faction"}
    assert codes(army(*units("rg-squad"), faction="blutkreuz")) == {"faction-wrong-bloc"}


def test_it_rejects_an_empty_list_and_a_zero_limit() -> None:
    assert codes(army()) == {"empty-list"}
    assert "points-limit-invalid" in codes(army(*units("rg-squad"), limit=0))


def test_it_survives_a_hero_cycle() -> None:
    army_list = army(entry("a", "koshka", joined_to="b"), entry("b", "nikolai", joined_to="a"))
    assert codes(army_list) == {"join-target-hero"}


def test_it_needs_no_optional_catalogue_parts() -> None:
    bare = catalogue(standard=False, captured=())
    verdict = check(army(*units("rg-squad")), bare)
    assert verdict.codes == {"unknown-unit"}
