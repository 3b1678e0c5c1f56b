"""priced_entries: the AP paid for each entry adds up to the verdict's paid total."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armies.validation import (
    PricedEntry,
    PricedFortificationEntry,
    Terms,
    army_list_from_json,
    limits,
    priced_entries,
    validate,
)
from armies.validation.types import FORTIFICATION_KINDS, ROLES, ArmyList, Catalogue

from .builders import VERSION, army, catalogue, entry, fort, legal_army, units
from .test_properties import CATALOGUE, documents


def test_it_prices_every_entry_of_the_legal_list() -> None:
    army_list = legal_army()

    pricing = priced_entries(army_list, catalogue())

    by_id = {item.entry_id: item for item in pricing.entries}
    assert [item.entry_id for item in pricing.entries] == [e.id for e in army_list.entries]
    assert by_id["cmd"] == PricedEntry("cmd", "rg-command", unit_ap=20, surcharge=0, bonus_ap=0)
    assert (by_id["axis"].unit_ap, by_id["axis"].surcharge, by_id["axis"].paid_ap) == (35, 2, 37)
    assert pricing.paid_ap == validate(army_list, catalogue()).totals.paid_ap


def test_it_counts_only_the_part_of_a_hero_the_player_paid() -> None:
    # A 200 AP Red Guard force has a 20 AP bonus pool; Koshka (bloc hero, 20 AP) takes it all
    # first, so Nikolai (25 AP) is paid in full; at 250 AP the pool is 25 and Nikolai gets 5.
    army_list = army(*units("rg-squad", "rg-squad", "rg-walker", "koshka", "nikolai"), faction="red-guard")

    at_200 = {item.entry_id: item for item in priced_entries(army_list, catalogue()).entries}
    at_250 = {
        item.entry_id: item
        for item in priced_entries(army_list, catalogue(), Terms(points_limit=250)).entries
    }

    assert (at_200["e4"].bonus_ap, at_200["e4"].paid_ap) == (20, 0)
    assert (at_200["e5"].bonus_ap, at_200["e5"].paid_ap) == (0, 25)
    assert (at_250["e5"].bonus_ap, at_250["e5"].paid_ap) == (5, 20)


def test_it_puts_a_strongpoint_units_upgrade_on_the_unit_apart_from_its_own_cost() -> None:
    army_list = army(*units("bunker-crew"), role="defender", forts=[fort("f1", "bunker", "e1")])

    (crew,) = priced_entries(army_list, catalogue()).entries

    assert (crew.paid_ap, crew.fortification_ap, crew.total_ap) == (30, 5, 35)
    assert crew.fortification_ids == ("f1",)


def test_it_prices_granted_and_bought_fortifications_of_no_entry_on_their_own() -> None:
    army_list = army(
        *units("rg-squad"), role="defender", forts=[fort("f1", "bunker"), fort("f2", "strongpoint")]
    )

    pricing = priced_entries(army_list, catalogue(), Terms(granted_fortifications=("bunker",)))

    assert pricing.fortifications == (
        PricedFortificationEntry("f1", "bunker", 0, "granted"),
        PricedFortificationEntry("f2", "strongpoint", 10, "bought"),
    )
    assert pricing.paid_ap == 25 + 10


def test_it_prices_an_unknown_unit_at_nothing() -> None:
    (item,) = priced_entries(army(*units("no-such-unit")), catalogue()).entries

    assert (item.unit_key, item.unit_ap, item.paid_ap) == ("no-such-unit", 0, 0)


def test_it_attaches_a_fortification_to_the_first_entry_of_a_repeated_id() -> None:
    army_list = army(
        entry("x", "bunker-crew"),
        entry("x", "bunker-crew"),
        role="defender",
        forts=[fort("f", "bunker", "x")],
    )

    first, second = priced_entries(army_list, catalogue()).entries

    assert (first.fortification_ap, second.fortification_ap) == (5, 0)


def test_it_serialises_for_a_snapshot() -> None:
    data = priced_entries(legal_army(), catalogue()).to_dict()

    assert data["paid_ap"] == sum(item["total_ap"] for item in data["entries"]) + sum(
        item["ap"] for item in data["fortifications"]
    )
    assert set(data["entries"][0]) >= {
        "entry_id",
        "unit",
        "unit_ap",
        "surcharge",
        "bonus_ap",
        "paid_ap",
        "total_ap",
    }


# --------------------------------------------------------------------------- the sum, for any list


def optional(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), strategy)


kinds = st.sampled_from(FORTIFICATION_KINDS)
terms_strategy = st.one_of(
    st.none(),
    st.builds(
        Terms,
        points_limit=optional(st.integers(limits.POINTS_LIMIT_MIN, limits.POINTS_LIMIT_MAX)),
        role=optional(st.sampled_from(ROLES)),
        granted_fortifications=st.lists(kinds, max_size=limits.MAX_GRANTED_FORTIFICATIONS).map(tuple),
        fortification_purchases=optional(st.lists(kinds, max_size=2, unique=True).map(tuple)),
        rtz=optional(st.booleans()),
        reserve_limit=optional(st.integers(0, limits.RESERVE_LIMIT_MAX)),
        catalogue_version=optional(st.sampled_from([VERSION, "other"])),
    ),
)

# Faction forces with heroes, so the bonus pays for heroes wholly and in part.
RED_GUARD = [
    "rg-command",
    "rg-squad",
    "rg-heavy-squad",
    "rg-walker",
    "nikolai",
    "koshka",
    "commissar",
    "bunker-crew",
]
faction_lists = st.builds(
    lambda keys, captured, limit, faction, forts: army(
        *units(*keys),
        *([entry("cap", "axis-walker", captured=True)] if captured else []),
        faction=faction,
        limit=limit,
        role="defender",
        forts=[fort(f"f{i}", kind, "e1" if attached else None) for i, (kind, attached) in enumerate(forts)],
    ),
    st.lists(st.sampled_from(RED_GUARD), max_size=10),
    st.booleans(),
    st.integers(1, 400),
    st.sampled_from([None, "red-guard"]),
    st.lists(st.tuples(kinds, st.booleans()), max_size=3),
)


def assert_adds_up(army_list: ArmyList, cat: Catalogue, terms: Terms | None) -> None:
    pricing = priced_entries(army_list, cat, terms)
    totals = validate(army_list, cat, terms).totals

    assert pricing.paid_ap == totals.paid_ap
    assert sum(item.unit_ap for item in pricing.entries) == totals.unit_ap
    assert sum(item.surcharge for item in pricing.entries) == totals.captured_surcharge
    assert sum(item.bonus_ap for item in pricing.entries) == totals.bonus_used
    assert (
        sum(item.fortification_ap for item in pricing.entries) + sum(f.ap for f in pricing.fortifications)
        == totals.fortification_ap
    )
    assert [item.entry_id for item in pricing.entries] == [e.id for e in army_list.entries]
    for item in pricing.entries:
        assert 0 <= item.bonus_ap <= item.unit_ap + item.surcharge
        assert item.paid_ap >= 0
    granted = [f for f in pricing.fortifications if f.source == "granted"]
    assert all(f.ap == 0 for f in granted)
    assert len(granted) <= len(terms.granted_fortifications if terms else ())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, terms_strategy)
def test_it_adds_up_to_the_verdicts_paid_total_for_any_list(
    document: dict[str, Any], terms: Terms | None
) -> None:
    assert_adds_up(army_list_from_json(document), CATALOGUE, terms)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(faction_lists, terms_strategy)
def test_it_adds_up_for_faction_forces_with_heroes(army_list: ArmyList, terms: Terms | None) -> None:
    assert_adds_up(army_list, CATALOGUE, terms)
