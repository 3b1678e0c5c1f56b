"""A catalogue's export of platoon charts is imported again whole, however many charts it holds.

The import takes at most MAX_CHARTS_IMPORTED charts from a file of at most MAX_CHARTS_FILE_BYTES,
while a catalogue may hold MAX_LIVE_CHARTS: the export comes in parts, each within both bounds
(armies/services/chart_parts.py), and an empty export still writes ``platoon_charts``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from armies.models import Catalogue
from armies.services import chart_parts
from armies.services import platoon_charts as charts
from armies.validation import limits
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

CHART: dict[str, Any] = {
    "name": "Volga Night Raiders",
    "bloc": "SSU",
    "advantage": "Night Raid: the platoon's units may move before the first turn.",
    "slots": [
        {"role": "command", "name": "Command", "required": True, "units": ["ssu.commissar-yelena-orlova"]},
        {"role": "combat", "name": "Combat", "required": True, "units": ["ssu.volga-rifle-squad"]},
    ],
}


@pytest.fixture
def staff(db: None, settings: Any) -> Any:
    settings.PLATOON_CHART_RATE = "1000/hour"
    return UserFactory(username="stella", is_staff=True)


def _charts(catalogue: Catalogue, staff: Any, count: int, advantage: str = "") -> None:
    first = charts.platoon_chart_enter(
        catalogue=catalogue, actor=staff, chart={**CHART, "advantage": advantage or CHART["advantage"]}
    )
    for n in range(1, count):
        first.pk = None
        first.key = f"ssu.raiders-{n:03}"
        first.name = f"Volga Night Raiders {n:03}"
        first.save()


def _export(catalogue: Catalogue, part: int = 1) -> charts.ChartsExport:
    return charts.platoon_charts_export(catalogue=catalogue, part=part)


def test_an_export_of_more_charts_than_one_import_takes_comes_in_parts_each_imported_whole(
    demo_catalogue: Catalogue, staff: Any
) -> None:
    _charts(demo_catalogue, staff, limits.MAX_CHARTS_IMPORTED * 2 + 10)

    first = _export(demo_catalogue)
    parts = [first, *(_export(demo_catalogue, n) for n in range(2, first.parts + 1))]

    assert [len(p.document["platoon_charts"]) for p in parts] == [60, 60, 10]
    for part in parts:
        done = charts.platoon_charts_import(catalogue=demo_catalogue, actor=staff, document=part.document)
        assert (len(done.created), len(done.unchanged)) == (0, len(part.document["platoon_charts"]))


def test_each_part_is_within_the_file_bound_as_the_page_writes_it(
    demo_catalogue: Catalogue, staff: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MAX_CHARTS_FILE_BYTES", 40 * 1024)
    _charts(demo_catalogue, staff, 40, advantage="A long advantage. " * 100)

    first = _export(demo_catalogue)
    parts = [first, *(_export(demo_catalogue, n) for n in range(2, first.parts + 1))]

    assert first.parts > 1
    assert sum(len(p.document["platoon_charts"]) for p in parts) == 40
    for part in parts:
        assert chart_parts.written_bytes(part.document) <= limits.MAX_CHARTS_FILE_BYTES
        assert (
            chart_parts.written_bytes(part.document) > limits.MAX_CHARTS_FILE_BYTES // 2 or part is parts[-1]
        )


def test_an_empty_export_writes_its_charts_key_and_the_import_says_it_holds_none(
    demo_catalogue: Catalogue, staff: Any
) -> None:
    export = _export(demo_catalogue)

    assert export.document["platoon_charts"] == []
    with pytest.raises(charts.PlatoonChartError) as refused:
        charts.platoon_charts_import(catalogue=demo_catalogue, actor=staff, document=export.document)
    assert refused.value.message == "the file holds no platoon chart"


def test_the_page_offers_each_part_and_its_file_is_taken_by_the_page_s_import(
    client: Any, demo_catalogue: Catalogue, staff: Any
) -> None:
    _charts(demo_catalogue, staff, limits.MAX_CHARTS_IMPORTED + 1)
    client.force_login(staff)
    export_url = reverse("armies:catalogue_platoon_charts_export", args=[demo_catalogue.pk])

    page = client.get(reverse("armies:catalogue_platoon_charts", args=[demo_catalogue.pk])).content.decode()
    second = client.get(f"{export_url}?part=2")
    beyond = client.get(f"{export_url}?part=3")

    assert "Part 1 of 2" in page
    assert f"{export_url}?part=2" in page
    assert second["Content-Disposition"].endswith('-part-2-of-2.json"')
    assert beyond.status_code == 404
    imported = client.post(
        reverse("armies:catalogue_platoon_charts_import", args=[demo_catalogue.pk]),
        {"file": SimpleUploadedFile("part-2.json", second.content, content_type="application/json")},
    )
    assert imported.status_code == 302
    assert len(json.loads(second.content)["platoon_charts"]) == 1


def test_the_api_names_its_parts_and_the_next(api_as: Any, demo_catalogue: Catalogue, staff: Any) -> None:
    _charts(demo_catalogue, staff, limits.MAX_CHARTS_IMPORTED + 1)
    export_url = reverse("api:catalogue-platoon-charts-export", args=[demo_catalogue.pk])

    first = api_as(staff).get(export_url)
    last = api_as(staff).get(f"{export_url}?part=2")
    beyond = api_as(staff).get(f"{export_url}?part=3")
    huge = api_as(staff).get(f"{export_url}?part={'9' * 5000}")

    assert (first["Parts"], first["Link"]) == ("2", f'<{export_url}?part=2>; rel="next"')
    assert "Link" not in last
    assert len(first.json()["platoon_charts"]) == limits.MAX_CHARTS_IMPORTED
    assert (beyond.status_code, beyond.json()["code"]) == (400, "no-such-part")
    assert huge.status_code == 400
