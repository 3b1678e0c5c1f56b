"""Catalogue fixtures for the calculator tests: the demo catalogue, and the real BattleScribe data."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from armies.models import Catalogue
from armies.services.catalogue_import import catalogue_import_from_paths

ROOT = Path(__file__).resolve().parents[2]
DEMO_CATALOGUE = ROOT / "armies" / "demo" / "catalogue.json"
BSDATA = Path(os.environ.get("ZVEROGRAD_BSDATA_DIR", ROOT.parent / "shared" / "data" / "bsdata-dust1947"))


@pytest.fixture
def demo(db: None) -> Catalogue:
    summary = catalogue_import_from_paths(paths=[DEMO_CATALOGUE])
    return Catalogue.objects.get(pk=summary.catalogue_id)


@pytest.fixture(scope="module")
def bsdata(django_db_setup: None, django_db_blocker: Any) -> Iterator[Catalogue]:
    """The real BattleScribe catalogue, imported once for the module and removed after it.

    It lives outside the per-test transactions, so tests that read it still need ``django_db``.
    """
    files = sorted(p for p in BSDATA.glob("*") if p.suffix in {".gst", ".cat"})
    if not files:
        pytest.fail(f"the BattleScribe test data is missing from {BSDATA}")
    with django_db_blocker.unblock():
        catalogue = Catalogue.objects.get(pk=catalogue_import_from_paths(paths=files).catalogue_id)
    yield catalogue
    with django_db_blocker.unblock():
        catalogue.units.all().delete()
        catalogue.delete()
