"""My lists, new list, import, duplicate, delete, exports and the print page."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from accounts.models import User
from armies.models import ArmyList, Catalogue
from armies.services import army_lists as lists
from tests.factories import ArmyListFactory, CatalogueFactory, FactionFactory, UnitFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalogue() -> Catalogue:
    cat = CatalogueFactory(name="Lists test", version="3", blocs=["Allies", "Axis", "SSU"])
    FactionFactory(catalogue=cat, key="coastal-raiders", name="Coastal Raiders", bloc="Allies")
    UnitFactory(catalogue=cat, key="allies.rifle-squad", name="Rifle Squad", ap=20)
    UnitFactory(catalogue=cat, key="allies.crane", name="Sergeant Crane", ap=10, hero=True, unique=True)
    return cat


@pytest.fixture
def army_list(player: User, catalogue: Catalogue) -> ArmyList:
    army_list = ArmyListFactory(owner=player, catalogue=catalogue, name="Night at the Zoo", points_limit=25)
    for key in ("allies.rifle-squad", "allies.crane", "allies.crane"):
        lists.army_list_add_unit(army_list=army_list, unit_key=key)
    lists.army_list_update_entry(army_list=army_list, entry_id="e2", joined_to="e1")
    return army_list


def url(name: str, army_list: ArmyList | None = None) -> str:
    return reverse(f"armies:{name}", args=[army_list.pk] if army_list else [])


# --------------------------------------------------------------------------- who sees what

OWN_PAGES = [
    "builder",
    "list_delete",
    "list_export_json",
    "list_export_text",
    "list_export_rosz",
    "list_print",
]


@pytest.mark.parametrize("name", OWN_PAGES)
def test_it_shows_a_list_page_to_its_owner(client, player, army_list, name):
    client.force_login(player)

    assert client.get(url(name, army_list)).status_code == 200


@pytest.mark.parametrize("name", [*OWN_PAGES, "list_duplicate"])
def test_it_answers_404_to_a_stranger(client, stranger, army_list, name):
    client.force_login(stranger)

    response = (
        client.post(url(name, army_list)) if name == "list_duplicate" else client.get(url(name, army_list))
    )

    assert response.status_code == 404
    assert ArmyList.objects.count() == 1


@pytest.mark.parametrize("name", [*OWN_PAGES, "list_duplicate"])
def test_it_sends_an_anonymous_visitor_to_log_in(client, army_list, name):
    response = (
        client.post(url(name, army_list)) if name == "list_duplicate" else client.get(url(name, army_list))
    )

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/log-in/")


@pytest.mark.parametrize("name", ["lists", "list_create", "list_import"])
def test_it_asks_for_a_login_before_the_players_pages(client, name):
    response = client.get(url(name))

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/log-in/")


# --------------------------------------------------------------------------- my lists


def test_it_lists_only_my_lists_with_points_and_verdict(client, player, stranger, army_list, catalogue):
    ArmyListFactory(owner=stranger, catalogue=catalogue, name="Sasha's secret list")
    clean = ArmyListFactory(owner=player, catalogue=catalogue, name="Clean list", points_limit=50)
    lists.army_list_add_unit(army_list=clean, unit_key="allies.rifle-squad")
    client.force_login(player)

    response = client.get(url("lists"))

    page = response.content.decode()
    assert [a.name for a, _verdict, _faction in response.context["rows"]] == [
        "Clean list",
        "Night at the Zoo",
    ]
    assert "Sasha&#x27;s secret list" not in page
    assert "40 / 25 AP" in page  # 20 + 10 + 10 over a limit of 25
    assert "2 errors" in page  # the duplicate hero and the points limit
    assert "20 / 50 AP" in page
    assert '<span class="badge badge-ok">ok</span>' in page
    for name in ("list_export_json", "list_export_text", "list_print", "list_delete", "list_duplicate"):
        assert url(name, army_list) in page


def test_it_draws_my_lists_in_a_fixed_number_of_queries(client, player, army_list, django_assert_num_queries):
    client.force_login(player)

    with django_assert_num_queries(9):
        # 1 session, 2 user, 3 my lists with their catalogues, 4 the names of their catalogues' factions,
        # 5-9 the validator's view of the one catalogue (blocs, factions, platoon charts, units, captured vehicles)
        client.get(url("lists"))


def test_it_does_not_query_more_for_more_lists(
    client, player, army_list, catalogue, django_assert_num_queries
):
    for number in range(6):
        ArmyListFactory(owner=player, catalogue=catalogue, name=f"Spare {number}")
    other = ArmyListFactory(owner=player, catalogue=CatalogueFactory(name="Other"), name="Elsewhere")
    client.force_login(player)

    with django_assert_num_queries(14):
        # 1 session, 2 user, 3 my lists with their catalogues, 4 the names of their catalogues' factions,
        # 5-14 the validator's view of each of the two catalogues, 5 queries each, however many lists use it
        response = client.get(url("lists"))

    assert len(response.context["rows"]) == 8
    assert other.name in response.content.decode()


# --------------------------------------------------------------------------- new list


def test_it_creates_a_list_with_the_default_catalogue(client, player, catalogue):
    client.force_login(player)

    form = client.get(url("list_create")).content.decode()
    assert f'name="catalogue" value="{catalogue.pk}"' in form
    assert 'value="150"' in form
    assert '<option value="coastal-raiders">Coastal Raiders</option>' in form

    response = client.post(
        url("list_create"),
        {"catalogue": catalogue.pk, "name": "Harbour raid", "bloc": "Allies", "faction": "coastal-raiders",
         "points_limit": "150", "role": "attacker"},
    )  # fmt: skip

    army_list = ArmyList.objects.get(owner=player)
    assert response.status_code == 302
    assert response["Location"] == url("builder", army_list)
    assert (army_list.name, army_list.bloc, army_list.faction, army_list.role) == (
        "Harbour raid", "Allies", "coastal-raiders", "attacker",
    )  # fmt: skip
    assert army_list.content["catalogue_version"] == "3"


def test_it_offers_the_blocs_of_the_chosen_catalogue(client, player, catalogue):
    other = CatalogueFactory(name="Axis only", version="1", blocs=["Axis"])
    client.force_login(player)

    page = client.get(url("list_create"), {"catalogue": other.pk, "name": "Harbour raid"}).content.decode()

    assert '<option value="Axis">Axis</option>' in page
    assert '<option value="Allies">' not in page
    assert 'value="Harbour raid"' in page  # what was typed survives the switch


def test_it_keeps_what_was_typed_when_a_new_list_is_wrong(client, player, catalogue):
    client.force_login(player)

    response = client.post(
        url("list_create"),
        {"catalogue": catalogue.pk, "name": "Harbour raid", "bloc": "Mars", "points_limit": "0"},
    )

    page = response.content.decode()
    assert response.status_code == 200
    assert 'value="Harbour raid"' in page
    assert "Select a valid choice. Mars is not one of the available choices." in page
    assert not ArmyList.objects.exists()


def test_it_says_when_there_is_no_catalogue_yet(client, player):
    client.force_login(player)

    assert "No catalogue has been imported yet" in client.get(url("list_create")).content.decode()


# --------------------------------------------------------------------------- import and export


def test_it_exports_exactly_the_content_as_a_download(client, player, army_list):
    client.force_login(player)

    response = client.get(url("list_export_json", army_list))

    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="night-at-the-zoo-{army_list.pk}.json"'
    assert json.loads(response.content) == army_list.content


def test_it_round_trips_an_export_through_the_import_page(client, player, army_list):
    client.force_login(player)
    exported = client.get(url("list_export_json", army_list)).content

    response = client.post(
        url("list_import"), {"file": SimpleUploadedFile("zoo.json", exported, "application/json")}
    )

    imported = ArmyList.objects.exclude(pk=army_list.pk).get()
    assert response.status_code == 302
    assert response["Location"] == url("builder", imported)
    assert imported.content == army_list.content
    assert imported.catalogue == army_list.catalogue
    assert imported.owner == player


def test_it_imports_a_pasted_list(client, player, army_list):
    client.force_login(player)

    client.post(url("list_import"), {"text": json.dumps(army_list.content)})

    assert ArmyList.objects.filter(owner=player, name="Night at the Zoo").count() == 2


def test_it_lists_every_format_error_and_keeps_the_paste(client, player, army_list):
    document = {**army_list.content, "points_limit": "lots", "bloc": ""}
    document["entries"][0]["captured"] = "yes"
    pasted = json.dumps(document)
    client.force_login(player)

    response = client.post(url("list_import"), {"text": pasted})

    page = response.content.decode()
    assert response.status_code == 200
    paths = [path for path, _reason in response.context["form"].format_errors]
    assert sorted(paths) == ["$.bloc", "$.entries[0].captured", "$.points_limit"]
    assert "<code>$.entries[0].captured</code>: must be a boolean (true or false) (got a string)" in page
    assert "The list could not be read" in page
    assert "list-format" not in page  # the code is the API's
    assert "&quot;points_limit&quot;: &quot;lots&quot;" in page  # the textarea keeps the paste
    assert ArmyList.objects.count() == 1


def test_it_names_bad_json(client, player):
    client.force_login(player)

    response = client.post(url("list_import"), {"text": '{"name": '})

    assert response.context["form"].format_errors == [
        (
            "$",
            "This is not a list in the JSON format: a value is missing where the text stops being JSON, "
            "at line 1",
        )
    ]


def test_it_exports_the_list_as_text(client, player, army_list):
    client.force_login(player)

    response = client.get(url("list_export_text", army_list))

    assert response["Content-Type"] == "text/plain; charset=utf-8"
    text = response.content.decode()
    assert text.startswith("Night at the Zoo\n")
    assert "joined by Sergeant Crane [e2]" in text
    assert "duplicate-hero" in text


def test_it_prints_units_heroes_totals_and_problems(client, player, army_list):
    client.force_login(player)

    page = client.get(url("list_print", army_list)).content.decode()

    assert "site-header" not in page
    assert "Rifle Squad" in page
    assert "Joined by Sergeant Crane" in page
    assert "[e1]" not in page  # units by name, never by id
    assert "[e2]" not in page
    assert "40 / 25 AP" in page
    assert "duplicate-hero" in page
    assert "@media print" not in page  # the print rules live in the stylesheet
    assert "css/armies.css" in page


# --------------------------------------------------------------------------- duplicate and delete


def test_it_duplicates_a_list(client, player, army_list):
    client.force_login(player)

    response = client.post(url("list_duplicate", army_list))

    copy = ArmyList.objects.exclude(pk=army_list.pk).get()
    assert response["Location"] == url("builder", copy)
    assert copy.name == "Night at the Zoo (copy)"
    assert copy.content["entries"] == army_list.content["entries"]


def test_it_refuses_to_duplicate_on_get(client, player, army_list):
    client.force_login(player)

    assert client.get(url("list_duplicate", army_list)).status_code == 405


def test_it_asks_before_deleting_and_then_deletes(client, player, army_list):
    client.force_login(player)

    confirm = client.get(url("list_delete", army_list))
    assert "Delete “Night at the Zoo”?" in confirm.content.decode()
    assert ArmyList.objects.filter(pk=army_list.pk).exists()

    response = client.post(url("list_delete", army_list), follow=True)

    assert not ArmyList.objects.filter(pk=army_list.pk).exists()
    assert "Deleted Night at the Zoo." in response.content.decode()


def test_it_does_not_let_a_stranger_delete(client, stranger, army_list):
    client.force_login(stranger)

    assert client.post(url("list_delete", army_list)).status_code == 404
    assert ArmyList.objects.filter(pk=army_list.pk).exists()
