"""Every bound of an entered platoon chart is one constant of armies/validation/limits, and a slot's name
is one a list entry and a roster's notes can name back."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from armies import selectors
from armies.api_charts import ChartInput, ChartsFileParser, SlotInput
from armies.chart_forms import ChartsFileForm, PlatoonChartForm
from armies.importers.jsoncatalogue import SCHEMA_PATH
from armies.models import PlatoonChart, Unit
from armies.rosters.notes import platoon_member, read_unit_notes
from armies.validation import limits
from tests.armies.test_api_platoon_charts import CHART, url
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db: None) -> Any:
    return UserFactory(username="stella", is_staff=True)


def test_it_reads_every_chart_bound_from_the_limits_module(demo_catalogue):
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))["$defs"]
    fields = {field.name: field for field in PlatoonChart._meta.get_fields()}
    chart_input, slot_input = ChartInput().fields, SlotInput().fields

    assert schema["key"]["maxLength"] == limits.CATALOGUE_KEY_MAX_LENGTH <= limits.KEY_MAX_LENGTH
    assert schema["slot_name"]["maxLength"] == limits.SLOT_NAME_MAX_LENGTH
    assert limits.SLOT_NAME_MAX_LENGTH + len(f" {limits.MAX_CHART_SLOTS}") == limits.KEY_MAX_LENGTH
    assert fields["key"].max_length == chart_input["key"].max_length == limits.CATALOGUE_KEY_MAX_LENGTH
    assert slot_input["units"].child.max_length == limits.CATALOGUE_KEY_MAX_LENGTH
    assert fields["bloc"].max_length == chart_input["bloc"].max_length == limits.BLOC_MAX_LENGTH
    assert fields["name"].max_length == chart_input["name"].max_length == limits.CHART_NAME_MAX_LENGTH
    assert fields["faction"].max_length == chart_input["faction"].max_length == limits.CHART_NAME_MAX_LENGTH
    assert slot_input["name"].max_length == limits.SLOT_NAME_MAX_LENGTH
    assert Unit._meta.get_field("name").max_length == limits.UNIT_NAME_MAX_LENGTH
    assert ChartsFileParser.max_bytes == limits.MAX_CHARTS_FILE_BYTES
    form = PlatoonChartForm(
        catalogue=selectors.catalogue_for_validation(catalogue=demo_catalogue), categories=[]
    )
    assert form.fields["combat_1_units"].max_length == limits.MAX_SLOT_UNITS * (
        limits.UNIT_NAME_MAX_LENGTH + 2
    )
    assert form.fields["name"].max_length == limits.CHART_NAME_MAX_LENGTH


def test_it_refuses_a_charts_file_past_the_bound_on_the_page():
    big = SimpleUploadedFile("c.json", b" " * (limits.MAX_CHARTS_FILE_BYTES + 1))

    form = ChartsFileForm(files={"file": big})

    assert not form.is_valid()
    assert f"larger than {limits.MAX_CHARTS_FILE_BYTES // 1024} kB" in form.errors["file"][0]


@pytest.mark.parametrize("name", ["Combat, left", "Combat\nleft", "c" * (limits.SLOT_NAME_MAX_LENGTH + 1)])
def test_it_refuses_a_slot_name_a_list_or_a_roster_could_not_name(api_as, staff, demo_catalogue, name):
    slots = [CHART["slots"][0], {**CHART["slots"][1], "name": name}]

    answer = api_as(staff).post(url(demo_catalogue), {**CHART, "slots": slots}, format="json")

    assert answer.status_code == 400
    error = answer.json()["errors"][0]
    assert error["field"] == "slots[1].name"
    assert "comma" in error["message"] or str(limits.SLOT_NAME_MAX_LENGTH) in error["message"]
    assert not PlatoonChart.objects.filter(entered=True).exists()


def test_it_refuses_a_comma_in_a_slot_name_of_an_imported_file_with_a_sentence(api_as, staff, demo_catalogue):
    api_as(staff).post(url(demo_catalogue), CHART, format="json")
    document = api_as(staff).get(url(demo_catalogue, "export")).json()
    document["platoon_charts"][0]["key"] = "ssu.other"
    document["platoon_charts"][0]["slots"][1]["name"] = "Combat, left"

    answer = api_as(staff).post(url(demo_catalogue, "import"), document, format="json")

    assert answer.status_code == 400
    body = answer.json()
    error = body["errors"][0]
    assert (error["code"], error["field"]) == ("slot-name", "platoon_charts[0].slots[1].name")
    assert "no comma" in body["detail"]


def test_it_stores_the_longest_slot_name_so_that_a_list_and_a_roster_can_name_every_slot(
    api_as, staff, demo_catalogue
):
    longest = "S" * limits.SLOT_NAME_MAX_LENGTH
    slots = [CHART["slots"][0], {**CHART["slots"][1], "name": longest, "count": limits.MAX_CHART_SLOTS - 1}]

    answer = api_as(staff).post(url(demo_catalogue), {**CHART, "slots": slots}, format="json")

    assert answer.status_code == 201, answer.json()
    names = [slot["name"] for slot in PlatoonChart.objects.get(key=answer.json()["key"]).slots]
    assert max(len(name) for name in names) <= limits.KEY_MAX_LENGTH
    assert all(read_unit_notes(platoon_member(1, "Volga", name)).slot == name for name in names)


def test_it_refuses_a_comma_in_a_slot_name_read_by_the_service_itself(staff, demo_catalogue):
    """The page's import reads the file with the service alone: the same sentence, with its own code."""
    from armies.services.platoon_charts import PlatoonChartError, platoon_charts_import

    chart = {**CHART, "key": "ssu.other", "slots": [CHART["slots"][0], {**CHART["slots"][1], "name": "A, B"}]}
    document = {
        "format": "zverograd-catalogue",
        "version": 1,
        "name": "x",
        "units": [],
        "platoon_charts": [chart],
    }

    with pytest.raises(PlatoonChartError) as refused:
        platoon_charts_import(catalogue=demo_catalogue, actor=staff, document=document)

    assert (refused.value.code, refused.value.field) == ("slot-name", "platoon_charts[0].slots[1].name")
