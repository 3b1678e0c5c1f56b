"""One bloc, captured vehicles, unique units and the RtZ scout limit."""

from __future__ import annotations

from armies.validation.types import CapturedVehicleEntry

from .builders import army, catalogue, check, codes, entry, hero, unit, units


def test_it_rejects_a_unit_of_another_bloc() -> None:
    verdict = check(army(entry("a", "rg-squad"), entry("b", "axis-squad")))
    (problem,) = verdict.problems
    assert problem.code == "wrong-bloc"
    assert problem.entry_ids == ("b",)
    assert "Axis Squad belongs to the Axis bloc, but the force is SSU" in problem.message


def test_it_hints_that_a_chart_vehicle_may_be_marked_captured() -> None:
    verdict = check(army(entry("a", "rg-squad"), entry("b", "axis-walker")))
    (problem,) = verdict.problems
    assert problem.code == "wrong-bloc"
    assert "marked as captured" in problem.message


def test_it_lets_mercenaries_join_any_bloc() -> None:
    assert codes(army(*units("rg-squad", "merc-squad", "merc-walker"))) == set()
    assert codes(army(*units("axis-squad", "merc-squad"), bloc="Axis")) == set()


def test_it_accepts_one_captured_vehicle_at_two_more_ap() -> None:
    verdict = check(army(entry("a", "rg-walker"), entry("b", "axis-walker", captured=True)))
    assert verdict.problems == ()
    assert verdict.totals.unit_ap == 75
    assert verdict.totals.captured_surcharge == 2
    assert verdict.totals.paid_ap == 77


def test_it_rejects_a_second_captured_vehicle() -> None:
    verdict = check(
        army(entry("a", "axis-walker", captured=True), entry("b", "allied-walker", captured=True))
    )
    assert verdict.codes == {"captured-vehicle-limit"}
    assert verdict.problems[0].entry_ids == ("a", "b")
    assert verdict.totals.captured_surcharge == 4


def test_it_rejects_a_captured_unit_missing_from_the_chart() -> None:
    assert codes(army(entry("a", "axis-squad", captured=True))) == {"captured-not-on-chart"}


def test_it_rejects_capturing_a_vehicle_the_chart_keeps_from_the_bloc() -> None:
    cat = catalogue(captured=[CapturedVehicleEntry("axis-walker", captured_by=frozenset({"Allies"}))])
    assert codes(army(entry("a", "axis-walker", captured=True)), cat) == {"captured-own-bloc"}
    assert codes(army(entry("a", "axis-walker", captured=True), bloc="Allies"), cat) == set()


def test_it_rejects_capturing_a_vehicle_of_the_own_bloc() -> None:
    cat = catalogue(captured=[CapturedVehicleEntry("ssu-walker")])
    assert codes(army(entry("a", "ssu-walker", captured=True)), cat) == {"captured-own-bloc"}


def test_it_uses_the_charts_surcharge() -> None:
    cat = catalogue(captured=[CapturedVehicleEntry("axis-walker", surcharge=3)])
    assert check(army(entry("a", "axis-walker", captured=True)), cat).totals.captured_surcharge == 3


def test_it_rejects_a_named_pilot_vehicle_twice() -> None:
    verdict = check(army(*units("koshka-walker", "koshka-walker"), limit=200))
    assert verdict.codes == {"duplicate-unique-unit"}


def test_it_rejects_a_unique_unit_twice_but_not_ordinary_units() -> None:
    cat = catalogue(unit("prototype", unique=True))
    assert codes(army(*units("prototype", "prototype")), cat) == {"duplicate-unique-unit"}
    assert codes(army(*units("rg-squad", "rg-squad", "rg-squad"))) == set()


def test_it_warns_about_a_fourth_scout_only() -> None:
    assert codes(army(*units(*["recon-squad"] * 3))) == set()
    verdict = check(army(*units(*["recon-squad"] * 4)))
    assert verdict.codes == {"scout-predeploy-limit"}
    assert verdict.ok


def test_it_does_not_count_a_scout_hero_riding_with_a_unit() -> None:
    cat = catalogue(hero("scout-hero", skill_names=["Scout"]))
    army_list = army(*units(*["recon-squad"] * 3), entry("h", "scout-hero", joined_to="e1"))
    assert codes(army_list, cat) == set()
