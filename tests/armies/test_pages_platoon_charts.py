"""The platoon-chart page: who sees the form, entering a chart in words, importing and exporting charts,
and a chart entered there making a platoon of real imported units valid in the builder."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from armies import selectors
from armies.models import Catalogue, Faction, PlatoonChart
from armies.services import army_lists as lists
from armies.services.catalogue_import import catalogue_import_from_paths
from armies.validation import limits
from campaign.models import Campaign
from tests.factories import ArmyListFactory, CampaignFactory, EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Red Army Rifle Platoon",
    "bloc": "SSU",
    "advantage": "Hold the line: the platoon's units may react twice in the first turn.",
    "command_1_units": "Red Army Command Squad",
    "combat_1_units": "Red Army Rifle Squad\n",
    "combat_1_required": "on",
    "combat_2_units": "  red army  BATTLE squad\nRed Army Rifle Squad",
    "support_1_categories": ["Vehicle 4"],
}


def page(catalogue: Catalogue, what: str = "") -> str:
    return reverse(f"armies:catalogue_platoon_charts{'_' + what if what else ''}", args=[catalogue.pk])


@pytest.fixture
def real(bsdata_files: list[Any], organiser: Any) -> Catalogue:
    """The real Dust 1947 data (no platoon charts in it), played by the organiser's campaign."""
    catalogue = Catalogue.objects.get(pk=catalogue_import_from_paths(paths=bsdata_files).catalogue_id)
    CampaignFactory(organiser=organiser, catalogue=catalogue)
    return catalogue


@pytest.fixture
def staff(db: None) -> Any:
    return UserFactory(username="stella", is_staff=True)


def test_it_makes_a_real_lists_platoon_valid_with_a_chart_entered_on_the_page(
    client, real, organiser, player
):
    assert not PlatoonChart.objects.filter(catalogue=real).exists()
    # The organiser's chart is their campaign's: the player plays in it, so their lists may claim it.
    EnrolmentFactory(campaign=Campaign.objects.get(catalogue=real), player=player, bloc="SSU")
    army_list = ArmyListFactory(owner=player, catalogue=real, bloc="SSU", points_limit=100)
    for key in (
        "ssu.red-army-command-squad",
        "ssu.red-army-rifle-squad",
        "ssu.red-army-battle-squad",
        "ssu.nadya",
    ):
        lists.army_list_add_unit(army_list=army_list, unit_key=key)
    client.force_login(organiser)

    answer = client.post(page(real), FORM)

    assert answer.status_code == 302, answer.content.decode()[-3000:]
    client.force_login(player)
    builder = client.get(reverse("armies:builder", args=[army_list.pk]))
    key = "ssu.red-army-rifle-platoon"
    assert key in [option.value for option in builder.context["chart_options"]]
    client.post(reverse("armies:builder_add_platoon", args=[army_list.pk]), {"chart": key})
    for entry, slot in (("e1", "Command"), ("e2", "Combat 1"), ("e3", "Combat 2"), ("e4", "Support 1")):
        lists.army_list_update_entry(army_list=army_list, entry_id=entry, platoon="p1", slot=slot)
    army_list.refresh_from_db()
    verdict = selectors.army_list_verdict(army_list=army_list)
    assert army_list.content["platoons"] == [{"id": "p1", "chart": key, "members": ["e1", "e2", "e3", "e4"]}]
    assert verdict.ok, [problem.message for problem in verdict.problems]
    assert not [code for code in verdict.codes if code.startswith("platoon")]
    # The same list with its support slot filled by a unit the chart does not name is refused.
    lists.army_list_add_unit(army_list=army_list, unit_key="ssu.red-army-sniper-squad")
    lists.army_list_update_entry(army_list=army_list, entry_id="e4", platoon=None, slot=None)
    lists.army_list_update_entry(army_list=army_list, entry_id="e5", platoon="p1", slot="Support 1")
    army_list.refresh_from_db()
    assert "platoon-unit-not-allowed" in selectors.army_list_verdict(army_list=army_list).codes


def test_it_shows_the_charts_to_everyone_and_the_form_to_staff_and_the_organiser(
    client, real, organiser, staff, player, stranger
):
    PlatoonChart.objects.create(
        catalogue=real, key="ssu.shown", name="Shown Platoon", bloc="SSU", entered=True,
        slots=[{"name": "Command", "role": "command", "required": True, "units": ["ssu.red-army-command-squad"]}],
    )  # fmt: skip
    for user, sees_form in (
        (None, False),
        (player, False),
        (stranger, False),
        (organiser, True),
        (staff, True),
    ):
        client.logout()
        if user is not None:
            client.force_login(user)
        html = client.get(page(real)).content.decode()
        assert "Shown Platoon" in html
        assert "Red Army Command Squad" in html  # slots name their units, never their keys
        assert "ssu.red-army" not in html
        assert ("Enter a platoon chart" in html) is sees_form


def test_it_refuses_the_form_and_the_import_to_a_player_a_stranger_and_a_visitor(
    client, real, player, stranger
):
    for user in (None, player, stranger):
        client.logout()
        if user is not None:
            client.force_login(user)
        assert client.post(page(real), FORM).status_code == 403
        upload = SimpleUploadedFile("charts.json", b"{}", content_type="application/json")
        assert client.post(page(real, "import"), {"file": upload}).status_code == 403
    assert not PlatoonChart.objects.filter(catalogue=real).exists()


