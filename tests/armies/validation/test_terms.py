"""Campaign terms: each one replaces what the list says, or adds what a list cannot say."""

from __future__ import annotations

import pytest

from armies.validation import Override, Terms, army_list_to_text, validate
from armies.validation.terms import describe

from .builders import VERSION, army, catalogue, check, entry, fort, hero, legal_army, units


def test_it_gives_todays_verdict_with_no_terms_or_empty_terms() -> None:
    for army_list in (legal_army(), army(*units("rg-squad", "bunker-crew"), role="attacker", version="old")):
        plain = check(army_list)
        for terms in (None, Terms()):
            verdict = validate(army_list, catalogue(), terms)
            assert verdict.problems == plain.problems
            assert verdict.totals == plain.totals
            assert verdict.overrides == ()


def test_it_records_the_lists_own_terms_when_none_are_given() -> None:
    verdict = check(army(*units("rg-squad"), limit=150, role="defender"))

    assert verdict.terms == Terms(
        points_limit=150, role="defender", rtz=True, catalogue_version=VERSION, granted_fortifications=()
    )
    assert verdict.to_dict()["terms"]["points_limit"] == 150
    assert verdict.to_dict()["overrides"] == []


# --------------------------------------------------------------------------- points limit


def test_it_checks_the_terms_points_limit_instead_of_the_lists() -> None:
    army_list = army(*units("rg-walker", "rg-walker", "rg-walker"), limit=200)  # 120 AP

    assert check(army_list).ok
    verdict = validate(army_list, catalogue(), Terms(points_limit=100))

    assert verdict.codes == {"points-limit-exceeded"}
    assert "over the limit of 100 AP by 20" in verdict.errors[0].message
    assert verdict.totals.points_limit == 100
    assert verdict.overrides == (Override("points_limit", 200, 100),)


def test_it_sizes_the_faction_bonus_from_the_terms_limit() -> None:
    # A 25 AP hero; the list's 300 AP limit would make a 30 AP pool, the terms' 150 AP a 15 AP one.
    army_list = army(*units("rg-squad", "rg-squad", "rg-walker", "nikolai"), faction="red-guard", limit=300)

    assert check(army_list).totals.bonus_used == 25
    verdict = validate(army_list, catalogue(), Terms(points_limit=150))

    assert verdict.totals.bonus_pool == 15
    assert verdict.totals.bonus_used == 15
    assert verdict.totals.paid_ap == 25 + 25 + 40 + 25 - 15


def test_it_lets_a_list_over_its_own_limit_pass_at_a_higher_terms_limit() -> None:
    army_list = army(*units("rg-walker", "rg-walker"), limit=50)

    assert "points-limit-exceeded" in check(army_list).codes
    assert validate(army_list, catalogue(), Terms(points_limit=100)).problems == ()


def test_it_reports_no_override_when_the_terms_agree_with_the_list() -> None:
    verdict = validate(army(*units("rg-squad"), limit=200), catalogue(), Terms(points_limit=200))

    assert verdict.overrides == ()
    assert verdict.terms is not None
    assert verdict.terms.points_limit == 200


# --------------------------------------------------------------------------- role


def test_it_checks_fortifications_for_the_terms_role() -> None:
    army_list = army(*units("rg-squad"), role="attacker", forts=[fort("f", "bunker")])

    assert check(army_list).codes == {"fortification-not-defender"}
    as_defender = validate(army_list, catalogue(), Terms(role="defender"))
    assert as_defender.problems == ()
    assert as_defender.overrides == (Override("role", "attacker", "defender"),)


def test_it_refuses_a_defenders_purchase_when_the_terms_make_it_attack() -> None:
    army_list = army(*units("rg-squad"), role="defender", forts=[fort("f", "strongpoint")])

    verdict = validate(army_list, catalogue(), Terms(role="attacker"))

    assert verdict.codes == {"fortification-not-defender"}


