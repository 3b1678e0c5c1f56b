"""An uploaded export is imported by a real, separate Celery worker process, and its standings computed.

Under CI=true that worker takes the task from Redis and writes to PostgreSQL; without it, from the embedded
filesystem broker into the SQLite test database. Nothing here runs the import itself.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaign.models import Campaign
from standings.models import Standings

pytestmark = pytest.mark.services


def _wait_until_finished(client: Any, job_id: str, timeout: float = 90.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    seen = {}
    while time.monotonic() < deadline:
        seen = client.get(reverse("api:campaign-import", args=[job_id])).json()
        if seen["status"] in ("succeeded", "failed"):
            return seen
        time.sleep(0.25)
    pytest.fail(f"the import was still {seen.get('status')} after {timeout:.0f}s")


def _upload(document: Any) -> SimpleUploadedFile:
    return SimpleUploadedFile("export.json", json.dumps(document).encode(), content_type="application/json")


def test_the_worker_imports_an_upload_and_computes_its_standings(
    celery_worker_process: Any, good: dict[str, Any], stranger: Any, api_as: Any
) -> None:
    client = api_as(stranger)
    accepted = client.post(reverse("api:campaign-imports"), {"file": _upload(good)}, format="multipart")
    assert accepted.status_code == 202, accepted.content

    done = _wait_until_finished(client, accepted.json()["id"])

    assert done["status"] == "succeeded", done["problems"]
    assert done["progress"] == 100
    made = Campaign.objects.get(pk=done["campaign"], organiser=stranger)
    assert done["rows"]["battles"] == made.battles.count() == len(good["battles"])
    # The import changed results, so the worker also recomputes the new campaign's standings.
    deadline = time.monotonic() + 60
    while not Standings.objects.filter(campaign=made).exists() and time.monotonic() < deadline:
        time.sleep(0.25)
    assert Standings.objects.get(campaign=made).reports_counted > 0


def test_the_worker_refuses_a_bad_upload_naming_its_problems(
    celery_worker_process: Any, good: dict[str, Any], stranger: Any, api_as: Any
) -> None:
    good["battles"][0]["attacker"] = 999_999
    client = api_as(stranger)
    before = Campaign.objects.count()
    accepted = client.post(reverse("api:campaign-imports"), {"file": _upload(good)}, format="multipart")

    done = _wait_until_finished(client, accepted.json()["id"])

    assert done["status"] == "failed"
    assert [(p["field"], p["code"]) for p in done["problems"]] == [("battles[0].attacker", "dangling")]
    assert Campaign.objects.count() == before
