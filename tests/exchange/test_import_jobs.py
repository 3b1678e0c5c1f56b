"""An import is a job: the request stores the file and queues it, the worker's run makes the campaign or names
every problem, and the import's page and endpoint show how it stands.

The worker's run is called here in the test's process (``import_run``, what the
task calls); tests/exchange/test_import_worker.py runs it in a real worker.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from campaign.models import Campaign, LogEntry
from config.celery import app
from core.progress import progress_set
from exchange import limits
from exchange.checks import ImportRefusedError
from exchange.jobs import MAX_ATTEMPTS, TASK, import_run, import_start, imports_heal
from exchange.models import CampaignImport, ImportStatus
from exchange.selectors import import_progress
from exchange.spec import SECTIONS
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    """The tasks queued (not run: each test runs the worker's part itself)."""
    messages: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(app, "send_task", lambda name, args: messages.append((name, tuple(args))))
    return messages


def _upload(document: Any, name: str = "export.json") -> SimpleUploadedFile:
    body = document if isinstance(document, bytes) else json.dumps(document).encode()
    return SimpleUploadedFile(name, body, content_type="application/json")


def _page(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _stored(job: CampaignImport) -> Path:
    return Path(job.file.path)


def test_the_page_stores_the_file_queues_it_and_goes_to_the_import(
    good: dict[str, Any], stranger: Any, sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = _page(stranger).post(reverse("exchange:import"), {"file": _upload(good, "club.json")})
    job = CampaignImport.objects.get(created_by=stranger)
    assert response.status_code == 302
    assert response["Location"] == reverse("exchange:import_job", args=[job.pk])
    assert (job.status, job.file_name, job.size) == (ImportStatus.QUEUED, "club.json", len(json.dumps(good)))
    assert json.loads(_stored(job).read_bytes()) == good
    assert sent == [(TASK, (str(job.pk),))]
    assert not Campaign.objects.filter(organiser=stranger).exists()  # nothing before the worker runs
    waiting = _page(stranger).get(response["Location"]).content.decode()
    assert "Waiting for a worker" in waiting
    assert 'hx-trigger="every 1s"' in waiting


def test_the_worker_makes_the_campaign_and_the_page_links_to_it(good: dict[str, Any], stranger: Any) -> None:
    job = import_start(upload=_upload(good), user=stranger)
    stored = _stored(job)

    import_run(job_id=str(job.pk))

    job.refresh_from_db()
    made = Campaign.objects.get(organiser=stranger)
    assert (job.status, import_progress(job).percent, job.campaign) == (ImportStatus.SUCCEEDED, 100, made)
    assert job.rows["battles"] == len(good["battles"])
    assert set(job.rows) == {section.key for section in SECTIONS}
    assert job.problems == []
    assert not stored.exists()  # the upload is not kept once imported
    shown = _page(stranger).get(reverse("exchange:import_job", args=[job.pk])).content.decode()
    assert reverse("campaign:detail", args=[made.pk]) in shown
    assert 'hx-trigger="every 1s"' not in shown  # finished: the page stops polling
    assert f"<dt>Battles</dt><dd>{len(good['battles'])}</dd>" in shown


def test_a_refused_file_lists_every_problem_by_field_and_writes_nothing(
    good: dict[str, Any], stranger: Any
) -> None:
    good["battles"][0]["attacker"] = 999_999
    good["rounds"][0]["number"] = -1
    before = (Campaign.objects.count(), LogEntry.objects.count())
    job = import_start(upload=_upload(good), user=stranger)
    stored = _stored(job)

    import_run(job_id=str(job.pk))

    job.refresh_from_db()
    assert job.status == ImportStatus.FAILED
    assert {(p["field"], p["code"]) for p in job.problems} == {
        ("battles[0].attacker", "dangling"),
        ("rounds[0].number", "out-of-bounds"),
    }
    assert (Campaign.objects.count(), LogEntry.objects.count()) == before
    assert job.campaign is None
    assert not stored.exists()
    page = _page(stranger).get(reverse("exchange:import_job", args=[job.pk]))
    assert page.status_code == 200
    assert "battles[0].attacker" in page.content.decode()
    assert "Nothing was imported: 2 problems" in page.content.decode()
    api = _api(stranger).get(reverse("api:campaign-import", args=[job.pk])).json()
    assert api["status"] == "failed"
    assert {p["field"] for p in api["problems"]} == {"battles[0].attacker", "rounds[0].number"}


def test_a_file_with_too_many_problems_says_there_are_more(good: dict[str, Any], stranger: Any) -> None:
    # More faulty rows than a refusal lists.
    good["battles"] = [dict(battle, points_limit="many") for battle in good["battles"] * limits.MAX_PROBLEMS]
    job = import_start(upload=_upload(good), user=stranger)
    import_run(job_id=str(job.pk))
    job.refresh_from_db()
    assert len(job.problems) == limits.MAX_PROBLEMS
    assert job.more_problems > 0
    shown = _page(stranger).get(reverse("exchange:import_job", args=[job.pk])).content.decode()
    assert f"more beyond the first {limits.MAX_PROBLEMS}" in shown


def test_a_crash_while_writing_is_a_failed_import_with_nothing_written(
    good: dict[str, Any], stranger: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from exchange import importer

    def broken(self: Any) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(importer._Writer, "finish", broken)  # after every row is written, before the commit
    before = (Campaign.objects.count(), LogEntry.objects.count())
    job = import_start(upload=_upload(good), user=stranger)
    stored = _stored(job)

    import_run(job_id=str(job.pk))

    job.refresh_from_db()
    assert job.status == ImportStatus.FAILED
    assert [p["code"] for p in job.problems] == ["import-crashed"]
    assert (Campaign.objects.count(), LogEntry.objects.count()) == before
    assert not stored.exists()


def test_running_a_job_twice_imports_it_once(good: dict[str, Any], stranger: Any) -> None:
    job = import_start(upload=_upload(good), user=stranger)
    import_run(job_id=str(job.pk))
    import_run(job_id=str(job.pk))  # the message delivered again
    assert Campaign.objects.filter(organiser=stranger).count() == 1


@pytest.mark.parametrize(
    ("body", "code"),
    [(b"", "empty"), (b"<html>not an export</html>", "not-json"), (b"[1, 2]", "not-json")],
)
def test_the_request_refuses_what_is_plainly_not_an_export(stranger: Any, body: bytes, code: str) -> None:
    with pytest.raises(ImportRefusedError) as caught:
        import_start(upload=_upload(body), user=stranger)
    assert [(p.field, p.code) for p in caught.value.problems] == [("file", code)]
    assert not CampaignImport.objects.exists()


def test_a_byte_order_mark_and_spaces_before_the_object_are_fine(good: dict[str, Any], stranger: Any) -> None:
    body = b"\xef\xbb\xbf \n" + json.dumps(good).encode()
    job = import_start(upload=_upload(body), user=stranger)
    import_run(job_id=str(job.pk))
    job.refresh_from_db()
    assert job.status == ImportStatus.SUCCEEDED, job.problems


def test_the_page_refuses_a_file_that_is_not_an_export_at_once(stranger: Any) -> None:
    response = _page(stranger).post(reverse("exchange:import"), {"file": _upload(b"hello")})
    assert response.status_code == 400
    assert "does not begin with a JSON object" in response.content.decode()
    assert not CampaignImport.objects.exists()


def test_a_user_has_at_most_so_many_imports_unfinished(good: dict[str, Any], stranger: Any) -> None:
    for _ in range(limits.MAX_UNFINISHED_IMPORTS):
        import_start(upload=_upload(good), user=stranger)
    page = _page(stranger).post(reverse("exchange:import"), {"file": _upload(good)})
    assert page.status_code == 400
    assert f"at most {limits.MAX_UNFINISHED_IMPORTS} at once" in page.content.decode()
    api = _api(stranger).post(reverse("api:campaign-imports"), {"file": _upload(good)}, format="multipart")
    assert api.status_code == 400
    assert api.json()["code"] == "import-busy"
    assert CampaignImport.objects.count() == limits.MAX_UNFINISHED_IMPORTS
    # Someone else is not held up by it, and once one finishes the user may import again.
    assert _page(UserFactory()).post(reverse("exchange:import"), {"file": _upload(good)}).status_code == 302
    import_run(job_id=str(CampaignImport.objects.filter(created_by=stranger).last().pk))  # type: ignore[union-attr]
    assert _page(stranger).post(reverse("exchange:import"), {"file": _upload(good)}).status_code == 302


def test_the_api_queues_a_json_body_and_reports_the_campaign(
    good: dict[str, Any], stranger: Any, sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    client = _api(stranger)
    with django_capture_on_commit_callbacks(execute=True):
        accepted = client.post(
            reverse("api:campaign-imports"), data=json.dumps(good), content_type="application/json"
        )
    assert accepted.status_code == 202, accepted.content
    body = accepted.json()
    assert (body["status"], body["progress"], body["campaign"]) == ("queued", 0, None)
    assert body["url"] == reverse("exchange:import_job", args=[body["id"]])
    assert sent == [(TASK, (body["id"],))]

    import_run(job_id=body["id"])

    done = client.get(reverse("api:campaign-import", args=[body["id"]])).json()
    made = Campaign.objects.get(organiser=stranger)
    assert (done["status"], done["progress"], done["campaign"]) == ("succeeded", 100, made.pk)
    assert done["rows"]["reports"] == len(good["reports"])
    listed = client.get(reverse("api:campaign-imports")).json()
    assert [job["id"] for job in listed] == [body["id"]]


def test_the_api_takes_a_multipart_file_and_names_a_missing_one(good: dict[str, Any], stranger: Any) -> None:
    client = _api(stranger)
    made = client.post(reverse("api:campaign-imports"), {"file": _upload(good)}, format="multipart")
    assert made.status_code == 202, made.content
    for fields in ({"other": "x"}, {"file": "text, not a file"}):
        missing = client.post(reverse("api:campaign-imports"), fields, format="multipart")
        assert missing.status_code == 400
        assert missing.json()["errors"] == [
            {"field": "file", "code": "missing", "message": "send the export as the part named file"}
        ]


def test_the_api_refuses_a_body_over_the_bound(stranger: Any) -> None:
    response = _api(stranger).post(
        reverse("api:campaign-imports"), data=b"{}", content_type="application/json",
        CONTENT_LENGTH=str(limits.MAX_FILE_BYTES + 1),
    )  # fmt: skip
    assert response.status_code == 413
    assert not CampaignImport.objects.exists()


def test_the_api_refuses_a_body_that_runs_over_the_bound_while_read(
    stranger: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 100)
    monkeypatch.setattr("exchange.api.MAX_FILE_BYTES", 100)
    body = b'{"format": "' + b"x" * 200 + b'"}'
    response = _api(stranger).post(
        reverse("api:campaign-imports"), data=body, content_type="application/json"
    )
    assert response.status_code == 413
    assert not CampaignImport.objects.exists()


def test_the_page_refuses_an_upload_over_the_bound_from_its_length(stranger: Any) -> None:
    response = _page(stranger).post(
        reverse("exchange:import"), data=b"x", content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(limits.MAX_FILE_BYTES * 2),
    )  # fmt: skip
    assert response.status_code == 413


def test_the_page_names_a_missing_file(stranger: Any) -> None:
    response = _page(stranger).post(reverse("exchange:import"), {})
    assert response.status_code == 400
    assert b"This field is required" in response.content


def test_the_form_names_the_bound_of_an_upload_too_large(
    stranger: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("exchange.forms.MAX_FILE_BYTES", 10)
    response = _page(stranger).post(reverse("exchange:import"), {"file": _upload(b'{"a": "bcdefghijk"}')})
    assert response.status_code == 400
    assert "An export is at most" in response.content.decode()


def test_the_progress_shown_is_the_workers_while_it_runs(good: dict[str, Any], stranger: Any) -> None:
    job = import_start(upload=_upload(good), user=stranger)
    CampaignImport.objects.filter(pk=job.pk).update(status=ImportStatus.RUNNING)
    job.refresh_from_db()
    progress_set(f"campaign-import:{job.pk}", 40, "writing reports (2,000 of 19,408)")

    assert import_progress(job).percent == 40
    shown = _page(stranger).get(reverse("exchange:import_job", args=[job.pk]), HTTP_HX_REQUEST="true")
    assert shown.status_code == 200
    assert 'value="40"' in shown.content.decode()
    assert "writing reports (2,000 of 19,408)" in shown.content.decode()
    assert "<html" not in shown.content.decode()  # htmx gets the fragment it swaps
    assert _api(stranger).get(reverse("api:campaign-import", args=[job.pk])).json()["progress"] == 40


def test_the_import_reports_its_progress_from_checking_to_the_last_write(good: dict[str, Any]) -> None:
    from exchange.importer import campaign_import

    told: list[tuple[int, str]] = []
    campaign_import(
        document=good, user=UserFactory(), progress=lambda percent, stage: told.append((percent, stage))
    )
    percents = [percent for percent, _ in told]
    assert percents == sorted(percents)
    assert percents[0] < 5
    assert percents[-1] >= 95
    assert any(stage.startswith("writing battles") for _, stage in told)


def test_the_heal_job_queues_again_what_was_lost_or_interrupted(
    good: dict[str, Any], stranger: Any, sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    lost = import_start(upload=_upload(good), user=stranger)
    killed = import_start(upload=_upload(good), user=UserFactory())
    given_up = import_start(upload=_upload(good), user=UserFactory())
    fresh = import_start(upload=_upload(good), user=UserFactory())
    long_ago = timezone.now() - timedelta(hours=1)
    CampaignImport.objects.filter(pk=lost.pk).update(created_at=long_ago)
    CampaignImport.objects.filter(pk__in=[killed.pk, given_up.pk]).update(
        status=ImportStatus.RUNNING, started_at=long_ago, attempts=1
    )
    CampaignImport.objects.filter(pk=given_up.pk).update(attempts=MAX_ATTEMPTS)
    sent.clear()

    with django_capture_on_commit_callbacks(execute=True):
        healed = imports_heal()

    assert healed == 2
    assert sorted(args[0] for _, args in sent) == sorted([str(lost.pk), str(killed.pk)])
    assert CampaignImport.objects.get(pk=killed.pk).status == ImportStatus.QUEUED
    gave_up = CampaignImport.objects.get(pk=given_up.pk)
    assert gave_up.status == ImportStatus.FAILED
    assert [p["code"] for p in gave_up.problems] == ["import-interrupted"]
    assert CampaignImport.objects.get(pk=fresh.pk).status == ImportStatus.QUEUED
    import_run(job_id=str(killed.pk))  # the interrupted one runs again, whole
    assert CampaignImport.objects.get(pk=killed.pk).status == ImportStatus.SUCCEEDED


def test_the_import_page_lists_the_users_own_imports(good: dict[str, Any], stranger: Any) -> None:
    mine = import_start(upload=_upload(good, "mine.json"), user=stranger)
    import_start(upload=_upload(good, "theirs.json"), user=UserFactory())
    shown = _page(stranger).get(reverse("exchange:import")).content.decode()
    assert reverse("exchange:import_job", args=[mine.pk]) in shown
    assert "mine.json" in shown
    assert "theirs.json" not in shown


def test_a_name_of_any_length_is_kept_within_its_bound(good: dict[str, Any], stranger: Any) -> None:
    upload = SimpleUploadedFile("x" * 400 + ".json", json.dumps(good).encode())
    job = import_start(upload=upload, user=stranger)
    assert len(job.file_name) == limits.FILE_NAME_MAX_LENGTH


def test_the_import_pages_and_endpoints_read_a_fixed_number_of_queries(
    good: dict[str, Any], stranger: Any, django_assert_num_queries: Any
) -> None:
    jobs = [import_start(upload=_upload(good), user=stranger) for _ in range(limits.MAX_UNFINISHED_IMPORTS)]
    for job in jobs:
        import_run(job_id=str(job.pk))  # finished, each with its campaign to link
    page, api = _page(stranger), _api(stranger)
    # The session and its user, then the page's own: the form page lists the imports with their campaigns.
    with django_assert_num_queries(3):
        assert page.get(reverse("exchange:import")).status_code == 200
    with django_assert_num_queries(3):
        assert page.get(reverse("exchange:import_job", args=[jobs[0].pk])).status_code == 200
    with django_assert_num_queries(1):
        assert len(api.get(reverse("api:campaign-imports")).json()) == len(jobs)
    with django_assert_num_queries(1):
        assert api.get(reverse("api:campaign-import", args=[jobs[0].pk])).status_code == 200


def test_staff_see_the_imports_in_the_admin(good: dict[str, Any], stranger: Any) -> None:
    job = import_start(upload=_upload(good, "club.json"), user=stranger)
    staff = UserFactory(is_staff=True, is_superuser=True)
    listed = _page(staff).get("/admin/exchange/campaignimport/")
    assert listed.status_code == 200
    assert "club.json" in listed.content.decode()
    assert _page(staff).get(f"/admin/exchange/campaignimport/{job.pk}/change/").status_code == 200


def test_a_file_holding_too_many_values_is_refused_before_it_is_stored(
    good: dict[str, Any], stranger: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = json.dumps(good).encode()
    counted = sum(body.count(mark) for mark in (b",", b"[", b"{"))
    monkeypatch.setattr("exchange.reading.MAX_JSON_VALUES", counted - 1)
    page = _page(stranger).post(reverse("exchange:import"), {"file": _upload(body)})
    assert page.status_code == 400
    assert f"about {counted:,} values" in page.content.decode()
    api = _api(stranger).post(reverse("api:campaign-imports"), data=body, content_type="application/json")
    assert api.status_code == 400
    assert api.json()["errors"][0]["code"] == "too-many-values"
    assert not CampaignImport.objects.exists()
    monkeypatch.setattr("exchange.reading.MAX_JSON_VALUES", counted)
    assert _page(stranger).post(reverse("exchange:import"), {"file": _upload(body)}).status_code == 302