def test_it_settles_a_missing_role_from_the_terms() -> None:
    army_list = army(*units("rg-squad"), forts=[fort("f", "strongpoint")])

    assert check(army_list).codes == {"fortification-role-unknown"}
    verdict = validate(army_list, catalogue(), Terms(role="defender"))
    assert verdict.problems == ()
    assert verdict.overrides == (Override("role", None, "defender"),)


def test_it_warns_of_a_strongpoint_unit_in_the_terms_attacker() -> None:
    verdict = validate(army(*units("bunker-crew"), role="defender"), catalogue(), Terms(role="attacker"))

    assert verdict.codes == {"strongpoint-unit-attacker"}


# --------------------------------------------------------------------------- granted fortifications


def test_it_prices_a_granted_bunker_at_zero_for_a_defender() -> None:
    army_list = army(*units("rg-squad"), role="defender", forts=[fort("f", "bunker")])

    assert check(army_list).totals.fortification_ap == 15
    verdict = validate(army_list, catalogue(), Terms(granted_fortifications=("bunker",)))

    assert verdict.totals.fortification_ap == 0
    assert verdict.totals.paid_ap == 25
    assert verdict.problems == ()


def test_it_refuses_a_granted_bunker_to_an_attacker_under_rtz() -> None:
    army_list = army(*units("rg-squad"), role="attacker", forts=[fort("f", "bunker")])

    verdict = validate(army_list, catalogue(), Terms(granted_fortifications=("bunker",)))

    assert verdict.codes == {"fortification-not-defender"}
    assert "fields bunker (granted)" in verdict.errors[0].message
    assert verdict.totals.fortification_ap == 0


def test_it_warns_when_a_granted_fortification_goes_to_a_list_with_no_role() -> None:
    army_list = army(*units("rg-squad"), forts=[fort("f", "bunker")])

    verdict = validate(army_list, catalogue(), Terms(granted_fortifications=("bunker",)))

    assert verdict.codes == {"fortification-role-unknown"}
    assert verdict.ok


def test_it_grants_each_fortification_once_and_only_of_its_kind() -> None:
    forts = [fort("f1", "strongpoint"), fort("f2", "bunker"), fort("f3", "bunker")]
    army_list = army(*units("rg-squad"), role="defender", forts=forts)

    verdict = validate(army_list, catalogue(), Terms(granted_fortifications=("bunker",)))

    # The strongpoint is bought (10), the first bunker granted (0), the second bought (15).
    assert verdict.totals.fortification_ap == 25


def test_it_grants_two_of_a_kind_when_the_terms_say_so() -> None:
    army_list = army(*units("rg-squad"), role="defender", forts=[fort("f1", "bunker"), fort("f2", "bunker")])

    verdict = validate(army_list, catalogue(), Terms(granted_fortifications=("bunker", "bunker")))

    assert verdict.totals.fortification_ap == 0


def test_it_keeps_a_strongpoint_units_upgrade_its_own_when_a_bunker_is_granted() -> None:
    army_list = army(*units("bunker-crew"), role="defender", forts=[fort("f", "bunker", "e1")])

    verdict = validate(army_list, catalogue(), Terms(granted_fortifications=("bunker",)))

    assert verdict.totals.fortification_ap == 5
    assert verdict.problems == ()


def test_it_accepts_a_list_that_does_not_field_its_granted_fortification() -> None:
    verdict = validate(
        army(*units("rg-squad"), role="defender"), catalogue(), Terms(granted_fortifications=("bunker",))
    )

    assert verdict.problems == ()
    assert verdict.totals.fortification_ap == 0


# --------------------------------------------------------------------------- fortifications offered


def test_it_refuses_a_purchase_the_mission_does_not_offer() -> None:
    army_list = army(*units("rg-squad"), role="defender", forts=[fort("f", "bunker")])

    assert validate(army_list, catalogue(), Terms(fortification_purchases=("bunker",))).problems == ()
    verdict = validate(army_list, catalogue(), Terms(fortification_purchases=()))

    assert verdict.codes == {"fortification-not-offered"}
    assert "lets it buy no fortification" in verdict.errors[0].message


