"""Points limit, faction bonus and the 75% faction test, with the product's rulings."""

from __future__ import annotations

from fractions import Fraction

from armies.validation.types import BonusUse, CapturedVehicleEntry

from .builders import army, catalogue, check, codes, entry, fort, hero, unit, units


def test_it_accepts_a_list_exactly_at_the_limit() -> None:
    verdict = check(army(*units("rg-walker", "rg-walker", "rg-squad"), limit=105))
    assert verdict.totals.paid_ap == 105
    assert verdict.ok


def test_it_rejects_a_list_one_point_over_the_limit() -> None:
    verdict = check(army(*units("rg-walker", "rg-walker", "rg-squad"), limit=104))
    assert "points-limit-exceeded" in verdict.codes
    assert not verdict.ok
    (problem,) = verdict.errors
    assert "105 AP" in problem.message
    assert "limit of 104 AP by 1" in problem.message


def test_it_sets_the_bonus_pool_to_a_tenth_of_the_limit_rounded_down() -> None:
    assert check(army(*units("rg-squad"), limit=209)).totals.bonus_pool == 20
    assert check(army(*units("rg-squad"), limit=199)).totals.bonus_pool == 19


def test_it_pays_bloc_heroes_before_faction_heroes() -> None:
    verdict = check(army(*units("nikolai", "koshka", "rg-walker", "rg-squad", "rg-squad"), limit=200))
    assert verdict.totals.army_type == "faction"
    assert verdict.totals.bonus_uses == (BonusUse("e2", "koshka", 20),)
    assert verdict.totals.paid_ap == 115


def test_it_pays_part_of_a_hero() -> None:
    verdict = check(army(*units("nikolai", "rg-walker", "rg-squad"), limit=100))
    assert verdict.totals.bonus_uses == (BonusUse("e1", "nikolai", 10),)
    assert verdict.totals.paid_ap == 80
    assert verdict.ok


def test_it_lets_the_bonus_bring_a_list_under_the_limit() -> None:
    army_list = army(*units("rg-walker", "rg-walker", "rg-squad", "koshka"), limit=115)
    verdict = check(army_list)
    assert verdict.totals.gross_ap == 125
    assert verdict.totals.paid_ap == 114
    assert verdict.ok


def test_it_never_pays_a_mercenary_hero_in_a_bloc_force() -> None:
    verdict = check(army(*units("rg-squad", "rg-squad", "rg-squad", "merc-hero"), limit=200))
    assert verdict.totals.army_type == "faction"
    assert verdict.totals.bonus_uses == ()
    assert verdict.totals.paid_ap == 95


def test_it_pays_mercenary_heroes_in_a_mercenary_force_with_a_captured_vehicle() -> None:
    army_list = army(
        *units("merc-squad", "merc-heavy", "merc-hero"),
        entry("cap", "axis-walker", captured=True),
        limit=120,
    )
    verdict = check(army_list)
    assert verdict.totals.army_type == "mercenary"
    assert verdict.totals.bonus_uses == (BonusUse("e3", "merc-hero", 12),)
    assert verdict.totals.gross_ap == 112
    assert verdict.totals.paid_ap == 100
    assert verdict.problems == ()


def test_it_does_not_treat_a_mercenary_force_with_a_bloc_unit_as_mercenary() -> None:
    verdict = check(army(*units("merc-squad", "merc-hero", "ssu-squad"), limit=100))
    assert verdict.totals.army_type == "bloc"
    assert verdict.totals.bonus_used == 0


def test_it_passes_a_force_at_exactly_75_percent() -> None:
    cat = catalogue(unit("f75", ap=75, faction="red-guard"), unit("b25", ap=25))
    verdict = check(army(*units("f75", "b25")), cat)
    assert verdict.totals.army_type == "faction"
    assert verdict.totals.faction_share == Fraction(3, 4)
    assert verdict.totals.faction_share_percent == 75.0


def test_it_gives_no_bonus_to_a_force_just_under_75_percent() -> None:
    cat = catalogue(unit("f75", ap=75, faction="red-guard"), unit("b26", ap=26), hero("bh", ap=10))
    verdict = check(army(*units("f75", "b26"), limit=200), cat)
    assert verdict.totals.army_type == "bloc"
    assert verdict.totals.faction == "red-guard"
    assert verdict.totals.bonus_used == 0
    assert verdict.problems == ()  # no claim, so a bloc force is all it ever was


def test_it_leaves_bonus_paid_bloc_heroes_out_of_the_share() -> None:
    # 70 of 100 gross is 70%, but the 10 AP hero the bonus pays drops out: 70 / 90.
    cat = catalogue(unit("f70", ap=70, faction="red-guard"), unit("b20", ap=20), hero("bh", ap=10))
    verdict = check(army(*units("f70", "b20", "bh"), limit=100), cat)
    assert verdict.totals.army_type == "faction"
    assert verdict.totals.faction_share == Fraction(70, 90)
    assert verdict.totals.paid_ap == 90


def test_it_leaves_bonus_paid_faction_heroes_out_of_both_sides() -> None:
    cat = catalogue(
        unit("f60", ap=60, faction="red-guard"), unit("b20", ap=20), hero("fh", ap=20, faction="red-guard")
    )
    verdict = check(army(*units("f60", "fh", "b20"), limit=100), cat)
    assert verdict.totals.bonus_uses == (BonusUse("e2", "fh", 10),)
    assert verdict.totals.faction_share == Fraction(70, 90)


def test_it_caps_the_faction_hero_bonus_to_keep_the_force_at_75_percent() -> None:
    cat = catalogue(
        unit("f56", ap=56, faction="red-guard"), unit("b24", ap=24), hero("fh", ap=20, faction="red-guard")
    )
    verdict = check(army(*units("f56", "fh", "b24"), limit=100), cat)
    assert verdict.totals.army_type == "faction"
    assert verdict.totals.bonus_used == 4
    assert verdict.totals.faction_share == Fraction(3, 4)
    assert verdict.totals.paid_ap == 96


