"""The list builder page and its change views: who may use them, what each change does."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from accounts.models import User
from armies.models import ArmyList, CapturedVehicle, Catalogue
from armies.services import army_lists as lists
from tests.factories import (
    ArmyListFactory,
    CatalogueFactory,
    FactionFactory,
    PlatoonChartFactory,
    UnitFactory,
)

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def catalogue() -> Catalogue:
    cat = CatalogueFactory(name="Builder test", version="7")
    raiders = FactionFactory(catalogue=cat, key="coastal-raiders", name="Coastal Raiders", bloc="Allies")
    UnitFactory(catalogue=cat, key="allies.rifle-squad", name="Rifle Squad", ap=20)
    UnitFactory(catalogue=cat, key="allies.raider-squad", name="Raider Squad", ap=15, faction=raiders)
    UnitFactory(catalogue=cat, key="allies.crane", name="Sergeant Crane", ap=10, hero=True, unique=True)
    UnitFactory(
        catalogue=cat, key="allies.rhodes", name="Ace Rhodes", ap=8, hero=True, unique=True,
        skills=[{"name": "Pilot", "parameter": None}],
    )  # fmt: skip
    UnitFactory(catalogue=cat, key="allies.longhorn", name="Longhorn", unit_type="vehicle", armour=4, ap=30)
    UnitFactory(
        catalogue=cat, key="axis.barwolf", name="Barwolf", bloc="Axis", unit_type="vehicle", armour=4, ap=14,
        capturable=True,
    )  # fmt: skip
    CapturedVehicle.objects.create(catalogue=cat, unit_key="axis.barwolf", captured_by=["Allies"])
    UnitFactory(catalogue=cat, key="allies.bastion", name="Bastion Team", ap=18, strongpoint_unit=True)
    UnitFactory(catalogue=cat, key="ssu.rifles", name="Volga Rifles", bloc="SSU", ap=6)
    PlatoonChartFactory(catalogue=cat, key="allies.rifle-platoon", name="Rifle Platoon", bloc="Allies")
    return cat


@pytest.fixture
def army_list(player: User, catalogue: Catalogue) -> ArmyList:
    return ArmyListFactory(owner=player, catalogue=catalogue, name="Tractor Works defence", points_limit=100)


def with_units(army_list: ArmyList, *keys: str) -> ArmyList:
    for key in keys:
        lists.army_list_add_unit(army_list=army_list, unit_key=key)
    return army_list


def url(name: str, army_list: ArmyList, *args: str) -> str:
    return reverse(f"armies:{name}", args=[army_list.pk, *args])


def entry(army_list: ArmyList, entry_id: str) -> dict[str, Any]:
    army_list.refresh_from_db()
    return next(e for e in army_list.content["entries"] if e["id"] == entry_id)


# --------------------------------------------------------------------------- who may see and change


def test_it_shows_the_builder_to_its_owner(client, player, army_list):
    client.force_login(player)

    response = client.get(url("builder", army_list))

    assert response.status_code == 200
    page = response.content.decode()
    assert "Tractor Works defence" in page
    assert "Add units" in page
    assert "Rifle Squad" in page
    assert "Volga Rifles" not in page  # the list's bloc is chosen in the catalogue panel


def test_it_hides_the_builder_from_a_stranger(client, stranger, army_list):
    client.force_login(stranger)

    assert client.get(url("builder", army_list)).status_code == 404


def test_it_sends_an_anonymous_visitor_to_log_in(client, army_list):
    response = client.get(url("builder", army_list))

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/log-in/")


CHANGES = [
    ("builder_add_unit", (), {"unit": "allies.rifle-squad"}),
    ("builder_update_entry", ("e1",), {"reserve": "on"}),
    ("builder_remove_entry", ("e1",), {}),
    ("builder_add_platoon", (), {"chart": "allies.rifle-platoon"}),
    ("builder_remove_platoon", ("p1",), {}),
    ("builder_add_fortification", (), {"fortification": "strongpoint"}),
    ("builder_remove_fortification", ("f1",), {}),
    ("builder_settings", (), {"name": "Mine now", "points_limit": "150"}),
]


@pytest.mark.parametrize(("name", "args", "data"), CHANGES)
def test_it_refuses_every_change_to_a_stranger(client, stranger, army_list, name, args, data):
    with_units(army_list, "allies.rifle-squad")
    before = entry(army_list, "e1")
    client.force_login(stranger)

    response = client.post(url(name, army_list, *args), data)

    assert response.status_code == 404
    assert entry(army_list, "e1") == before
    assert army_list.name == "Tractor Works defence"


@pytest.mark.parametrize(("name", "args", "data"), CHANGES)
def test_it_sends_an_anonymous_change_to_log_in(client, army_list, name, args, data):
    response = client.post(url(name, army_list, *args), data)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/log-in/")


def test_it_accepts_changes_only_as_posts(client, player, army_list):
    client.force_login(player)

    assert client.get(url("builder_add_unit", army_list)).status_code == 405


# --------------------------------------------------------------------------- units


def test_it_adds_a_unit_and_redirects_back_without_htmx(client, player, army_list):
    client.force_login(player)

    response = client.post(
        url("builder_add_unit", army_list), {"unit": "allies.rifle-squad", "search": "rif"}
    )

    assert response.status_code == 302
    assert response["Location"] == f"{url('builder', army_list)}?search=rif#catalogue"
    army_list.refresh_from_db()
    assert [e["unit"] for e in army_list.content["entries"]] == ["allies.rifle-squad"]
    page = client.get(response["Location"]).content.decode()
    assert "Added Rifle Squad." in page
    assert 'value="rif"' in page


def test_it_answers_htmx_with_the_list_panel_and_the_verdict_out_of_band(client, player, army_list):
    client.force_login(player)

    response = client.post(url("builder_add_unit", army_list), {"unit": "allies.longhorn"}, headers=HTMX)

    assert response.status_code == 200
    page = response.content.decode()
    assert "<html" not in page
    assert page.lstrip().startswith('<section id="army"')
    assert '<div id="builder-summary" class="builder-summary" hx-swap-oob="true">' in page
    assert 'id="verdict"' in page
    assert '<span class="entry-name">Longhorn</span>' in page
    assert "30 / 100 AP" in page
    assert "Added Longhorn." in page


def test_it_names_an_unknown_unit_and_changes_nothing(client, player, army_list):
    client.force_login(player)

    response = client.post(url("builder_add_unit", army_list), {"unit": "allies.no-such"}, headers=HTMX)

    page = response.content.decode()
    assert response.status_code == 200
    assert "list-unit-unknown" in page
    assert "&#x27;allies.no-such&#x27; is not in the list&#x27;s catalogue" in page
    assert "(field: unit)" not in page  # the field and the code are the API's, not the page's words
    army_list.refresh_from_db()
    assert army_list.content["entries"] == []


def test_it_adds_a_charted_vehicle_of_another_bloc_as_the_captured_vehicle(client, player, army_list):
    client.force_login(player)

    picker = client.get(url("builder", army_list), {"bloc": "Axis"}).content.decode()
    response = client.post(
        url("builder_add_unit", army_list), {"captured_unit": "axis.barwolf"}, headers=HTMX
    )

    assert "16 AP captured" in picker  # Barwolf's 14 AP and the 2 AP surcharge
    assert "Added Barwolf as the captured vehicle." in response.content.decode()
    assert entry(army_list, "e1")["captured"] is True
    assert "16 / 100 AP" in response.content.decode()


@pytest.mark.parametrize("data", [{}, {"unit": "allies.rifle-squad", "captured_unit": "axis.barwolf"}])
def test_it_asks_for_exactly_one_unit_to_add(client, player, army_list, data):
    client.force_login(player)

    response = client.post(url("builder_add_unit", army_list), data, headers=HTMX)

    assert "form-invalid" in response.content.decode()
    army_list.refresh_from_db()
    assert army_list.content["entries"] == []


def test_it_shows_a_service_error_as_a_message_without_htmx(client, player, army_list):
    client.force_login(player)

    response = client.post(url("builder_add_unit", army_list), {"unit": "allies.no-such"}, follow=True)

    messages = [str(m) for m in response.context["messages"]]
    assert messages == ["'allies.no-such' is not in the list's catalogue"]


def test_it_removes_an_entry_and_what_pointed_at_it(client, player, army_list):
    with_units(army_list, "allies.rifle-squad", "allies.crane")
    lists.army_list_update_entry(army_list=army_list, entry_id="e2", joined_to="e1")
    client.force_login(player)

    response = client.post(url("builder_remove_entry", army_list, "e1"), headers=HTMX)

    assert response.status_code == 200
    assert "Removed Rifle Squad." in response.content.decode()
    army_list.refresh_from_db()
    assert [e["id"] for e in army_list.content["entries"]] == ["e2"]
    assert entry(army_list, "e2")["joined_to"] is None


def test_it_reports_removing_an_entry_the_list_lacks(client, player, army_list):
    client.force_login(player)

    response = client.post(url("builder_remove_entry", army_list, "e9"), headers=HTMX)

    assert "list-entry-unknown" in response.content.decode()


# --------------------------------------------------------------------------- entries


def test_it_joins_a_hero_to_a_unit(client, player, army_list):
    with_units(army_list, "allies.rifle-squad", "allies.crane")
    client.force_login(player)

    response = client.post(url("builder_update_entry", army_list, "e2"), {"joined_to": "e1"})

    assert response.status_code == 302
    assert response["Location"].endswith("#entry-e2")
    assert entry(army_list, "e2")["joined_to"] == "e1"


def test_it_offers_joins_to_heroes_and_seats_to_pilots_only(client, player, army_list):
    with_units(army_list, "allies.rifle-squad", "allies.crane", "allies.rhodes", "allies.longhorn")
    client.force_login(player)

    page = client.get(url("builder", army_list)).content.decode()

    assert 'id="entry-e2-joined_to"' in page
    assert 'id="entry-e1-joined_to"' not in page  # a squad joins nothing
    assert 'id="entry-e3-pilot_of"' in page  # Ace Rhodes has the Pilot skill
    assert 'id="entry-e2-pilot_of"' not in page
    assert 'id="entry-e4-captured"' in page  # vehicles may be captured
    assert 'id="entry-e1-captured"' not in page


def test_it_sets_a_pilot_and_the_captured_and_reserve_flags(client, player, army_list):
    with_units(army_list, "allies.rhodes", "axis.barwolf")
    client.force_login(player)

    client.post(
        url("builder_update_entry", army_list, "e1"), {"pilot_of": "e2", "reserve": "on"}, headers=HTMX
    )
    client.post(url("builder_update_entry", army_list, "e2"), {"captured": "on"}, headers=HTMX)

    assert entry(army_list, "e1") == {
        "id": "e1", "unit": "allies.rhodes", "joined_to": None, "pilot_of": "e2", "captured": False,
        "reserve": True, "platoon": None, "slot": None,
    }  # fmt: skip
    assert entry(army_list, "e2")["captured"] is True


def test_it_clears_a_flag_left_unticked(client, player, army_list):
    with_units(army_list, "allies.rifle-squad")
    lists.army_list_update_entry(army_list=army_list, entry_id="e1", reserve=True)
    client.force_login(player)

    client.post(url("builder_update_entry", army_list, "e1"), {}, headers=HTMX)

    assert entry(army_list, "e1")["reserve"] is False


def test_it_puts_an_entry_in_a_platoon_slot(client, player, army_list):
    with_units(army_list, "allies.rifle-squad")
    lists.army_list_add_platoon(army_list=army_list, chart_key="allies.rifle-platoon")
    client.force_login(player)

    client.post(url("builder_update_entry", army_list, "e1"), {"placement": "p1:command"}, headers=HTMX)

    army_list.refresh_from_db()
    assert entry(army_list, "e1")["platoon"] == "p1"
    assert entry(army_list, "e1")["slot"] == "command"
    assert army_list.content["platoons"] == [{"id": "p1", "chart": "allies.rifle-platoon", "members": ["e1"]}]


def test_it_names_an_entry_that_refers_to_itself(client, player, army_list):
    with_units(army_list, "allies.crane")
    client.force_login(player)

    response = client.post(url("builder_update_entry", army_list, "e1"), {"joined_to": "e1"}, headers=HTMX)

    page = response.content.decode()
    assert "list-entry-self" in page
    assert "an entry cannot refer to itself" in page
    assert "(field: joined_to)" not in page
    assert entry(army_list, "e1")["joined_to"] is None


# --------------------------------------------------------------------------- platoons and fortifications


def test_it_adds_and_removes_a_platoon(client, player, army_list):
    with_units(army_list, "allies.rifle-squad")
    client.force_login(player)

    response = client.post(url("builder_add_platoon", army_list), {"chart": "allies.rifle-platoon"})
    assert response["Location"].endswith("#platoons")
    army_list.refresh_from_db()
    assert army_list.content["platoons"] == [{"id": "p1", "chart": "allies.rifle-platoon", "members": []}]
    page = client.get(url("builder", army_list)).content.decode()
    assert "[p1] Rifle Platoon" in page
    assert "platoon-members-unspecified" in page

    client.post(url("builder_remove_platoon", army_list, "p1"), headers=HTMX)

    army_list.refresh_from_db()
    assert army_list.content["platoons"] == []


def test_it_names_an_unknown_platoon_chart(client, player, army_list):
    client.force_login(player)

    response = client.post(url("builder_add_platoon", army_list), {"chart": "axis.nothing"}, headers=HTMX)

    assert "list-platoon-chart-unknown" in response.content.decode()


def test_it_adds_fortifications_and_a_bunker_upgrade(client, player, army_list):
    with_units(army_list, "allies.bastion")
    client.force_login(player)

    client.post(url("builder_add_fortification", army_list), {"fortification": "bunker"}, headers=HTMX)
    response = client.post(
        url("builder_add_fortification", army_list), {"fortification": "upgrade:e1"}, headers=HTMX
    )

    army_list.refresh_from_db()
    assert army_list.content["fortifications"] == [
        {"id": "f1", "kind": "bunker", "unit": None},
        {"id": "f2", "kind": "bunker", "unit": "e1"},
    ]
    page = response.content.decode()
    assert "Bunker 2: bunker upgrade of Bastion Team" in page
    assert "fortification-role-unknown" in page  # bought without saying it defends


def test_it_removes_a_fortification(client, player, army_list):
    lists.army_list_add_fortification(army_list=army_list, kind="strongpoint")
    client.force_login(player)

    client.post(url("builder_remove_fortification", army_list, "f1"))

    army_list.refresh_from_db()
    assert army_list.content["fortifications"] == []


def test_it_refuses_a_fortification_it_does_not_know(client, player, army_list):
    client.force_login(player)

    response = client.post(
        url("builder_add_fortification", army_list), {"fortification": "moat"}, headers=HTMX
    )

    assert "form-invalid" in response.content.decode()
    army_list.refresh_from_db()
    assert army_list.content["fortifications"] == []


# --------------------------------------------------------------------------- settings


def test_it_saves_the_settings(client, player, army_list):
    client.force_login(player)

    response = client.post(
        url("builder_settings", army_list),
        {"name": "Harbour raid", "points_limit": "150", "faction": "coastal-raiders", "role": "attacker"},
    )

    assert response.status_code == 302
    army_list.refresh_from_db()
    assert (army_list.name, army_list.points_limit, army_list.faction, army_list.role) == (
        "Harbour raid", 150, "coastal-raiders", "attacker",
    )  # fmt: skip
    assert army_list.content["name"] == "Harbour raid"


def test_it_answers_htmx_settings_with_the_settings_panel_and_the_rest_out_of_band(client, player, army_list):
    client.force_login(player)

    response = client.post(
        url("builder_settings", army_list), {"name": "Harbour raid", "points_limit": "150"}, headers=HTMX
    )

    page = response.content.decode()
    assert page.lstrip().startswith('<section id="settings"')
    assert 'aria-labelledby="army-title" hx-swap-oob="true"' in page
    assert '<div id="builder-summary" class="builder-summary" hx-swap-oob="true">' in page
    assert "Saved the list&#x27;s settings." in page
    assert '<h1 class="summary-title">Harbour raid</h1>' in page


def test_it_keeps_what_was_typed_when_the_settings_are_wrong(client, player, army_list):
    client.force_login(player)

    for headers in ({}, HTMX):
        response = client.post(
            url("builder_settings", army_list), {"name": "Harbour raid", "points_limit": "0"}, headers=headers
        )

        page = response.content.decode()
        assert response.status_code == 200
        assert 'value="Harbour raid"' in page
        assert "Ensure this value is greater than or equal to 1." in page
        assert "form-invalid" in page
    army_list.refresh_from_db()
    assert army_list.name == "Tractor Works defence"


# --------------------------------------------------------------------------- verdict


def test_it_lists_every_problem_with_its_code_and_clears_it(client, player, army_list):
    with_units(army_list, "allies.crane", "allies.crane")
    client.force_login(player)

    page = client.get(url("builder", army_list)).content.decode()
    assert "duplicate-hero" in page
    assert "1 error" in page

    response = client.post(url("builder_remove_entry", army_list, "e2"), headers=HTMX)

    page = response.content.decode()
    assert "duplicate-hero" not in page
    assert "No problems: the list may be registered." in page


def test_it_shows_the_totals_and_the_bonus(client, player, army_list):
    with_units(army_list, "allies.raider-squad", "allies.raider-squad", "allies.crane", "allies.longhorn")
    lists.army_list_update_settings(
        army_list=army_list,
        name=army_list.name,
        bloc="Allies",
        points_limit=60,
        faction="coastal-raiders",
        role=None,
    )
    client.force_login(player)

    response = client.get(url("builder", army_list))

    verdict = response.context["verdict"]
    assert response.context["totals"] == verdict.totals
    page = response.content.decode()
    assert f"{verdict.totals.paid_ap} / 60 AP" in page
    assert f"{verdict.totals.gross_ap} AP" in page
    assert "points-limit-exceeded" in page


def test_it_filters_the_catalogue_panel_for_htmx(client, player, army_list):
    client.force_login(player)

    response = client.get(
        url("builder", army_list),
        {"search": "long", "bloc": "", "type": "vehicle"},
        headers={**HTMX, "HX-Target": "catalogue-units"},
    )

    page = response.content.decode()
    assert page.lstrip().startswith('<div id="catalogue-units"')
    assert "Longhorn" in page
    assert "Rifle Squad" not in page
    assert 'name="search" value="long"' in page  # kept for the next add


# --------------------------------------------------------------------------- queries


def test_it_draws_the_builder_in_a_fixed_number_of_queries(
    client, player, army_list, django_assert_num_queries
):
    with_units(army_list, "allies.rifle-squad", "allies.crane")
    client.force_login(player)

    with django_assert_num_queries(9):
        # 1 session, 2 user, 3 the list with its catalogue,
        # 4-8 the validator's view of the catalogue (blocs, factions, platoon charts, units, captured vehicles),
        #     built once and cached until the catalogue changes,
        # 9 the catalogue panel's units with their factions
        client.get(url("builder", army_list))

    with django_assert_num_queries(4):
        # 1 session, 2 user, 3 the list with its catalogue, 4 the catalogue panel (the catalogue is cached)
        client.get(url("builder", army_list))


def test_it_does_not_query_more_for_a_bigger_list(client, player, army_list, django_assert_num_queries):
    keys = ["allies.rifle-squad", "allies.crane", "allies.rhodes", "allies.longhorn", "axis.barwolf"]
    with_units(army_list, *keys, *keys, "allies.bastion")
    lists.army_list_add_platoon(army_list=army_list, chart_key="allies.rifle-platoon")
    lists.army_list_add_platoon(army_list=army_list, chart_key="allies.rifle-platoon")
    lists.army_list_update_entry(army_list=army_list, entry_id="e1", platoon="p1", slot="command")
    lists.army_list_update_entry(army_list=army_list, entry_id="e2", joined_to="e1")
    lists.army_list_add_fortification(army_list=army_list, kind="bunker", unit_entry="e11")
    client.force_login(player)

    with django_assert_num_queries(9):
        # the same 9 queries as for a list of two entries
        client.get(url("builder", army_list))
