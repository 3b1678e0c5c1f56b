"""Catalogue import: the real BattleScribe data, idempotence, atomicity and progress."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from armies.models import Catalogue, CatalogueImport, Faction, Unit
from armies.services import catalogue_import as service
from armies.services.catalogue_import import (
    MAX_UPLOAD_FILES,
    CatalogueImportError,
    catalogue_import_from_paths,
)
from tests.conftest import DEMO_CATALOGUE
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_it_imports_every_unit_of_the_battlescribe_data_with_a_report(bsdata_files):
    stages: list[tuple[int, str]] = []

    summary = catalogue_import_from_paths(paths=bsdata_files, progress=lambda p, s: stages.append((p, s)))

    catalogue = Catalogue.objects.get(pk=summary.catalogue_id)
    assert catalogue.name == "Dust 1947"
    assert catalogue.source == "battlescribe"
    counts = {
        bloc: catalogue.units.filter(bloc=bloc).count() for bloc in ("Allies", "Axis", "SSU", "Mercenaries")
    }
    assert all(count > 0 for count in counts.values()), counts
    assert summary.created == catalogue.units.count() + catalogue.captured_vehicles.count()
    assert catalogue.import_report, "what could not be mapped is reported"
    assert [p for p, _ in stages] == sorted(p for p, _ in stages)
    assert stages[-1][0] >= 95


def test_it_changes_nothing_when_the_same_files_are_imported_twice(bsdata_files):
    first = catalogue_import_from_paths(paths=bsdata_files)
    before = list(Unit.objects.order_by("pk").values())
    stamp = Catalogue.objects.get(pk=first.catalogue_id).updated_at

    second = catalogue_import_from_paths(paths=bsdata_files)

    assert second.catalogue_id == first.catalogue_id
    assert (second.created, second.updated, second.deleted) == (0, 0, 0)
    assert list(Unit.objects.order_by("pk").values()) == before
    assert Catalogue.objects.get(pk=first.catalogue_id).updated_at == stamp


def test_it_updates_only_what_changed_and_removes_what_left(demo_catalogue, tmp_path):
    import json

    document = json.loads(DEMO_CATALOGUE.read_text())
    document["units"][0]["cost"] += 1
    removed = document["units"].pop()["key"]
    changed = tmp_path / "catalogue.json"
    changed.write_text(json.dumps(document))

    summary = catalogue_import_from_paths(paths=[changed])

    assert summary.catalogue_id == demo_catalogue.pk
    assert summary.updated == 1
    assert summary.deleted == 1
    assert not demo_catalogue.units.filter(key=removed).exists()


def test_it_leaves_the_catalogue_as_it_was_when_an_import_fails(demo_catalogue, tmp_path, monkeypatch):
    import json

    from armies.models import PlatoonChart
    from armies.services import catalogue_store

    before = list(Unit.objects.order_by("pk").values())
    document = json.loads(DEMO_CATALOGUE.read_text())
    document["units"][0]["cost"] = 999
    changed = tmp_path / "catalogue.json"
    changed.write_text(json.dumps(document))
    real_sync = catalogue_store._sync

    def sync_failing_at_the_platoon_charts(model, *args, **kwargs):
        if model is PlatoonChart:
            raise RuntimeError("disk full")
        return real_sync(model, *args, **kwargs)

    monkeypatch.setattr(catalogue_store, "_sync", sync_failing_at_the_platoon_charts)
    with pytest.raises(RuntimeError, match="disk full"):
        catalogue_import_from_paths(paths=[changed])

    assert list(Unit.objects.order_by("pk").values()) == before


def test_it_refuses_files_it_cannot_read_with_a_code(tmp_path):
    bad = tmp_path / "units.xlsx"
    bad.write_text("no")

    with pytest.raises(CatalogueImportError) as error:
        catalogue_import_from_paths(paths=[bad])

    assert error.value.code == "catalogue-file-type"


def test_it_counts_the_uploads_before_looking_at_any(stranger):
    too_many = [SimpleUploadedFile(f"notes-{n}.txt", b"not a catalogue") for n in range(MAX_UPLOAD_FILES + 1)]

    with pytest.raises(CatalogueImportError) as error:
        service.catalogue_import_start(files=too_many, user=stranger)

    assert (error.value.code, error.value.field) == ("max_length", "files")
    assert f"at most {MAX_UPLOAD_FILES} items" in error.value.message
    assert not CatalogueImport.objects.exists()


def test_the_api_refuses_more_files_than_an_import_reads_before_storing_them(api_as):
    staff = UserFactory(username="quartermaster", is_staff=True)
    files = [SimpleUploadedFile(f"part-{n}.json", b"{}") for n in range(MAX_UPLOAD_FILES * 3)]

    response = api_as(staff).post("/api/catalogue-imports/", {"files": files}, format="multipart")

    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "files", "code": "max_length", "message": f"send at most {MAX_UPLOAD_FILES} files at once"}
    ]
    assert not CatalogueImport.objects.exists()


def test_it_refuses_a_broken_catalogue_file_and_stores_nothing(tmp_path):
    broken = tmp_path / "Broken.cat"
    broken.write_text("<catalogue><unclosed>")

    with pytest.raises(CatalogueImportError) as error:
        catalogue_import_from_paths(paths=[broken])

    assert error.value.code == "catalogue-format"
    assert not Catalogue.objects.exists()


def test_it_runs_a_queued_import_and_records_progress_and_summary(stranger, tmp_path):
    job = CatalogueImport.objects.create(created_by=stranger, files=[str(DEMO_CATALOGUE)])

    service.catalogue_import_run(job_id=str(job.id))

    job.refresh_from_db()
    assert job.status == CatalogueImport.Status.SUCCEEDED
    assert job.progress == 100
    assert job.catalogue is not None
    assert job.summary["created"] > 0
    assert Faction.objects.filter(catalogue=job.catalogue).count() == 6


def test_it_marks_a_failed_import_with_its_reason(stranger, tmp_path):
    broken = tmp_path / "Broken.cat"
    broken.write_text("not xml")
    job = CatalogueImport.objects.create(created_by=stranger, files=[str(broken)])

    service.catalogue_import_run(job_id=str(job.id))

    job.refresh_from_db()
    assert job.status == CatalogueImport.Status.FAILED
    assert job.error.startswith("catalogue-format:")


def test_it_does_not_run_a_finished_import_again(stranger):
    job = CatalogueImport.objects.create(
        created_by=stranger, files=[str(DEMO_CATALOGUE)], status=CatalogueImport.Status.FAILED, error="x"
    )

    service.catalogue_import_run(job_id=str(job.id))

    job.refresh_from_db()
    assert job.status == CatalogueImport.Status.FAILED
    assert not Catalogue.objects.exists()


def test_it_queues_again_an_import_whose_message_was_lost(stranger, django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    lost = CatalogueImport.objects.create(created_by=stranger, files=[str(DEMO_CATALOGUE)])
    CatalogueImport.objects.filter(pk=lost.pk).update(created_at=timezone.now() - timedelta(minutes=10))
    CatalogueImport.objects.create(
        created_by=stranger, files=[str(DEMO_CATALOGUE)]
    )  # just queued: left alone
    CatalogueImport.objects.create(
        created_by=stranger, files=[], status=CatalogueImport.Status.SUCCEEDED, progress=100
    )

    with django_capture_on_commit_callbacks() as callbacks:
        healed = service.catalogue_imports_heal()

    assert healed == 1
    assert len(callbacks) == 1
