"""Platoon charts entered through the API: who may, how they are checked, versioning, export and import."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from armies import selectors
from armies import validation as v
from armies.models import Catalogue, PlatoonChart
from armies.services.catalogue_import import catalogue_import_from_paths
from armies.services.demo import DEMO_CATALOGUE_PATH
from campaign.models import CoOrganiser
from tests.factories import CatalogueFactory, UserFactory

pytestmark = pytest.mark.django_db

CHART: dict[str, Any] = {
    "name": "Volga Night Raiders",
    "bloc": "SSU",
    "faction": "Volga Shock Guard",
    "advantage": "Night Raid: the platoon's units may move before the first turn.",
    "slots": [
        {"role": "command", "name": "Command", "required": True, "units": ["ssu.commissar-yelena-orlova"]},
        {
            "role": "combat",
            "name": "Combat",
            "required": True,
            "count": 2,
            "units": ["ssu.volga-rifle-squad"],
        },
        {"role": "support", "name": "Support", "categories": ["Vehicle 3"]},
    ],
}


def url(catalogue: Catalogue, what: str = "") -> str:
    name = f"api:catalogue-platoon-charts{'-' + what if what else ''}"
    return reverse(name, args=[catalogue.pk])


@pytest.fixture
def staff(db: None) -> Any:
    return UserFactory(username="stella", is_staff=True)


def test_it_lets_staff_and_an_organiser_of_a_campaign_on_the_catalogue_enter_a_chart(
    api_as, open_campaign, organiser, staff
):
    catalogue = open_campaign.catalogue
    co = UserFactory(username="cora")
    CoOrganiser.objects.create(campaign=open_campaign, user=co)

    for user, name in ((staff, "By staff"), (organiser, "By the organiser"), (co, "By a co-organiser")):
        answer = api_as(user).post(url(catalogue), {**CHART, "name": name}, format="json")
        assert answer.status_code == 201, answer.json()

    assert set(PlatoonChart.objects.filter(entered=True).values_list("key", "entered_by__username")) == {
        ("ssu.by-staff", "stella"),
        ("ssu.by-the-organiser", "olga"),
        ("ssu.by-a-co-organiser", "cora"),
    }


def test_it_refuses_a_player_a_stranger_an_organiser_of_another_catalogue_and_a_visitor(
    api_as, api_client, open_campaign, player, stranger, organiser
):
    other = CatalogueFactory(name="Another", version="2")
    assert api_as(organiser).post(url(other), CHART, format="json").status_code == 403
    for client in (api_as(player), api_as(stranger), api_client):
        answer = client.post(url(open_campaign.catalogue), CHART, format="json")
        assert answer.status_code in (401, 403)
        answer = client.post(url(open_campaign.catalogue, "import"), {}, format="json")
        assert answer.status_code in (401, 403)
    assert not PlatoonChart.objects.filter(entered=True).exists()


def test_it_shows_a_catalogues_charts_to_anyone(api_client, demo_catalogue):
    answer = api_client.get(url(demo_catalogue))

    assert answer.status_code == 200
    assert "ssu.taiga-recon-platoon" in [chart["key"] for chart in answer.json()]


@pytest.mark.parametrize(
    ("change", "field", "code"),
    [
        ({"bloc": "Atlantis"}, "bloc", "chart-bloc"),
        ({"faction": "Taiga Scouts", "bloc": "Axis"}, "faction", "chart-faction"),
        ({"slots": [CHART["slots"][1]]}, "slots", "chart-command"),
        ({"slots": [{**CHART["slots"][0], "units": ["ssu.no-such-unit"]}, CHART["slots"][1]]},
         "slots[0].units[0]", "slot-unknown-unit"),
        ({"slots": [CHART["slots"][0], {"role": "combat", "categories": ["Battleships"]}]},
         "slots[1].categories[0]", "slot-unknown-category"),
        ({"slots": [CHART["slots"][0], {"role": "combat"}]}, "slots[1]", "chart-format"),
        ({"key": "Not A Key"}, "key", "chart-format"),
    ],
)  # fmt: skip
def test_it_checks_a_chart_as_the_catalogue_format_and_the_catalogue_do(
    api_as, staff, demo_catalogue, change, field, code
):
    answer = api_as(staff).post(url(demo_catalogue), {**CHART, **change}, format="json")

    assert answer.status_code == 400
    body = answer.json()
    assert (body["errors"][0]["field"], body["code"]) == (field, code), body
    assert "{" not in body["detail"]  # a sentence, never the input quoted back
    assert not PlatoonChart.objects.filter(entered=True).exists()


def test_it_refuses_a_key_the_catalogue_has(api_as, staff, demo_catalogue):
    answer = api_as(staff).post(
        url(demo_catalogue), {**CHART, "key": "ssu.taiga-recon-platoon"}, format="json"
    )

    assert answer.status_code == 409
    assert answer.json()["code"] == "chart-key-taken"


def test_it_refuses_too_many_slots_before_reading_them(api_as, staff, demo_catalogue):
    slots = [CHART["slots"][1]] * 100

    answer = api_as(staff).post(url(demo_catalogue), {**CHART, "slots": slots}, format="json")

    assert answer.status_code == 400
    assert len(answer.content) < 4096


def test_it_makes_the_validator_read_a_new_chart_at_once_without_changing_which_catalogue_is_newest(
    api_as, staff, demo_catalogue
):
    newer = CatalogueFactory(name="Newer", version="9")
    before = selectors.catalogue_for_validation(catalogue=demo_catalogue)

    api_as(staff).post(url(demo_catalogue), CHART, format="json")

    demo_catalogue.refresh_from_db()
    after = selectors.catalogue_for_validation(catalogue=demo_catalogue)
    assert "ssu.volga-night-raiders" not in before.chart_by_key
    chart = after.chart_by_key["ssu.volga-night-raiders"]
    assert [slot.name for slot in chart.combat] == ["Combat 1", "Combat 2"]
    # Every unit of the category, as a catalogue import expands a slot's categories.
    assert chart.support[0].unit_keys == {"ssu.medved", "mercenaries.scrapjack"}
    assert selectors.catalogue_default() == newer


def test_it_keeps_entered_charts_when_the_catalogue_is_imported_again(api_as, staff, demo_catalogue):
    api_as(staff).post(url(demo_catalogue), CHART, format="json")

    summary = catalogue_import_from_paths(paths=[DEMO_CATALOGUE_PATH])

    assert summary.catalogue_id == demo_catalogue.pk
    assert PlatoonChart.objects.filter(catalogue=demo_catalogue, key="ssu.volga-night-raiders").exists()
    assert PlatoonChart.objects.filter(catalogue=demo_catalogue, entered=False).count() == 6


def test_it_exports_entered_charts_and_imports_them_into_another_catalogue_unchanged(
    api_as, api_client, staff, demo_catalogue
):
    api_as(staff).post(url(demo_catalogue), CHART, format="json")
    document = api_client.get(url(demo_catalogue, "export")).json()
    assert [chart["key"] for chart in document["platoon_charts"]] == ["ssu.volga-night-raiders"]
    assert document["units"] == []
    # The same units in a catalogue of another name and version.
    data = DEMO_CATALOGUE_PATH.read_text(encoding="utf-8").replace('"Zverograd Demo"', '"Club copy"')
    other = Catalogue.objects.get(pk=catalogue_import_from_paths(paths=[_file(data)]).catalogue_id)
    assert other != demo_catalogue

    first = api_as(staff).post(url(other, "import"), document, format="json")
    again = api_as(staff).post(url(other, "import"), document, format="json")

    assert (first.status_code, first.json()) == (201, {"created": ["Volga Night Raiders"], "unchanged": []})
    assert (again.status_code, again.json()) == (200, {"created": [], "unchanged": ["Volga Night Raiders"]})
    assert api_client.get(url(other, "export")).json()["platoon_charts"] == document["platoon_charts"]
    original = selectors.catalogue_for_validation(catalogue=demo_catalogue).chart_by_key[
        "ssu.volga-night-raiders"
    ]
    copied = selectors.catalogue_for_validation(catalogue=other).chart_by_key["ssu.volga-night-raiders"]
    assert copied == original


def test_it_refuses_an_import_whose_chart_differs_from_one_the_catalogue_has(api_as, staff, demo_catalogue):
    api_as(staff).post(url(demo_catalogue), CHART, format="json")
    document = api_as(staff).get(url(demo_catalogue, "export")).json()
    document["platoon_charts"][0]["advantage"] = "Something else."

    answer = api_as(staff).post(url(demo_catalogue, "import"), document, format="json")

    assert answer.status_code == 409
    assert "already has another platoon chart" in answer.json()["detail"]


def test_it_refuses_a_whole_catalogue_sent_to_the_chart_import(api_as, staff, demo_catalogue):
    import json

    document = json.loads(DEMO_CATALOGUE_PATH.read_text(encoding="utf-8"))

    answer = api_as(staff).post(url(demo_catalogue, "import"), document, format="json")

    assert answer.status_code == 400


def test_it_never_changes_what_a_registered_list_claimed(api_as, staff, demo_catalogue):
    """A chart entered later neither changes nor replaces one a list already claims."""
    catalogue = selectors.catalogue_for_validation(catalogue=demo_catalogue)
    army = v.ArmyList(
        "Recon", "SSU", 100, demo_catalogue.version,
        entries=(v.ListEntry("e1", "ssu.pavel-dron", platoon="p1", slot="Command"),
                 v.ListEntry("e2", "ssu.taiga-scout-squad", platoon="p1", slot="Combat 1"),
                 v.ListEntry("e3", "ssu.volga-rifle-squad", platoon="p1", slot="Combat 2")),
        platoons=(v.PlatoonClaim("p1", "ssu.taiga-recon-platoon", ("e1", "e2", "e3")),),
    )  # fmt: skip
    before = v.validate(army, catalogue)

    api_as(staff).post(url(demo_catalogue), {**CHART, "name": "Taiga Recon Platoon"}, format="json")
    demo_catalogue.refresh_from_db()

    after = selectors.catalogue_for_validation(catalogue=demo_catalogue)
    assert after.chart_by_key["ssu.taiga-recon-platoon"] == catalogue.chart_by_key["ssu.taiga-recon-platoon"]
    assert "ssu.taiga-recon-platoon-2" in after.chart_by_key
    assert v.validate(army, after) == before


def _file(text: str) -> Any:
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp())
    path = folder / "club.json"
    path.write_text(text, encoding="utf-8")
    return path
