"""The campaign's map: loading one, editing sectors with the log, and the map of any round from the log."""

from __future__ import annotations

import json

import pytest

from campaign.engine.mapformat import MapFormatError, default_map, map_to_json
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import Campaign, LogEntry, LogKind, Sector
from campaign.options import Status
from campaign.selectors import map_state_at, map_state_now, sectors_for_map
from campaign.services.map import campaign_map_load, sector_update
from core.errors import DomainError

pytestmark = pytest.mark.django_db


def test_it_loads_the_default_map(campaign, organiser):
    campaign_map_load(campaign=campaign, actor=organiser)

    sectors = sectors_for_map(campaign=campaign)
    assert len(sectors) == len(default_map().sectors)
    assert {s.headquarters_of for s in sectors if s.headquarters_of} == {"Allies", "Axis", "SSU"}
    assert "Central Station" in {s.name for s in sectors}


def test_a_bad_file_is_refused_with_every_problem_and_nothing_loaded(campaign, organiser):
    campaign_map_load(campaign=campaign, actor=organiser)
    document = map_to_json(default_map())
    document["sectors"][0]["neighbours"].append("atlantis")
    document["sectors"][1]["terrain"] = "lava"

    with pytest.raises(MapFormatError) as caught:
        campaign_map_load(campaign=campaign, actor=organiser, text=json.dumps(document))

    codes = {problem.code for problem in caught.value.problems}
    assert {"dangling-neighbour", "unknown-terrain"} <= codes
    assert Sector.objects.filter(campaign=campaign).count() == len(default_map().sectors)
    assert Campaign.objects.get(pk=campaign.pk).map_version == 1


def test_the_map_is_fixed_once_the_campaign_runs(campaign, organiser):
    Campaign.objects.filter(pk=campaign.pk).update(status=Status.RUNNING)

    with pytest.raises(CampaignConflictError):
        campaign_map_load(campaign=campaign, actor=organiser)


def test_a_sector_edit_is_logged_with_who_before_after_and_why(campaign, organiser):
    campaign_map_load(campaign=campaign, actor=organiser)
    key = next(s.key for s in default_map().sectors if s.headquarters_of is None)

    sector_update(campaign=campaign, actor=organiser, key=key, changes={"owner": "SSU", "fortification": "bunker"},
                  reason="pre-campaign skirmish")  # fmt: skip

    entries = list(LogEntry.objects.filter(kind=LogKind.SECTOR_CHANGED).order_by("id"))
    assert [(e.field, e.after, e.reason, e.actor) for e in entries] == [
        ("owner", "SSU", "pre-campaign skirmish", organiser),
        ("fortification", "bunker", "pre-campaign skirmish", organiser),
    ]


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"owner": "Martians"}, "unknown-bloc"),
        ({"value": 99}, "out-of-bounds"),
        ({"colour": "red"}, "unknown-field"),
    ],
)
def test_a_bad_sector_edit_is_refused_and_logs_nothing(campaign, organiser, changes, code):
    campaign_map_load(campaign=campaign, actor=organiser)

    with pytest.raises(DomainError) as caught:
        sector_update(campaign=campaign, actor=organiser, key="zoo", changes=changes, reason="why not")

    assert caught.value.code == code
    assert not LogEntry.objects.filter(kind=LogKind.SECTOR_CHANGED).exists()


def test_a_headquarters_never_changes_hands(campaign, organiser):
    campaign_map_load(campaign=campaign, actor=organiser)
    hq = next(s for s in default_map().sectors if s.headquarters_of is not None)
    other = next(bloc for bloc in ("Allies", "Axis", "SSU") if bloc != hq.headquarters_of)

    with pytest.raises(DomainError) as caught:
        sector_update(campaign=campaign, actor=organiser, key=hq.key, changes={"owner": other}, reason="coup")

    assert caught.value.code == "headquarters-owner"


