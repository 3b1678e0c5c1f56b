"""Fixtures for the armies tests (the demo catalogue itself is in tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import bsdata_files as _bsdata_files


@pytest.fixture
def bsdata_files() -> list[Path]:
    return _bsdata_files()