def test_it_says_which_name_is_not_a_unit_and_suggests_the_closest(client, real, organiser):
    client.force_login(organiser)

    answer = client.post(page(real), {**FORM, "combat_1_units": "Red Army Rifel Squad"})

    assert answer.status_code == 400
    errors = answer.context["form"].errors
    assert errors["combat_1_units"] == [
        'No unit called "Red Army Rifel Squad" in the catalogue. '
        "Did you mean Red Army Rifle Squad, Red Army Sniper Squad or Red Army Tesla Gun Squad?"
    ]
    assert not PlatoonChart.objects.filter(catalogue=real).exists()


def test_it_shows_a_refusal_of_the_catalogue_beside_its_field(client, real, organiser):
    client.force_login(organiser)

    other = Faction.objects.filter(catalogue=real).exclude(bloc="SSU").order_by("key").first()
    assert other is not None

    answer = client.post(page(real), {**FORM, "bloc": "SSU", "faction": other.name})

    assert answer.status_code == 400
    assert answer.context["form"].errors["faction"] == [
        f"{other.name} is a faction of {other.bloc}, not of SSU"
    ]


def test_it_asks_for_a_command_and_a_combat_slot(client, real, organiser):
    client.force_login(organiser)
    empty = {key: value for key, value in FORM.items() if not key.startswith(("command", "combat"))}

    answer = client.post(page(real), empty)

    assert answer.status_code == 400
    assert answer.context["form"].errors["command_1_units"] == ["Name the units that may lead the platoon."]


def test_it_exports_the_entered_charts_and_imports_them_again_unchanged(client, real, organiser):
    client.force_login(organiser)
    client.post(page(real), FORM)

    exported = client.get(page(real, "export"))

    assert exported["Content-Disposition"].endswith('.json"')
    document = json.loads(exported.content)
    assert [chart["name"] for chart in document["platoon_charts"]] == ["Red Army Rifle Platoon"]
    upload = SimpleUploadedFile("charts.json", exported.content, content_type="application/json")
    answer = client.post(page(real, "import"), {"file": upload}, follow=True)
    assert "Imported 0 platoon charts; 1 it had already." in answer.content.decode()
    assert PlatoonChart.objects.filter(catalogue=real, entered=True).count() == 1


def test_it_answers_a_file_that_is_not_charts_with_a_sentence(client, real, organiser):
    client.force_login(organiser)
    upload = SimpleUploadedFile("charts.json", b"Red Army Rifle Squad", content_type="application/json")

    answer = client.post(page(real, "import"), {"file": upload})

    assert answer.status_code == 400
    assert answer.context["file_form"].errors["file"] == [
        "This file is not JSON: export the charts from this page."
    ]


def test_it_links_the_charts_from_the_catalogue_page(client, real):
    html = client.get(reverse("armies:catalogue", args=[real.pk])).content.decode()

    assert page(real) in html


def test_it_reads_the_page_in_as_many_queries_however_many_charts_there_are(client, demo_catalogue, staff):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(staff)
    counts = []
    for size in (1, 12):
        for n in range(PlatoonChart.objects.filter(catalogue=demo_catalogue, entered=True).count(), size):
            PlatoonChart.objects.create(
                catalogue=demo_catalogue, key=f"ssu.extra-{n}", name=f"Extra {n}", bloc="SSU", entered=True,
                entered_by=staff, slots=[{"name": "Command", "role": "command", "required": True,
                                          "units": ["ssu.volga-rifle-squad"]}],
            )  # fmt: skip
        client.get(page(demo_catalogue))  # the validator's copy of the catalogue, kept per process
        with CaptureQueriesContext(connection) as queries:
            assert client.get(page(demo_catalogue)).status_code == 200
        counts.append(len(queries))
    # The catalogue, the session, the user, the campaigns the viewer takes part in (their own charts are
    # shown), the categories of its units for the form, the charts with who entered them and their
    # campaign, and the campaigns the viewer organises (where a chart may go). The validator's copy is
    # kept per process.
    assert counts == [7, 7]


def test_it_refuses_an_imported_chart_whose_name_the_catalogue_format_allows_but_the_site_cannot_keep(
    client, real, organiser
):
    client.force_login(organiser)
    chart = {"key": "ssu.long", "name": "L" * 170, "bloc": "SSU",
             "slots": [{"role": "command", "units": ["ssu.red-army-command-squad"]},
                       {"role": "combat", "units": ["ssu.red-army-rifle-squad"]}]}  # fmt: skip
    document = {
        "format": "zverograd-catalogue",
        "version": 1,
        "name": "Charts",
        "units": [],
        "platoon_charts": [chart],
    }
    upload = SimpleUploadedFile("charts.json", json.dumps(document).encode(), content_type="application/json")

    answer = client.post(page(real, "import"), {"file": upload})

    assert answer.status_code == 400
    assert answer.context["file_form"].errors["file"] == ["a chart's name is at most 160 characters"]
    assert not PlatoonChart.objects.filter(catalogue=real).exists()


def test_it_answers_a_file_of_charts_with_a_number_of_5000_digits_with_a_sentence(client, real, organiser):
    client.force_login(organiser)
    upload = SimpleUploadedFile("charts.json", b"[" + b"9" * 5000 + b"]", content_type="application/json")

    answer = client.post(page(real, "import"), {"file": upload})

    assert answer.status_code == 400
    assert answer.context["file_form"].errors["file"] == [
        f"This file cannot be read: a number in it is longer than {limits.MAX_JSON_NUMBER_DIGITS:,} digits. "
        "Export the charts from this page."
    ]
