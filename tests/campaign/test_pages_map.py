"""Map management (the default map, an uploaded file) and the sector pages with their edit form."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaign.models import Campaign, LogEntry, Sector
from campaign.options import Status
from campaign.services.map import sector_update
from tests.campaign.engine.builders import crossroads

pytestmark = pytest.mark.django_db


def url(name: str, campaign: Campaign, *args: object) -> str:
    return reverse(f"campaign:{name}", args=[campaign.pk, *args])


def upload(document: object, name: str = "map.json") -> dict[str, SimpleUploadedFile]:
    raw = document if isinstance(document, bytes) else json.dumps(document).encode()
    return {"document": SimpleUploadedFile(name, raw, "application/json")}


def test_it_loads_the_default_map(client, campaign, organiser):
    client.force_login(organiser)

    response = client.post(url("map_default", campaign))

    assert response["Location"] == url("map", campaign)
    assert Sector.objects.filter(campaign=campaign).count() == 14
    page = client.get(url("map", campaign)).content.decode()
    assert "Loaded the default Zverograd map." in page
    assert page.count("<tr data-sector=") == 14


def test_it_loads_an_uploaded_map(client, campaign, organiser):
    client.force_login(organiser)

    response = client.post(url("map_upload", campaign), upload(crossroads()))

    assert response.status_code == 302
    assert sorted(Sector.objects.filter(campaign=campaign).values_list("key", flat=True)) == [
        "bridge", "church", "mill", "square",
    ]  # fmt: skip


def test_it_lists_every_problem_of_a_bad_file_by_field_and_loads_nothing(client, open_campaign, organiser):
    document = crossroads()
    document["sectors"][0]["neighbours"] = ["square", "nowhere"]  # dangling
    document["sectors"][2]["terrain"] = "lava"  # unknown terrain
    document["sectors"][3]["headquarters_of"] = None  # the Allies lose their headquarters
    client.force_login(organiser)
    before = list(Sector.objects.filter(campaign=open_campaign).values_list("key", flat=True))

    response = client.post(url("map_upload", open_campaign), upload(document))

    assert response.status_code == 200
    problems = response.context["problems"]
    fields = {problem.field for problem in problems}
    assert {"sectors[0].neighbours[1]", "sectors[2].terrain"} <= fields
    assert any("headquarters" in problem.code for problem in problems)
    content = response.content.decode()
    assert "Nothing was loaded" in content
    for problem in problems:
        assert f"<code>{problem.field or '(the file)'}</code>" in content
        assert problem.code in content
    assert list(Sector.objects.filter(campaign=open_campaign).values_list("key", flat=True)) == before


def test_it_names_a_file_that_is_not_json(client, campaign, organiser):
    client.force_login(organiser)

    response = client.post(url("map_upload", campaign), upload(b"{not json"))

    assert [problem.code for problem in response.context["problems"]] == ["not-json"]
    assert not Sector.objects.filter(campaign=campaign).exists()


def test_it_refuses_a_file_over_the_size_limit(client, campaign, organiser):
    client.force_login(organiser)

    response = client.post(url("map_upload", campaign), upload(b" " * (256 * 1024 + 1)))

    assert response.context["form"].has_error("document", "too-large")


def test_it_fixes_the_map_once_the_campaign_runs(client, open_campaign, organiser):
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.RUNNING)
    client.force_login(organiser)

    page = client.get(url("map", open_campaign))
    refused = client.post(url("map_default", open_campaign))

    assert b"Load the default map" not in page.content
    assert b"The map is fixed once the campaign runs" in page.content
    assert b"edit its sectors instead" in refused.content


def test_it_shows_who_held_a_sector_when(client, open_campaign, organiser, player):
    sector_update(
        campaign=open_campaign, actor=organiser, key="zoo", changes={"owner": "SSU"}, reason="Night raid"
    )
    client.force_login(player)

    response = client.get(url("sector", open_campaign, "zoo"))

    content = response.content.decode()
    assert "At the start of the campaign: <strong>neutral</strong>" in content
    assert "The Zoo: holder neutral → SSU" in content
    assert "Night raid" in content
    assert "Olga" in content
    assert 'data-testid="sector-battles">No battle has been reported here yet.' in content
    assert 'data-sector="zoo"' in content
    assert 'class="sector highlight"' in content
    assert "Change this sector" not in content  # a player sees no edit form
    assert response.context["battles"] == []


def test_it_answers_404_for_a_sector_the_map_does_not_have(client, open_campaign, player):
    client.force_login(player)

    assert client.get(url("sector", open_campaign, "atlantis")).status_code == 404


def test_it_lets_an_organiser_change_a_sector_with_a_reason(client, open_campaign, organiser):
    client.force_login(organiser)
    data = {"owner": "Axis", "fortification": "bunker", "value": 3, "terrain": "parkland", "reason": "Dug in"}

    response = client.post(url("sector", open_campaign, "zoo"), data)

    assert response["Location"] == url("sector", open_campaign, "zoo")
    zoo = Sector.objects.get(campaign=open_campaign, key="zoo")
    assert (zoo.owner, zoo.fortification, zoo.value, zoo.terrain) == ("Axis", "bunker", 3, "parkland")
    logged = LogEntry.objects.filter(campaign=open_campaign, subject="sector:zoo").values_list(
        "field", "reason"
    )
    assert sorted(logged) == [
        ("fortification", "Dug in"),
        ("owner", "Dug in"),
        ("value", "Dug in"),
    ]


def test_it_asks_why_a_sector_changes(client, open_campaign, organiser):
    client.force_login(organiser)
    data = {"owner": "Axis", "fortification": "none", "value": 2, "terrain": "parkland", "reason": ""}

    response = client.post(url("sector", open_campaign, "zoo"), data)

    assert response.context["form"].errors["reason"] == ["This field is required."]
    assert Sector.objects.get(campaign=open_campaign, key="zoo").owner == ""


def test_it_shows_a_headquarters_refusal_next_to_the_holder(client, open_campaign, organiser):
    client.force_login(organiser)

    response = client.post(url("sector", open_campaign, "airfield"),
                           {"owner": "SSU", "fortification": "strongpoint", "value": 3, "terrain": "open",
                            "reason": "Captured"})  # fmt: skip

    form = response.context["form"]
    assert form.has_error("owner", "headquarters-owner")
    assert form["reason"].value() == "Captured"
    assert Sector.objects.get(campaign=open_campaign, key="airfield").owner == "Axis"


def test_it_offers_a_headquarters_no_fortification_beyond_the_one_it_has(client, open_campaign, organiser):
    client.force_login(organiser)
    page = url("sector", open_campaign, "airfield")
    data = {"owner": "Axis", "value": 3, "terrain": "open", "reason": "Reinforced"}

    form = client.get(page).context["form"]
    refused = client.post(page, {**data, "fortification": "bunker"})
    kept = client.post(page, {**data, "fortification": "strongpoint"})

    assert [value for value, _label in form.fields["fortification"].choices] == ["none", "strongpoint"]
    assert "never attacked" in form.fields["fortification"].help_text
    assert refused.context["form"].errors["fortification"]
    assert kept["Location"] == page
    airfield = Sector.objects.get(campaign=open_campaign, key="airfield")
    assert (airfield.fortification, airfield.value) == ("strongpoint", 3)


def test_it_bounds_a_sectors_value(client, open_campaign, organiser):
    client.force_login(organiser)
    data = {"owner": "", "fortification": "none", "value": 11, "terrain": "parkland", "reason": "x"}

    response = client.post(url("sector", open_campaign, "zoo"), data)

    assert response.context["form"].errors["value"]


def test_it_offers_no_sector_changes_once_the_campaign_has_finished(client, open_campaign, organiser):
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.FINISHED)
    client.force_login(organiser)
    data = {"owner": "Axis", "fortification": "none", "value": 2, "terrain": "parkland", "reason": "Late"}

    page = client.get(url("sector", open_campaign, "zoo"))
    refused = client.post(url("sector", open_campaign, "zoo"), data)

    assert b"Change this sector" not in page.content
    assert b"a finished campaign can no longer change" in refused.content
    assert Sector.objects.get(campaign=open_campaign, key="zoo").owner == ""
