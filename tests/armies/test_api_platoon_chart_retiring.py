"""Retiring platoon charts through the API, the cap on charts in use and the rate of entering them."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from armies import selectors
from armies import validation as v
from armies.models import Catalogue, PlatoonChart
from armies.validation import limits
from tests.armies.test_api_platoon_charts import CHART, url
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

RECON = "ssu.taiga-recon-platoon"  # a chart of the demo catalogue


def retire_url(catalogue: Catalogue, key: str = RECON) -> str:
    return reverse("api:catalogue-platoon-chart-retire", args=[catalogue.pk, key])


@pytest.fixture
def staff(db: None) -> Any:
    return UserFactory(username="stella", is_staff=True)


def _recon_list(catalogue: Catalogue) -> v.ArmyList:
    return v.ArmyList(
        "Recon", "SSU", 100, catalogue.version,
        entries=(v.ListEntry("e1", "ssu.pavel-dron", platoon="p1", slot="Command"),
                 v.ListEntry("e2", "ssu.taiga-scout-squad", platoon="p1", slot="Combat 1"),
                 v.ListEntry("e3", "ssu.volga-rifle-squad", platoon="p1", slot="Combat 2")),
        platoons=(v.PlatoonClaim("p1", RECON, ("e1", "e2", "e3")),),
    )  # fmt: skip


@pytest.mark.parametrize(
    ("who", "status"),
    [("staff", 200), ("organiser", 403), ("player", 403), ("stranger", 403), ("anonymous", 403)],
)
def test_it_lets_only_staff_retire_a_chart(
    api_as, api_client, open_campaign, staff, organiser, player, stranger, who, status
):
    users = {"staff": staff, "organiser": organiser, "player": player, "stranger": stranger}
    client = api_as(users[who]) if who in users else api_client

    answer = client.post(retire_url(open_campaign.catalogue))

    assert answer.status_code == status, answer.json()
    retired = PlatoonChart.objects.get(catalogue=open_campaign.catalogue, key=RECON).retired_at is not None
    assert retired == (status == 200)


def test_it_stops_offering_a_retired_chart_for_new_claims_while_a_snapshot_keeps_it(
    api_as, api_client, staff, demo_catalogue
):
    army = _recon_list(demo_catalogue)
    before = v.validate(army, selectors.catalogue_for_validation(catalogue=demo_catalogue))
    assert not [p for p in before.errors if p.code.startswith("platoon-")]
    revision = demo_catalogue.charts_revision

    answer = api_as(staff).post(retire_url(demo_catalogue))
    again = api_as(staff).post(retire_url(demo_catalogue))

    assert answer.status_code == 200
    assert again.json()["retired_at"] == answer.json()["retired_at"]  # retiring twice does nothing more
    demo_catalogue.refresh_from_db()
    assert demo_catalogue.charts_revision == revision + 1  # the validator's cached copy is read afresh
    plain = selectors.catalogue_for_validation(catalogue=demo_catalogue)
    assert RECON not in plain.chart_by_key
    refused = v.validate(army, plain)
    assert [p.code for p in refused.errors if p.code.startswith("platoon-")] == ["platoon-chart-retired"]
    assert "staff retired" in next(p.message for p in refused.errors if p.code == "platoon-chart-retired")
    # A registered snapshot is checked with the charts it was registered with.
    assert v.validate(army, plain.with_retired_charts) == before
    listed = {chart["key"]: chart["retired_at"] for chart in api_client.get(url(demo_catalogue)).json()}
    assert listed[RECON] is not None


def test_it_keeps_a_retired_chart_out_of_the_export(api_as, api_client, staff, demo_catalogue):
    created = api_as(staff).post(url(demo_catalogue), CHART, format="json").json()

    api_as(staff).post(retire_url(demo_catalogue, created["key"]))

    assert api_client.get(url(demo_catalogue, "export")).json().get("platoon_charts", []) == []


def test_it_refuses_a_chart_past_the_most_a_catalogue_may_have_in_use(
    api_as, staff, demo_catalogue, monkeypatch
):
    live = PlatoonChart.objects.filter(catalogue=demo_catalogue).count()
    monkeypatch.setattr(limits, "MAX_LIVE_CHARTS", live)

    refused = api_as(staff).post(url(demo_catalogue), CHART, format="json")
    api_as(staff).post(retire_url(demo_catalogue))
    entered = api_as(staff).post(url(demo_catalogue), CHART, format="json")

    assert refused.status_code == 409
    assert refused.json()["code"] == "too-many-live-charts"
    assert f"at most {live}" in refused.json()["detail"]
    assert entered.status_code == 201, entered.json()


def test_it_refuses_an_import_that_would_pass_the_most_a_catalogue_may_have_in_use(
    api_as, staff, demo_catalogue, monkeypatch
):
    api_as(staff).post(url(demo_catalogue), CHART, format="json")
    document = api_as(staff).get(url(demo_catalogue, "export")).json()
    document["platoon_charts"][0]["key"] = "ssu.another"
    monkeypatch.setattr(
        limits, "MAX_LIVE_CHARTS", PlatoonChart.objects.filter(catalogue=demo_catalogue).count()
    )

    answer = api_as(staff).post(url(demo_catalogue, "import"), document, format="json")

    assert (answer.status_code, answer.json()["code"]) == (409, "too-many-live-charts")
    assert not PlatoonChart.objects.filter(key="ssu.another").exists()


def test_it_limits_how_often_an_account_enters_or_imports_charts(api_as, staff, demo_catalogue, settings):
    settings.PLATOON_CHART_RATE = "2/hour"
    other = UserFactory(username="sofia", is_staff=True)

    first = api_as(staff).post(url(demo_catalogue), {**CHART, "name": "First"}, format="json")
    document = api_as(staff).get(url(demo_catalogue, "export")).json()
    second = api_as(staff).post(url(demo_catalogue, "import"), document, format="json")
    third = api_as(staff).post(url(demo_catalogue), {**CHART, "name": "Third"}, format="json")
    by_another = api_as(other).post(url(demo_catalogue), {**CHART, "name": "Another"}, format="json")

    assert (first.status_code, second.status_code) == (201, 200)
    assert third.status_code == 429
    assert third.json()["code"] == "too-many-chart-entries"
    assert "at most 2 times an hour" in third.json()["detail"]
    assert by_another.status_code == 201
    assert not PlatoonChart.objects.filter(name="Third").exists()
