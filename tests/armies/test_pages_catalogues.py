"""Catalogue pages: browsing units, and the staff-only import with its progress page."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from accounts.models import User
from armies.models import Catalogue, CatalogueImport
from armies.services.catalogue_import import MAX_UPLOAD_FILES, catalogue_import_run
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def quartermaster(db: None) -> User:
    """A staff member: the only kind of user who may load catalogues."""
    return UserFactory(username="quartermaster", is_staff=True)


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path


def unit(key: str, name: str, cost: int, unit_type: str, armour: str, **fields: Any) -> dict[str, Any]:
    category = f"{unit_type.title()} {armour[1]}"
    return {
        "key": key,
        "name": name,
        "bloc": "Allies",
        "cost": cost,
        "unit_type": unit_type,
        "armour": armour,
        "category": category,
        "damage": 4,
        "models": 1,
        **fields,
    }


def small_catalogue() -> bytes:
    """A JSON catalogue (armies/importers/schema/catalogue.v1.json) with two units and one report line."""
    document = {
        "format": "zverograd-catalogue",
        "version": 1,
        "name": "Pocket catalogue",
        "revision": 4,
        "factions": [{"name": "Coastal Raiders", "bloc": "Allies"}],
        "units": [
            unit("allies.rifles", "Rifle Squad", 6, "infantry", "S1"),
            unit("allies.longhorn", "Longhorn", 15, "vehicle", "V4", faction="Coastal Raiders"),
        ],
        "report": [
            {
                "source": "pocket.json",
                "entry_name": "Longhorn",
                "what": "weapon",
                "detail": "no smoke profile",
            }
        ],
    }
    return json.dumps(document).encode()


def upload(name: str = "pocket.json", content: bytes | None = None) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, small_catalogue() if content is None else content, "application/json")


# --------------------------------------------------------------------------- browsing


def test_it_lists_the_catalogues_with_their_unit_counts(client, demo_catalogue):
    response = client.get("/catalogues/")

    page = response.content.decode()
    assert response.status_code == 200
    assert f'<a href="/catalogues/{demo_catalogue.pk}/">Zverograd Demo</a>' in page
    assert f"<td>{demo_catalogue.units.count()}</td>" in page
    assert "Import catalogue files" not in page


def test_it_offers_the_import_to_staff(client, quartermaster):
    client.force_login(quartermaster)

    assert "Import catalogue files" in client.get("/catalogues/").content.decode()


@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_it_lets_anyone_browse_a_catalogue(client, demo_catalogue, request, who):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))

    response = client.get(f"/catalogues/{demo_catalogue.pk}/")

    assert response.status_code == 200
    assert "Grauwolf Rifle Squad" in response.content.decode()


def test_it_answers_404_for_a_catalogue_that_does_not_exist(client):
    assert client.get("/catalogues/999999/").status_code == 404


def test_it_filters_units_without_javascript(client, demo_catalogue):
    response = client.get(
        f"/catalogues/{demo_catalogue.pk}/", {"bloc": "SSU", "type": "vehicle", "search": ""}
    )

    names = [unit.name for unit, _weapons in response.context["units"]]
    # The SSU's vehicles, and the mercenary and capturable ones any bloc may field.
    assert "Zubr" in names
    assert "Medved" in names
    assert "Scrapjack" in names
    assert "Volga Rifle Squad" not in names
    assert "selected>SSU</option>" in response.content.decode()


def test_it_filters_units_by_faction_and_search(client, demo_catalogue):
    response = client.get(f"/catalogues/{demo_catalogue.pk}/", {"faction": "taiga-scouts", "search": "scout"})

    names = [unit.name for unit, _weapons in response.context["units"]]
    assert names == ["Taiga Scout Squad"]


def test_it_answers_htmx_with_the_results_only(client, demo_catalogue):
    response = client.get(
        f"/catalogues/{demo_catalogue.pk}/", {"search": "zubr"}, headers={**HTMX, "HX-Target": "unit-results"}
    )

    page = response.content.decode()
    assert page.lstrip().startswith('<section id="unit-results"')
    assert "Zubr" in page
    assert "<html" not in page


def test_it_shows_weapons_per_target_class_and_skills(client, demo_catalogue):
    response = client.get(f"/catalogues/{demo_catalogue.pk}/", {"search": "eisenhund"})

    page = response.content.decode()
    headers = [abbr for abbr, _title in response.context["line_headers"]]
    assert headers == ["S1", "S2", "S3", "S4", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "A1", "A2", "A3"]
    _unit, weapons = response.context["units"][0]
    assert weapons[0].name == "Twin Hammer MG"
    assert " ".join(weapons[0].cells) == "9/1 7/1 5/1 3/1 5/1 3/1 1/1 - - - - 4/1 2/1 1/1"
    assert '<abbr title="Vehicle armour 7">V7</abbr>' in page
    assert "3× Twin Hammer MG" in page
    assert "Damage Resilient" in page


def test_it_pages_a_long_catalogue(client, demo_catalogue, monkeypatch):
    monkeypatch.setattr("armies.views.catalogues.UNITS_PER_PAGE", 10)

    response = client.get(f"/catalogues/{demo_catalogue.pk}/", {"bloc": "Axis", "page": "2"})

    assert response.context["page"].number == 2
    assert "?bloc=Axis&amp;page=1" in response.content.decode()


# --------------------------------------------------------------------------- import: who may


def test_it_sends_an_anonymous_visitor_to_log_in_before_importing(client):
    response = client.get("/catalogues/import/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/log-in/")


@pytest.mark.parametrize("who", ["organiser", "player", "stranger"])
def test_it_refuses_the_import_to_anyone_but_staff(client, request, who):
    client.force_login(request.getfixturevalue(who))

    get = client.get("/catalogues/import/")
    post = client.post("/catalogues/import/", {"uploads": [upload()]})

    assert get.status_code == post.status_code == 403
    assert "Restricted sector" in get.content.decode()
    assert not CatalogueImport.objects.exists()


@pytest.mark.parametrize("who", ["organiser", "stranger"])
def test_it_hides_an_import_progress_from_anyone_but_staff(client, quartermaster, request, who):
    job = CatalogueImport.objects.create(created_by=quartermaster)
    client.force_login(request.getfixturevalue(who))

    assert client.get(f"/catalogues/imports/{job.pk}/").status_code == 403


# --------------------------------------------------------------------------- import: the run


def test_it_imports_uploaded_files_and_shows_the_progress_then_the_summary(
    client, quartermaster, django_capture_on_commit_callbacks
):
    client.force_login(quartermaster)
    assert "multiple" in client.get("/catalogues/import/").content.decode()

    with django_capture_on_commit_callbacks() as queued:
        response = client.post("/catalogues/import/", {"uploads": [upload()]})

    job = CatalogueImport.objects.get()
    assert len(queued) == 1  # one task, sent once the job row and the files are saved
    assert response.status_code == 302
    assert response["Location"] == f"/catalogues/imports/{job.pk}/"

    waiting = client.get(response["Location"]).content.decode()
    assert 'hx-trigger="every 1s"' in waiting
    assert '<progress id="import-progress" class="progress" value="0" max="100">' in waiting
    assert 'http-equiv="refresh"' in waiting  # without JavaScript the page reloads itself

    catalogue_import_run(job_id=str(job.pk))

    done = client.get(response["Location"], headers=HTMX)
    page = done.content.decode()
    assert page.lstrip().startswith('<div id="import-status"')
    assert "hx-trigger" not in page  # polling stops
    assert '<span class="badge badge-ok" data-testid="import-status">succeeded</span>' in page
    assert "<dt>Created</dt><dd>2</dd>" in page
    assert "<dt>Unchanged</dt><dd>0</dd>" in page
    catalogue = Catalogue.objects.get(name="Pocket catalogue")
    assert f'href="/catalogues/{catalogue.pk}/"' in page
    assert "no smoke profile" in page


def test_it_shows_a_running_import_with_its_stage(client, quartermaster):
    job = CatalogueImport.objects.create(
        created_by=quartermaster, status=CatalogueImport.Status.RUNNING, progress=42, stage="600 units"
    )
    client.force_login(quartermaster)

    page = client.get(f"/catalogues/imports/{job.pk}/", headers=HTMX).content.decode()

    assert 'value="42"' in page
    assert "600 units" in page
    assert 'hx-trigger="every 1s"' in page


def test_it_shows_why_an_import_failed(client, quartermaster):
    job = CatalogueImport.objects.create(
        created_by=quartermaster,
        status=CatalogueImport.Status.FAILED,
        error="catalogue-format: pocket.json: $.units[0].armour: 'Q9' does not match",
    )
    client.force_login(quartermaster)

    page = client.get(f"/catalogues/imports/{job.pk}/").content.decode()

    assert "failed" in page
    assert "catalogue-format: pocket.json" in page
    assert "Nothing was changed." in page


@pytest.mark.parametrize(
    ("files", "code", "message"),
    [
        ([], "catalogue-no-files", "choose at least one file to import"),
        ([upload("notes.txt", b"hello")], "catalogue-file-type", "notes.txt: only .gst, .cat, .gstz, .catz"),
    ],
)
def test_it_says_what_is_wrong_with_an_upload(client, quartermaster, files, code, message):
    client.force_login(quartermaster)

    response = client.post("/catalogues/import/", {"uploads": files})

    page = response.content.decode()
    assert response.status_code == 200
    assert response.context["form"].has_error("uploads", code)
    assert code not in page  # the code is the API's
    assert message in page
    assert not CatalogueImport.objects.exists()


def test_it_counts_the_uploads_before_checking_each(client, quartermaster):
    client.force_login(quartermaster)
    files = [upload(f"notes-{n}.txt", b"hello") for n in range(MAX_UPLOAD_FILES + 1)]

    response = client.post("/catalogues/import/", {"uploads": files})

    page = response.content.decode()
    assert response.status_code == 200
    assert f"at most {MAX_UPLOAD_FILES} items (got {MAX_UPLOAD_FILES + 1})" in page
    assert "only .gst" not in page  # no file was looked at
    assert not CatalogueImport.objects.exists()


def test_it_answers_404_for_an_unknown_import(client, quartermaster):
    client.force_login(quartermaster)

    assert client.get("/catalogues/imports/00000000-0000-0000-0000-000000000000/").status_code == 404
