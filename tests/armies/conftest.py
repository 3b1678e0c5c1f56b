"""Catalogue fixtures for the armies tests: the project's demo catalogue and the real BattleScribe data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from armies.models import Catalogue
from armies.services.catalogue_import import catalogue_import_from_paths

ROOT = Path(__file__).resolve().parents[2]
DEMO_CATALOGUE = ROOT / "armies" / "demo" / "catalogue.json"
BSDATA = Path(os.environ.get("ZVEROGRAD_BSDATA_DIR", ROOT.parent / "shared" / "data" / "bsdata-dust1947"))


@pytest.fixture
def demo_catalogue(db: None) -> Catalogue:
    summary = catalogue_import_from_paths(paths=[DEMO_CATALOGUE])
    return Catalogue.objects.get(pk=summary.catalogue_id)


@pytest.fixture
def bsdata_files() -> list[Path]:
    files = sorted(p for p in BSDATA.glob("*") if p.suffix in {".gst", ".cat"})
    if not files:
        pytest.fail(f"the BattleScribe test data is missing from {BSDATA}")
    return files
