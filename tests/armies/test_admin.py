"""The admin for catalogues, units, platoon charts, imports and army lists."""

from __future__ import annotations

import pytest
from django.urls import reverse

from armies.models import ArmyList, Catalogue, CatalogueImport
from armies.services import army_lists as lists
from tests.factories import ArmyListFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def army_list(player, demo_catalogue: Catalogue) -> ArmyList:
    army_list = ArmyListFactory(owner=player, catalogue=demo_catalogue, name="Admin's view", bloc="SSU")
    lists.army_list_add_unit(army_list=army_list, unit_key="ssu.volga-rifle-squad")
    return army_list


@pytest.mark.parametrize(
    "model", ["catalogue", "faction", "unit", "platoonchart", "catalogueimport", "armylist"]
)
def test_it_shows_every_change_list(admin_client, demo_catalogue, army_list, model):
    response = admin_client.get(reverse(f"admin:armies_{model}_changelist"))

    assert response.status_code == 200


def test_it_counts_units_and_links_to_the_import_page(admin_client, demo_catalogue):
    page = admin_client.get(reverse("admin:armies_catalogue_changelist")).content.decode()

    assert f'<td class="field-unit_count">{demo_catalogue.units.count()}</td>' in page
    assert 'href="/catalogues/import/"' in page
    assert f'href="/catalogues/{demo_catalogue.pk}/"' in page


def test_it_searches_and_filters_units(admin_client, demo_catalogue):
    url = reverse("admin:armies_unit_changelist")

    searched = admin_client.get(url, {"q": "zubr"})
    filtered = admin_client.get(url, {"bloc": "Mercenaries", "hero__exact": "1"})

    assert [u.key for u in searched.context["cl"].result_list] == ["ssu.zubr"]
    assert [u.key for u in filtered.context["cl"].result_list] == ["mercenaries.lucien-marrow"]


def test_it_shows_an_import_read_only_with_its_progress(admin_client):
    job = CatalogueImport.objects.create(status=CatalogueImport.Status.RUNNING, progress=40, stage="units")

    listing = admin_client.get(reverse("admin:armies_catalogueimport_changelist")).content.decode()
    detail = admin_client.get(reverse("admin:armies_catalogueimport_change", args=[job.pk])).content.decode()

    assert '<progress value="40" max="100">40%</progress>' in listing
    assert f'href="/catalogues/imports/{job.pk}/"' in detail
    assert 'name="stage"' not in detail  # nothing to edit
    assert admin_client.get(reverse("admin:armies_catalogueimport_add")).status_code == 403


def test_it_shows_a_list_and_its_document_read_only(admin_client, army_list):
    page = admin_client.get(reverse("admin:armies_armylist_change", args=[army_list.pk])).content.decode()

    assert "&quot;unit&quot;: &quot;ssu.volga-rifle-squad&quot;" in page
    assert 'name="name"' not in page
    response = admin_client.post(
        reverse("admin:armies_armylist_change", args=[army_list.pk]), {"name": "Renamed"}
    )
    assert response.status_code == 403
    army_list.refresh_from_db()
    assert army_list.name == "Admin's view"


def test_it_lets_a_superuser_delete_a_list(admin_client, army_list):
    admin_client.post(reverse("admin:armies_armylist_delete", args=[army_list.pk]), {"post": "yes"})

    assert not ArmyList.objects.filter(pk=army_list.pk).exists()


def test_it_keeps_non_staff_out(client, stranger):
    client.force_login(stranger)

    response = client.get(reverse("admin:armies_catalogue_changelist"))

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_it_shows_staff_only_what_their_permissions_allow(client):
    clerk = UserFactory(username="clerk", is_staff=True)
    client.force_login(clerk)

    assert client.get(reverse("admin:armies_unit_changelist")).status_code == 403


def test_it_shows_units_read_only_so_the_cached_catalogue_stays_true(admin_client, demo_catalogue):
    unit = demo_catalogue.units.get(key="ssu.zubr")
    url = reverse("admin:armies_unit_change", args=[unit.pk])

    page = admin_client.get(url).content.decode()
    response = admin_client.post(url, {"ap": "1"})

    assert "Zubr" in page
    assert 'name="ap"' not in page
    assert response.status_code == 403
    unit.refresh_from_db()
    assert unit.ap == 17
    assert admin_client.get(reverse("admin:armies_unit_delete", args=[unit.pk])).status_code == 403
