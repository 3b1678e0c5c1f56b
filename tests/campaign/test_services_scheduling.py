"""An organiser schedules a battle directly: the checks a challenge makes, scheduled at once, both told."""

from __future__ import annotations

import pytest

from accounts.models import Notification
from campaign.engine.map import Terrain
from campaign.engine.missions import MISSIONS, suggested_mission
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import Battle, BattleSource, BattleStatus, LogEntry, LogKind
from campaign.services.rounds import round_close
from campaign.services.scheduling import battle_schedule

pytestmark = pytest.mark.django_db


def _neutral(campaign) -> str:
    return campaign.sectors.filter(owner="", headquarters_of="").values_list("key", flat=True).first()


def test_it_schedules_the_battle_at_once_with_the_sectors_mission(
    round_one, running_campaign, organiser, place
):
    sector = running_campaign.sectors.get(key=_neutral(running_campaign))

    battle = battle_schedule(campaign=running_campaign, actor=organiser, attacker=place("x1"),
                             defender=place("a1"), sector_key=sector.key)  # fmt: skip

    battle.refresh_from_db()
    assert (battle.round, battle.attacker, battle.defender, battle.sector) == (
        round_one, place("x1"), place("a1"), sector,
    )  # fmt: skip
    assert (battle.status, battle.source) == (BattleStatus.SCHEDULED, BattleSource.SCHEDULED)
    assert battle.published_at is not None
    assert battle.mission == suggested_mission(Terrain(sector.terrain)).key
    assert battle.points_limit == running_campaign.points_limit
    assert (battle.attacker_bloc, battle.defender_bloc) == ("Axis", "Allies")
    entry = LogEntry.objects.filter(campaign=running_campaign, kind=LogKind.BATTLE_CHANGED).get()
    assert entry.after["attacker"] == place("x1").display_name
    told = Notification.objects.filter(link=f"/campaigns/{running_campaign.pk}/battles/{battle.pk}/")
    assert set(told.values_list("user__username", flat=True)) == {"x1", "a1"}


def test_it_takes_the_mission_the_organiser_chose(round_one, running_campaign, organiser, place):
    sector = running_campaign.sectors.get(key=_neutral(running_campaign))
    other = next(m.key for m in MISSIONS if m.key != suggested_mission(Terrain(sector.terrain)).key)

    battle = battle_schedule(campaign=running_campaign, actor=organiser, attacker=place("x1"),
                             defender=place("a1"), sector_key=sector.key, mission=other)  # fmt: skip

    assert battle.mission == other


@pytest.mark.parametrize(
    ("attacker", "defender", "sector", "mission", "code", "field"),
    [
        ("x1", "x2", "neutral", None, "same-bloc", "defender"),
        ("x1", "x1", "neutral", None, "same-player", "defender"),
        ("x1", "a1", "axis-hq", None, "sector-not-attackable", "sector"),
        ("x1", "a1", "ssu-held", None, "sector-not-theirs", "sector"),
        ("x1", "a1", "nowhere", None, "unknown-sector", "sector"),
        ("x1", "a1", "neutral", "tea-party", "unknown-mission", "mission"),
    ],
)
def test_it_refuses_what_a_challenge_would_refuse(
    round_one, running_campaign, organiser, place, attacker, defender, sector, mission, code, field
):
    keys = {
        "neutral": _neutral(running_campaign),
        "nowhere": "nowhere",
        "axis-hq": running_campaign.sectors.get(headquarters_of="Axis").key,
        "ssu-held": running_campaign.sectors.filter(owner="SSU", headquarters_of="").values_list(
            "key", flat=True
        )[0],
    }

    with pytest.raises(CampaignError) as caught:
        battle_schedule(campaign=running_campaign, actor=organiser, attacker=place(attacker),
                        defender=place(defender), sector_key=keys[sector], mission=mission)  # fmt: skip

    assert (caught.value.code, caught.value.field) == (code, field)
    assert not Battle.objects.exists()


def test_it_refuses_a_second_battle_for_a_player_this_round(round_one, running_campaign, organiser, place):
    sector = _neutral(running_campaign)
    battle_schedule(campaign=running_campaign, actor=organiser, attacker=place("x1"), defender=place("a1"),
                    sector_key=sector)  # fmt: skip

    with pytest.raises(CampaignConflictError) as caught:
        battle_schedule(campaign=running_campaign, actor=organiser, attacker=place("s1"), defender=place("a1"),
                        sector_key=sector)  # fmt: skip

    assert (caught.value.code, caught.value.field) == ("already-fighting", "defender")
    assert Battle.objects.count() == 1


def test_it_refuses_when_no_round_is_open(round_one, running_campaign, organiser, place):
    round_close(round=round_one, actor=organiser)

    with pytest.raises(CampaignConflictError) as caught:
        battle_schedule(campaign=running_campaign, actor=organiser, attacker=place("x1"), defender=place("a1"),
                        sector_key=_neutral(running_campaign))  # fmt: skip

    assert caught.value.code == "round-not-open"


def test_it_refuses_a_player_who_left(round_one, running_campaign, organiser, place):
    from campaign.models import EnrolmentStatus

    gone = place("a1")
    type(gone).objects.filter(pk=gone.pk).update(status=EnrolmentStatus.LEFT)

    with pytest.raises(CampaignError) as caught:
        battle_schedule(campaign=running_campaign, actor=organiser, attacker=place("x1"), defender=gone,
                        sector_key=_neutral(running_campaign))  # fmt: skip

    assert (caught.value.code, caught.value.field) == ("not-admitted", "defender")


def test_it_refuses_a_player_who_is_not_an_organiser(round_one, running_campaign, place):
    with pytest.raises(CampaignError) as caught:
        battle_schedule(campaign=running_campaign, actor=place("x1").player, attacker=place("x1"),
                        defender=place("a1"), sector_key=_neutral(running_campaign))  # fmt: skip

    assert caught.value.code == "not-organiser"
    assert not Battle.objects.exists()


def test_it_schedules_a_placeholder_and_tells_only_the_player_with_an_account(
    round_one, running_campaign, organiser, place
):
    from tests.factories import EnrolmentFactory

    ada = EnrolmentFactory(campaign=running_campaign, player=None, placeholder_name="Ada", bloc="Allies")

    battle = battle_schedule(campaign=running_campaign, actor=organiser, attacker=place("x1"), defender=ada,
                             sector_key=_neutral(running_campaign))  # fmt: skip

    assert battle.defender == ada
    told = Notification.objects.filter(link=f"/campaigns/{running_campaign.pk}/battles/{battle.pk}/")
    assert set(told.values_list("user__username", flat=True)) == {"x1"}