def test_it_counts_fortifications_against_the_faction_share() -> None:
    army_list = army(*units("rg-squad", "rg-squad", "rg-squad", "ssu-squad"), role="defender")
    assert check(army_list).totals.army_type == "faction"
    fortified = army(*army_list.entries, role="defender", forts=[fort("f1", "bunker")])
    verdict = check(fortified)
    assert verdict.totals.fortification_ap == 15
    assert verdict.totals.army_type == "bloc"
    assert verdict.totals.faction_share == Fraction(75, 110)


def test_it_counts_the_captured_surcharge_against_the_faction_share() -> None:
    cat = catalogue(unit("f108", ap=108, faction="red-guard"))
    verdict = check(army(entry("f", "f108"), entry("c", "axis-walker", captured=True)), cat)
    assert verdict.totals.captured_surcharge == 2
    assert verdict.totals.faction_share == Fraction(108, 145)
    assert verdict.totals.army_type == "bloc"


def test_it_lets_a_captured_vehicle_of_a_faction_sit_in_a_faction_force() -> None:
    cat = catalogue(unit("axis-tank", ap=10, bloc="Axis", faction="blutkreuz", unit_type="vehicle"))
    cat = catalogue(*cat.units, captured=[*cat.captured_vehicles, CapturedVehicleEntry("axis-tank")])
    verdict = check(army(*units("rg-walker", "rg-walker"), entry("c", "axis-tank", captured=True)), cat)
    assert verdict.totals.army_type == "faction"


def test_it_infers_the_faction_force_without_a_claim() -> None:
    verdict = check(army(*units("rg-squad", "rg-walker")))
    assert verdict.totals.army_type == "faction"
    assert verdict.totals.faction == "red-guard"


def test_it_makes_a_force_with_two_factions_a_bloc_force_without_warning() -> None:
    verdict = check(army(*units("rg-walker", "rg-walker", "sp-squad", "koshka"), limit=200))
    assert verdict.totals.army_type == "bloc"
    assert verdict.totals.faction == "red-guard"  # the biggest faction is the one measured
    assert verdict.totals.bonus_used == 0
    assert verdict.problems == ()


def test_it_warns_when_a_claimed_faction_force_holds_another_faction() -> None:
    verdict = check(army(entry("a", "rg-walker"), entry("b", "sp-squad"), faction="red-guard"))
    (problem,) = verdict.problems
    assert problem.code == "faction-force-mixed"
    assert problem.severity == "warning"
    assert problem.entry_ids == ("b",)
    assert verdict.ok


def test_it_warns_when_a_claimed_faction_is_under_75_percent() -> None:
    verdict = check(army(*units("rg-squad", "ssu-walker"), faction="red-guard"))
    assert [p.code for p in verdict.problems] == ["faction-share-too-low"]
    assert "35.7%" in verdict.problems[0].message


def test_it_keeps_a_claimed_faction_force_that_qualifies_quiet() -> None:
    assert codes(army(*units("rg-squad", "rg-walker", "koshka"), faction="red-guard")) == set()


def test_it_counts_a_commissar_for_the_faction_of_the_unit_it_joins() -> None:
    with_faction = army(
        *units("rg-squad", "rg-squad", "ssu-squad"), entry("com", "commissar", joined_to="e1"), limit=100
    )
    verdict = check(with_faction)
    assert verdict.totals.army_type == "faction"
    assert verdict.totals.bonus_uses == (BonusUse("com", "commissar", 5),)
    assert verdict.totals.faction_share == Fraction(3, 4)
    with_bloc = army(
        *units("rg-squad", "rg-squad", "ssu-squad"), entry("com", "commissar", joined_to="e3"), limit=100
    )
    assert check(with_bloc).totals.army_type == "bloc"


def test_it_explains_the_missing_bonus_when_over_the_limit() -> None:
    verdict = check(army(*units("rg-walker", "sp-squad", "koshka"), limit=85))
    (problem,) = verdict.problems
    assert problem.code == "points-limit-exceeded"
    assert "no faction bonus, because it fields units of 2 factions" in problem.message


def test_it_reports_gross_bonus_and_paid_totals() -> None:
    data = check(army(*units("rg-walker", "koshka"), limit=100)).totals.to_dict()
    assert data["gross_ap"] == 60
    assert data["bonus_pool"] == 10
    assert data["bonus_used"] == 10
    assert data["paid_ap"] == 50
    assert data["faction_share"] == [4, 5]
    assert data["bonus_uses"] == [{"entry_id": "e2", "unit": "koshka", "ap": 10}]


def test_it_gives_a_mercenary_hero_no_bonus_in_a_mercenary_force_that_claims_a_faction() -> None:
    verdict = check(army(*units("merc-squad", "merc-hero"), faction="red-guard"))
    assert verdict.totals.bonus_used == 0
    assert "faction-share-too-low" in verdict.codes


def test_it_counts_a_force_paid_wholly_by_the_bonus_as_all_faction() -> None:
    """Product rulings: a lone faction hero paid by the bonus leaves 0/0 paid AP; it is a faction force."""
    cat = catalogue()
    hero_key = next(u.key for u in cat.units if u.is_hero and u.faction is not None and u.ap <= 25)
    hero = cat.unit_by_key[hero_key]
    army_list = army(entry("e1", hero_key), bloc=hero.bloc, faction=hero.faction, limit=hero.ap * 10)

    totals = check(army_list, cat).totals

    assert totals.army_type == "faction"
    assert totals.paid_ap == 0
    assert totals.faction_share == 1
