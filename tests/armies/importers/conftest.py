"""Shared fixtures: the community BattleScribe data for Dust 1947, read once per test session.

That data has no licence, so it is never copied into the project: tests read it where the workplace
keeps it (``shared/data/bsdata-dust1947`` beside the repository), or where ZVEROGRAD_BSDATA_DIR
points.  Without it the tests that need it fail under CI=true and are skipped elsewhere, saying why.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from armies.importers import ParsedGameData, read_battlescribe
from tests.conftest import BSDATA_DIR, need

GAME_SYSTEM = "Dust_1947.gst"
CATALOGUE_FILES = (
    "Allies.cat",
    "Axis.cat",
    "SSU.cat",
    "Mercenaries.cat",
    "Mythos.cat",
    "Captured_Vehicles.cat",
)


def bsdata_dir() -> Path:
    return BSDATA_DIR.resolve()


@pytest.fixture(scope="session")
def bsdata() -> Path:
    directory = bsdata_dir()
    missing = [name for name in (GAME_SYSTEM, *CATALOGUE_FILES) if not (directory / name).is_file()]
    if missing:
        need(False, f"BattleScribe data in {directory} (missing {', '.join(missing)})")
    return directory


@pytest.fixture(scope="session")
def game_data(bsdata: Path) -> ParsedGameData:
    """The game system and all six catalogues, parsed once for the whole session."""
    return read_battlescribe([bsdata / GAME_SYSTEM, *(bsdata / name for name in CATALOGUE_FILES)])
