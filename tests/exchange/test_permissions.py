"""Who may do what, page and API alike: export (organisers), CSVs (whoever sees the campaign), import (signed in),
an import's progress and outcome (its importer).

A private campaign is a 404 to anyone who may not see it; a public one's export
is a 403 to a signed-in non-organiser, and a sign-in (page: redirect, API: 403
``not_authenticated``) to the anonymous.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from campaign.models import Campaign, CoOrganiser
from exchange.export import campaign_export
from exchange.jobs import import_run, import_start
from exchange.models import CampaignImport
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PERSONAS = ("organiser", "co_organiser", "player", "stranger", "anonymous")
# The API operations this matrix covers (tests/campaign/test_api_permissions.py counts on it).
OPERATIONS = {
    "campaign_export", "campaign_results_csv", "campaign_standings_csv", "campaign_import", "campaign_imports",
    "campaign_import_status",
}  # fmt: skip


@pytest.fixture
def people(campaign: Campaign, organiser: Any, player: Any, stranger: Any) -> dict[str, Any]:
    helper = UserFactory(username="helper")
    CoOrganiser.objects.create(campaign=campaign, user=helper, added_by=organiser)
    return {"organiser": organiser, "co_organiser": helper, "player": player, "stranger": stranger,
            "anonymous": None}  # fmt: skip


def _page_client(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _api_client(user: Any) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


# (public, persona) -> status: the export page.
EXPORT_PAGE = {
    (False, "organiser"): 200, (False, "co_organiser"): 200, (False, "player"): 403, (False, "stranger"): 404,
    (False, "anonymous"): 404, (True, "organiser"): 200, (True, "co_organiser"): 200, (True, "player"): 403,
    (True, "stranger"): 403, (True, "anonymous"): 302,
}  # fmt: skip
EXPORT_API = {**EXPORT_PAGE, (True, "anonymous"): 403}
# The CSVs: whoever sees the campaign.
CSV = {(public, who): 200 if public or who in ("organiser", "co_organiser", "player") else 404
       for public in (False, True) for who in PERSONAS}  # fmt: skip


def _publish(campaign: Campaign, public: bool) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(is_public=public)


@pytest.mark.parametrize("public", [False, True])
@pytest.mark.parametrize("who", PERSONAS)
def test_it_lets_only_organisers_download_the_export(
    campaign: Campaign, people: Any, public: bool, who: str
) -> None:
    _publish(campaign, public)
    page = _page_client(people[who]).get(reverse("exchange:export", args=[campaign.pk]))
    assert page.status_code == EXPORT_PAGE[(public, who)]
    api = _api_client(people[who]).get(reverse("api:campaign-export", args=[campaign.pk]))
    assert api.status_code == EXPORT_API[(public, who)]
    if api.status_code == 200:
        assert json.loads(page.content)["campaign"]["name"] == campaign.name
        assert json.loads(api.content)["format"] == "zverograd-campaign"
        assert "attachment" in api["Content-Disposition"]


@pytest.mark.parametrize("public", [False, True])
@pytest.mark.parametrize("who", PERSONAS)
@pytest.mark.parametrize("what", ["results_csv", "standings_csv"])
def test_it_lets_whoever_sees_the_campaign_download_the_csvs(
    campaign: Campaign, people: Any, public: bool, who: str, what: str
) -> None:
    _publish(campaign, public)
    page = _page_client(people[who]).get(reverse(f"exchange:{what}", args=[campaign.pk]))
    api = _api_client(people[who]).get(reverse(f"api:campaign-{what.replace('_', '-')}", args=[campaign.pk]))
    assert page.status_code == CSV[(public, who)]
    assert api.status_code == CSV[(public, who)]
    if api.status_code == 200:
        assert api["Content-Type"].startswith("text/csv")
        assert page.content == api.content
    else:
        assert campaign.name.encode() not in api.content


@pytest.mark.parametrize("who", PERSONAS)
def test_it_lets_any_signed_in_user_import(campaign: Campaign, people: Any, who: str) -> None:
    text = json.dumps(campaign_export(campaign=campaign), default=str)
    api = _api_client(people[who]).post(
        reverse("api:campaign-imports"), data=text, content_type="application/json"
    )
    page = _page_client(people[who]).get(reverse("exchange:import"))
    listed = _api_client(people[who]).get(reverse("api:campaign-imports"))
    if who == "anonymous":
        assert (api.status_code, page.status_code, listed.status_code) == (403, 302, 403)
        assert not CampaignImport.objects.exists()
        return
    assert api.status_code == 202, api.content
    assert (page.status_code, listed.status_code) == (200, 200)
    job = CampaignImport.objects.get(pk=api.json()["id"])
    assert job.created_by == people[who]
    import_run(job_id=str(job.pk))
    job.refresh_from_db()
    copy = job.campaign
    assert copy is not None
    assert copy.organiser == people[who]
    assert copy.pk != campaign.pk


# Who sees an import (its page, its endpoint, its place in the list): its importer alone.
JOB_PAGE = {"importer": 200, "other": 404, "organiser": 404, "anonymous": 302}
JOB_API = {**JOB_PAGE, "anonymous": 403}


@pytest.mark.parametrize("who", sorted(JOB_PAGE))
def test_only_the_importer_sees_an_import(campaign: Campaign, people: Any, who: str) -> None:
    importer = people["stranger"]
    document = json.dumps(campaign_export(campaign=campaign), default=str).encode()
    upload = SimpleUploadedFile("club.json", document, content_type="application/json")
    job = import_start(upload=upload, user=importer)
    caller = {"importer": importer, "other": people["player"], "organiser": people["organiser"],
              "anonymous": None}[who]  # fmt: skip
    page = _page_client(caller).get(reverse("exchange:import_job", args=[job.pk]))
    api = _api_client(caller).get(reverse("api:campaign-import", args=[job.pk]))
    assert (page.status_code, api.status_code) == (JOB_PAGE[who], JOB_API[who])
    if caller is not None:
        listed = _api_client(caller).get(reverse("api:campaign-imports")).json()
        assert (str(job.pk) in [row["id"] for row in listed]) is (who == "importer")
    if who != "importer":
        assert b"club.json" not in page.content
        assert b"club.json" not in api.content


def test_an_import_that_does_not_exist_is_a_404(people: Any) -> None:
    missing = "00000000-0000-4000-8000-000000000000"
    assert (
        _page_client(people["stranger"]).get(reverse("exchange:import_job", args=[missing])).status_code
        == 404
    )
    assert (
        _api_client(people["stranger"]).get(reverse("api:campaign-import", args=[missing])).status_code == 404
    )


def test_it_shows_the_export_link_only_to_organisers(campaign: Campaign, people: Any) -> None:
    url = reverse("campaign:detail", args=[campaign.pk])
    export = reverse("exchange:export", args=[campaign.pk])
    assert export in _page_client(people["organiser"]).get(url).content.decode()
    shown = _page_client(people["player"]).get(url).content.decode()
    assert export not in shown
    assert reverse("exchange:results_csv", args=[campaign.pk]) in shown


def test_the_matrix_covers_every_exchange_operation_of_the_schema(api_client: APIClient) -> None:
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    tagged = {
        operation["operationId"]
        for operations in schema["paths"].values()
        for operation in operations.values()
        if "exchange" in operation.get("tags", [])
    }
    assert tagged == OPERATIONS


def test_the_campaign_list_links_to_the_import_page(people: Any) -> None:
    shown = _page_client(people["stranger"]).get(reverse("campaign:list")).content.decode()
    assert reverse("exchange:import") in shown