def test_it_lets_a_granted_fortification_through_when_none_is_offered_for_purchase() -> None:
    army_list = army(*units("rg-squad"), role="defender", forts=[fort("f", "bunker")])

    terms = Terms(granted_fortifications=("bunker",), fortification_purchases=())

    assert validate(army_list, catalogue(), terms).problems == ()


# --------------------------------------------------------------------------- RtZ off


def test_it_drops_the_rtz_scout_limit_when_rtz_is_off() -> None:
    army_list = army(*units(*["recon-squad"] * 4))

    assert check(army_list).codes == {"scout-predeploy-limit"}
    assert validate(army_list, catalogue(), Terms(rtz=False)).problems == ()


def test_it_keeps_the_rtz_rules_when_rtz_is_said_to_be_on() -> None:
    army_list = army(*units(*["recon-squad"] * 4))

    assert validate(army_list, catalogue(), Terms(rtz=True)).codes == {"scout-predeploy-limit"}


def test_it_lets_an_attacker_field_a_strongpoint_unit_and_its_upgrade_when_rtz_is_off() -> None:
    army_list = army(*units("bunker-crew"), role="attacker", forts=[fort("f", "bunker", "e1")])

    assert check(army_list).codes == {"fortification-not-defender", "strongpoint-unit-attacker"}
    verdict = validate(army_list, catalogue(), Terms(rtz=False))
    assert verdict.problems == ()
    assert verdict.totals.fortification_ap == 5


def test_it_lets_an_attacker_field_a_granted_fortification_when_rtz_is_off() -> None:
    army_list = army(*units("rg-squad"), role="attacker", forts=[fort("f", "strongpoint")])

    verdict = validate(army_list, catalogue(), Terms(rtz=False, granted_fortifications=("strongpoint",)))

    assert verdict.problems == ()


def test_it_leaves_purchases_to_the_defender_when_rtz_is_off_and_the_mission_says_nothing() -> None:
    army_list = army(*units("rg-squad"), role="attacker", forts=[fort("f", "bunker")])

    verdict = validate(army_list, catalogue(), Terms(rtz=False))

    assert verdict.codes == {"fortification-not-defender"}
    assert "without the RtZ rules" in verdict.errors[0].message


def test_it_lets_an_attacker_buy_what_the_mission_offers_when_rtz_is_off() -> None:
    army_list = army(*units("rg-squad"), role="attacker", forts=[fort("f", "bunker")])

    assert (
        validate(army_list, catalogue(), Terms(rtz=False, fortification_purchases=("bunker",))).problems == ()
    )
    # Under RtZ the same offer does not reach an attacker.
    assert validate(army_list, catalogue(), Terms(fortification_purchases=("bunker",))).codes == {
        "fortification-not-defender"
    }


def test_it_keeps_every_other_rule_when_rtz_is_off() -> None:
    army_list = army(
        *units("koshka", "koshka", "rg-walker", "rg-walker", "rg-walker", "rg-walker", "rg-walker")
    )

    assert validate(army_list, catalogue(), Terms(rtz=False)).codes == {
        "duplicate-hero",
        "points-limit-exceeded",
    }


# --------------------------------------------------------------------------- reserves


@pytest.mark.parametrize(("limit", "reported"), [(0, True), (1, True), (2, False), (5, False)])
def test_it_warns_when_more_units_are_marked_for_reserve_than_the_mission_allows(
    limit: int, reported: bool
) -> None:
    army_list = army(
        entry("a", "rg-squad", reserve=True), entry("b", "ssu-squad", reserve=True), entry("c", "rg-squad")
    )

    verdict = validate(army_list, catalogue(), Terms(reserve_limit=limit))

    assert ("reserve-over-limit" in verdict.codes) is reported
    assert verdict.ok
    if reported:
        (found,) = [p for p in verdict.problems if p.code == "reserve-over-limit"]
        assert found.entry_ids == ("a", "b")


