"""Fixtures for the armies tests (the demo catalogue itself is in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from armies.models import ArmyList, Catalogue
from armies.services.catalogue_import import catalogue_import_from_paths
from tests.conftest import bsdata_files as _bsdata_files


@pytest.fixture
def bsdata_files() -> list[Path]:
    return _bsdata_files()


@pytest.fixture(scope="module")
def real_catalogue(django_db_setup: None, django_db_blocker: Any) -> Iterator[Catalogue]:
    """The real BattleScribe data imported once for the module (outside the tests' transactions)
    and removed after it; tests that read it still need ``django_db``."""
    files = _bsdata_files()
    with django_db_blocker.unblock():
        catalogue = Catalogue.objects.get(pk=catalogue_import_from_paths(paths=files).catalogue_id)
    yield catalogue
    with django_db_blocker.unblock():
        ArmyList.objects.filter(catalogue=catalogue).delete()
        catalogue.units.all().delete()
        catalogue.delete()
