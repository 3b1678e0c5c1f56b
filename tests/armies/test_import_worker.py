"""A catalogue uploaded through the API is imported by a real, separate Celery worker process.

Under CI=true that worker takes the task from Redis and writes to PostgreSQL.
"""

from __future__ import annotations

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from armies.models import Catalogue, CatalogueImport
from tests.conftest import DEMO_CATALOGUE
from tests.factories import UserFactory

pytestmark = pytest.mark.services


def _wait_until_finished(import_id: str, timeout: float = 90.0) -> CatalogueImport:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = CatalogueImport.objects.get(pk=import_id)
        if job.is_finished:
            return job
        time.sleep(0.25)
    pytest.fail(f"the import was still {job.status} after {timeout:.0f}s")


def test_it_imports_an_uploaded_catalogue_in_the_worker_and_reports_progress(celery_worker_process, api_as):
    staff = UserFactory(username="quartermaster", is_staff=True)
    upload = SimpleUploadedFile(
        "catalogue.json", DEMO_CATALOGUE.read_bytes(), content_type="application/json"
    )

    response = api_as(staff).post("/api/catalogue-imports/", {"files": [upload]}, format="multipart")

    assert response.status_code == 202
    job = _wait_until_finished(response.json()["id"])
    assert job.status == CatalogueImport.Status.SUCCEEDED, job.error
    assert job.progress == 100
    catalogue = Catalogue.objects.get(pk=job.catalogue_id)
    assert catalogue.name == "Zverograd Demo"
    rows = catalogue.units.count() + catalogue.platoon_charts.count() + catalogue.captured_vehicles.count()
    assert job.summary["created"] == rows
    status = api_as(staff).get(f"/api/catalogue-imports/{job.pk}/").json()
    assert status["status"] == "succeeded"
