"""Fortifications: defender only, prices, strongpoint units' free strongpoint and its upgrade."""

from __future__ import annotations

import pytest

from .builders import army, catalogue, check, fort, unit, units


@pytest.mark.parametrize(("kind", "cost"), [("strongpoint", 10), ("bunker", 15)])
def test_it_prices_a_bought_fortification_for_a_defender(kind: str, cost: int) -> None:
    verdict = check(army(*units("rg-squad"), role="defender", forts=[fort("f", kind)]))
    assert verdict.totals.fortification_ap == cost
    assert verdict.totals.paid_ap == 25 + cost
    assert verdict.problems == ()


def test_it_refuses_fortifications_to_an_attacker() -> None:
    verdict = check(army(*units("rg-squad"), role="attacker", forts=[fort("f", "bunker")]))
    assert verdict.codes == {"fortification-not-defender"}
    assert not verdict.ok


def test_it_warns_when_the_list_does_not_say_it_defends() -> None:
    verdict = check(army(*units("rg-squad"), forts=[fort("f", "strongpoint")]))
    assert verdict.codes == {"fortification-role-unknown"}
    assert verdict.ok


def test_it_includes_a_free_strongpoint_with_a_strongpoint_unit_in_any_role() -> None:
    for role in ("defender", None):
        verdict = check(army(*units("bunker-crew"), role=role, forts=[fort("f", "strongpoint", "e1")]))
        assert verdict.totals.fortification_ap == 0
        assert verdict.problems == ()


def test_it_upgrades_the_free_strongpoint_to_a_bunker_for_five_ap() -> None:
    verdict = check(army(*units("bunker-crew"), role="defender", forts=[fort("f", "bunker", "e1")]))
    assert verdict.totals.fortification_ap == 5
    assert verdict.problems == ()


def test_it_treats_the_bunker_upgrade_as_a_defender_purchase() -> None:
    verdict = check(army(*units("bunker-crew"), role="attacker", forts=[fort("f", "bunker", "e1")]))
    assert verdict.codes == {"fortification-not-defender", "strongpoint-unit-attacker"}


def test_it_warns_an_attacker_fielding_a_strongpoint_unit() -> None:
    verdict = check(army(*units("bunker-crew"), role="attacker"))
    assert verdict.codes == {"strongpoint-unit-attacker"}
    assert verdict.ok


def test_it_recognises_the_strongpoint_skill() -> None:
    cat = catalogue(unit("pillbox-crew", skills={"Strongpoint": None}))
    verdict = check(army(*units("pillbox-crew"), role="defender", forts=[fort("f", "bunker", "e1")]), cat)
    assert verdict.totals.fortification_ap == 5
    assert verdict.problems == ()


def test_it_prices_a_false_free_claim_as_bought_and_reports_it() -> None:
    verdict = check(army(*units("rg-squad"), role="defender", forts=[fort("f", "bunker", "e1")]))
    assert verdict.codes == {"fortification-not-strongpoint-unit"}
    assert verdict.totals.fortification_ap == 15


def test_it_gives_a_strongpoint_unit_one_free_fortification() -> None:
    forts = [fort("f1", "strongpoint", "e1"), fort("f2", "bunker", "e1")]
    verdict = check(army(*units("bunker-crew"), role="defender", forts=forts))
    assert verdict.codes == {"fortification-duplicate-upgrade"}
    assert verdict.totals.fortification_ap == 15


def test_it_counts_fortifications_as_neither_bloc_nor_faction() -> None:
    verdict = check(army(*units("rg-walker", "rg-walker"), role="defender", forts=[fort("f", "strongpoint")]))
    assert verdict.totals.faction_share is not None
    assert verdict.totals.faction_share_percent == pytest.approx(88.89)
