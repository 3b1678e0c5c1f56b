"""The mission library: every terrain suggests a mission, keys are unique, fortification ladders hold."""

from __future__ import annotations

import pytest

from campaign.engine.map import Fortification, Terrain
from campaign.engine.missions import DEFAULT_MISSION, MISSIONS, MISSIONS_BY_KEY, suggested_mission


def test_every_key_is_unique_and_every_mission_has_its_objective():
    assert len(MISSIONS_BY_KEY) == len(MISSIONS)
    assert all(m.objective and m.turn_limit > 0 for m in MISSIONS)


@pytest.mark.parametrize("terrain", list(Terrain))
def test_every_terrain_suggests_a_mission_that_suits_it(terrain):
    chosen = suggested_mission(terrain)

    assert terrain in chosen.suits


def test_no_terrain_suggests_the_meeting_engagement():
    assert suggested_mission(None) == DEFAULT_MISSION


def test_a_bunker_mission_allows_a_strongpoint_and_a_strongpoint_mission_no_bunker():
    bunker = MISSIONS_BY_KEY["hold-the-line"]
    strongpoint = MISSIONS_BY_KEY["breakthrough"]

    assert bunker.allows(Fortification.STRONGPOINT)
    assert bunker.allows(Fortification.BUNKER)
    assert strongpoint.allows(Fortification.STRONGPOINT)
    assert not strongpoint.allows(Fortification.BUNKER)
    assert DEFAULT_MISSION.allows(Fortification.NONE)
    assert not DEFAULT_MISSION.allows(Fortification.STRONGPOINT)