@pytest.mark.parametrize(
    ("start", "to"), [("strongpoint", "bunker"), ("none", "strongpoint"), ("none", "bunker")]
)
def test_no_fortification_is_added_or_changed_at_a_headquarters(campaign, organiser, start, to):
    campaign_map_load(campaign=campaign, actor=organiser)
    Sector.objects.filter(campaign=campaign, key="port").update(fortification=start)

    with pytest.raises(CampaignError) as caught:
        sector_update(
            campaign=campaign, actor=organiser, key="port", changes={"fortification": to}, reason="dig"
        )

    assert (caught.value.code, caught.value.field) == ("headquarters-not-fortifiable", "fortification")
    assert caught.value.message == (
        "The Port is the Allies headquarters, which is never attacked: no fortification is built there"
    )
    assert Sector.objects.get(campaign=campaign, key="port").fortification == start
    assert not LogEntry.objects.filter(kind=LogKind.SECTOR_CHANGED).exists()


def test_a_headquarters_fortification_may_be_removed(campaign, organiser):
    campaign_map_load(campaign=campaign, actor=organiser)

    sector_update(
        campaign=campaign, actor=organiser, key="port", changes={"fortification": "none"}, reason="razed"
    )

    assert Sector.objects.get(campaign=campaign, key="port").fortification == "none"


def test_an_edit_needs_a_reason(campaign, organiser):
    campaign_map_load(campaign=campaign, actor=organiser)

    with pytest.raises(CampaignError) as caught:
        sector_update(campaign=campaign, actor=organiser, key="zoo", changes={"value": 2}, reason="")

    assert caught.value.code == "reason-required"


def test_the_map_of_a_past_round_is_replayed_from_the_log_and_now_equals_the_columns(campaign, organiser):
    campaign_map_load(campaign=campaign, actor=organiser)
    neutral = [s.key for s in default_map().sectors if s.owner is None]
    sector_update(
        campaign=campaign, actor=organiser, key=neutral[0], changes={"owner": "Axis"}, reason="round 1"
    )
    Campaign.objects.filter(pk=campaign.pk).update(current_round=1)
    campaign.refresh_from_db()
    sector_update(
        campaign=campaign, actor=organiser, key=neutral[0], changes={"owner": "SSU"}, reason="round 2"
    )
    sector_update(
        campaign=campaign, actor=organiser, key=neutral[1], changes={"owner": ""}, reason="still neutral"
    )

    at_start = map_state_at(campaign=campaign, round_number=0)
    now = map_state_at(campaign=campaign)

    assert at_start[neutral[0]].owner == "Axis"
    assert now[neutral[0]].owner == "SSU"
    assert now == map_state_now(sectors=sectors_for_map(campaign=campaign))


def test_a_player_holds_a_sector_for_their_bloc_and_loses_it_when_it_changes_hands(campaign, organiser):
    from armies.blocs import Bloc
    from tests.factories import EnrolmentFactory

    campaign_map_load(campaign=campaign, actor=organiser)
    axis = EnrolmentFactory(campaign=campaign, bloc=Bloc.AXIS)
    ssu = EnrolmentFactory(campaign=campaign, bloc=Bloc.SSU)
    sector_update(campaign=campaign, actor=organiser, key="zoo", changes={"owner": "Axis", "held_by": axis.pk},
                  reason="taken")  # fmt: skip
    with pytest.raises(CampaignError) as caught:
        sector_update(campaign=campaign, actor=organiser, key="zoo", changes={"held_by": ssu.pk}, reason="x")
    assert caught.value.code == "holder-of-another-bloc"

    sector_update(campaign=campaign, actor=organiser, key="zoo", changes={"owner": "SSU"}, reason="lost")

    assert Sector.objects.get(campaign=campaign, key="zoo").held_by_id is None
    campaign.refresh_from_db()
    assert map_state_at(campaign=campaign)["zoo"].held_by is None
    assert map_state_now(sectors=sectors_for_map(campaign=campaign)) == map_state_at(campaign=campaign)