def test_it_does_not_count_reserves_without_a_mission_count() -> None:
    army_list = army(*(entry(f"e{i}", "rg-squad", reserve=True) for i in range(5)), limit=500)

    assert check(army_list).problems == ()


def test_it_says_no_reserve_when_the_mission_allows_none() -> None:
    verdict = validate(army(entry("a", "rg-squad", reserve=True)), catalogue(), Terms(reserve_limit=0))

    assert "allows no reserve" in verdict.warnings[0].message


# --------------------------------------------------------------------------- catalogue version


def test_it_errs_when_the_catalogue_is_not_the_version_the_terms_require() -> None:
    verdict = validate(army(*units("rg-squad")), catalogue(), Terms(catalogue_version="test-2"))

    assert verdict.codes == {"catalogue-version-wrong", "catalogue-version-mismatch"}
    assert not verdict.ok


def test_it_warns_of_a_list_built_for_another_version_than_the_terms() -> None:
    army_list = army(*units("rg-squad"), version="test-0")
    cat = catalogue(version="test-2")

    verdict = validate(army_list, cat, Terms(catalogue_version="test-2"))

    assert verdict.codes == {"catalogue-version-mismatch"}
    assert "the terms require version 'test-2'" in verdict.warnings[0].message
    assert verdict.ok
    assert verdict.overrides == (Override("catalogue_version", "test-0", "test-2"),)


def test_it_is_satisfied_when_list_catalogue_and_terms_share_a_version() -> None:
    assert validate(army(*units("rg-squad")), catalogue(), Terms(catalogue_version=VERSION)).problems == ()


# --------------------------------------------------------------------------- reporting


def test_it_describes_what_the_list_was_checked_under() -> None:
    army_list = army(*units("rg-squad"), limit=300, role="attacker")
    verdict = validate(
        army_list,
        catalogue(),
        Terms(
            points_limit=200, role="defender", granted_fortifications=("bunker",), rtz=False, reserve_limit=2
        ),
    )
    assert verdict.terms is not None

    line = describe(verdict.terms, verdict.overrides)

    assert line.startswith("Checked at 200 AP (the list says 300) as defender (the list says attacker)")
    assert "bunker granted" in line
    assert "2 reserve placements" in line
    assert "RtZ rules off" in line
    assert line in army_list_to_text(army_list, catalogue(), verdict)
    assert "| defender" in army_list_to_text(army_list, catalogue(), verdict)


def test_it_keeps_the_text_as_it_was_without_terms() -> None:
    army_list = legal_army()
    text = army_list_to_text(army_list, catalogue(), check(army_list))

    assert "Checked at" not in text


def test_it_names_a_granted_fortification_in_the_text() -> None:
    army_list = army(*units("rg-squad"), role="defender", forts=[fort("f", "bunker")])
    verdict = validate(army_list, catalogue(), Terms(granted_fortifications=("bunker",)))

    assert "[f] bunker, granted by the terms, 0 AP" in army_list_to_text(army_list, catalogue(), verdict)


def test_it_reports_the_terms_in_the_verdicts_json() -> None:
    verdict = validate(
        army(*units("rg-squad"), limit=300),
        catalogue(),
        Terms(points_limit=250, granted_fortifications=("bunker",)),
    )

    data = verdict.to_dict()

    assert data["terms"]["points_limit"] == 250
    assert data["terms"]["granted_fortifications"] == ["bunker"]
    assert data["terms"]["rtz"] is True
    assert data["overrides"] == [{"field": "points_limit", "listed": 300, "applied": 250}]


def test_it_bonus_pays_heroes_under_terms_as_without() -> None:
    # Terms change no bonus rule: a bloc hero still takes the pool first.
    cat = catalogue(hero("bloc-hero", ap=10))
    army_list = army(*units("rg-squad", "rg-squad", "rg-squad", "bloc-hero"), faction="red-guard", limit=100)

    verdict = validate(army_list, cat, Terms(points_limit=100))

    assert [(use.entry_id, use.ap) for use in verdict.totals.bonus_uses] == [("e4", 10)]
