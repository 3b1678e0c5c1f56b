"""Catalogue fixtures for the calculator tests: the demo catalogue, and the real BattleScribe data."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from armies.models import Catalogue
from armies.services.catalogue_import import catalogue_import_from_paths
from tests.conftest import bsdata_files


@pytest.fixture
def demo(demo_catalogue: Catalogue) -> Catalogue:
    return demo_catalogue


@pytest.fixture(scope="module")
def bsdata(django_db_setup: None, django_db_blocker: Any) -> Iterator[Catalogue]:
    """The real BattleScribe catalogue, imported once for the module and removed after it.

    It lives outside the per-test transactions, so tests that read it still need ``django_db``.
    """
    files = bsdata_files()
    with django_db_blocker.unblock():
        catalogue = Catalogue.objects.get(pk=catalogue_import_from_paths(paths=files).catalogue_id)
    yield catalogue
    with django_db_blocker.unblock():
        catalogue.units.all().delete()
        catalogue.delete()
