"""Blocs and factions: their players' results summed, the sectors they hold and their resources, by round."""

from __future__ import annotations

from collections import Counter

import pytest

from campaign.models import Campaign, Enrolment, Sector
from campaign.options import ResourceHolder
from campaign.selectors import map_state_at
from campaign.services.economy import Holder, balance, ledger_adjust
from campaign.services.map import sector_update

pytestmark = pytest.mark.django_db


def blocs_of(standings):
    return {row.key: row for row in standings.blocs}


def test_a_bloc_sums_its_players_results(league):
    league.fight("a1", "x1", "attacker", vp=(5, 1))
    league.fight("a2", "s1", None, vp=(2, 2))
    league.fight("x2", "a1", "attacker", vp=(4, 3))

    blocs = blocs_of(league.standings())

    allies = blocs["Allies"]
    assert (allies.players, allies.played, allies.won, allies.drawn, allies.lost) == (2, 3, 1, 1, 1)
    assert (allies.points, allies.vp_for, allies.vp_against) == (4, 10, 7)
    assert (blocs["Axis"].won, blocs["Axis"].lost, blocs["SSU"].drawn) == (1, 1, 1)


def test_a_bloc_holds_the_sectors_the_map_gives_it_at_the_end_of_each_round(league, organiser):
    neutral = list(Sector.objects.filter(campaign=league.campaign, owner="", headquarters_of="")[:2])
    league.round(1)
    sector_update(campaign=league.campaign, actor=organiser, key=neutral[0].key, changes={"owner": "Axis"},
                  reason="taken in a side battle")  # fmt: skip
    league.round(2)
    sector_update(campaign=league.campaign, actor=organiser, key=neutral[1].key, changes={"owner": "SSU"},
                  reason="taken in a side battle")  # fmt: skip

    for round_number in (1, 2):
        state = map_state_at(campaign=league.campaign, round_number=round_number)
        expected = Counter(s.owner.value for s in state.values() if s.owner)
        table = blocs_of(league.standings(round_number))
        assert {bloc: row.sectors_held for bloc, row in table.items()} == {
            bloc: expected.get(bloc, 0) for bloc in ("Allies", "Axis", "SSU")
        }
    now = Counter(
        Sector.objects.filter(campaign=league.campaign).exclude(owner="").values_list("owner", flat=True)
    )
    assert {bloc: row.sectors_held for bloc, row in blocs_of(league.standings()).items()} == {
        bloc: now.get(bloc, 0) for bloc in ("Allies", "Axis", "SSU")
    }
    first = blocs_of(league.standings(1))
    assert blocs_of(league.standings())["SSU"].sectors_held == first["SSU"].sectors_held + 1


def test_blocs_rank_by_sectors_held(league, organiser):
    league.round(1)
    for sector in Sector.objects.filter(campaign=league.campaign, owner="", headquarters_of="")[:3]:
        sector_update(campaign=league.campaign, actor=organiser, key=sector.key, changes={"owner": "SSU"},
                      reason="the SSU advance")  # fmt: skip

    standings = league.standings()

    assert standings.blocs[0].key == "SSU"
    assert standings.blocs[0].rank == 1


def test_a_blocs_resources_are_its_ledger_balance_round_by_round(league, organiser):
    league.round(1)
    ledger_adjust(campaign=league.campaign, holder=Holder(bloc="Allies"), amount=5, reason="supply drop",
                  actor=organiser)  # fmt: skip
    league.round(2)
    ledger_adjust(campaign=league.campaign, holder=Holder(bloc="Allies"), amount=-2, reason="sabotage",
                  actor=organiser)  # fmt: skip

    assert blocs_of(league.standings(1))["Allies"].resources == 5
    now = blocs_of(league.standings())
    assert now["Allies"].resources == balance(campaign=league.campaign, holder=Holder(bloc="Allies")) == 3
    assert now["Axis"].resources == 0


def test_factions_sum_their_players_and_hold_nothing_where_resources_are_per_bloc(league):
    Enrolment.objects.filter(campaign=league.campaign, player__username__in=["a1", "a2"]).update(
        faction="ranger"
    )
    Enrolment.objects.filter(campaign=league.campaign, player__username="x1").update(faction="blutkreuz")
    league.fight("a1", "x1", "attacker", vp=(3, 1))
    league.fight("a2", "x1", "attacker", vp=(2, 0))

    factions = {row.key: row for row in league.standings().factions}

    assert (factions["ranger"].players, factions["ranger"].won, factions["ranger"].vp_for) == (2, 2, 5)
    assert factions["blutkreuz"].lost == 2
    # No sectors of their own: by wins, then VP difference (the players with no faction chosen: 0 and 0).
    assert [(row.key, row.rank) for row in league.standings().factions] == [
        ("ranger", 1),
        ("", 2),
        ("blutkreuz", 3),
    ]
    assert factions["ranger"].sectors_held is None
    assert factions["ranger"].resources is None


def test_where_resources_are_per_player_factions_and_blocs_add_up_their_players_holdings(league, organiser):
    Campaign.objects.filter(pk=league.campaign.pk).update(resources_held_by=ResourceHolder.PLAYER)
    league.campaign.refresh_from_db()
    Enrolment.objects.filter(campaign=league.campaign, player__username="x1").update(faction="blutkreuz")
    x1 = league.place("x1")
    league.round(1)
    ledger_adjust(
        campaign=league.campaign, holder=Holder(enrolment=x1), amount=4, reason="loot", actor=organiser
    )
    held = Sector.objects.filter(campaign=league.campaign, owner="Axis").first()
    assert held is not None
    sector_update(campaign=league.campaign, actor=organiser, key=held.key, changes={"held_by": x1.pk},
                  reason="x1 holds it")  # fmt: skip

    standings = league.standings()
    factions = {row.key: row for row in standings.factions}

    assert (factions["blutkreuz"].resources, factions["blutkreuz"].sectors_held) == (4, 1)
    assert blocs_of(standings)["Axis"].resources == 4


def test_a_bloc_counts_the_battles_fought_for_it_not_the_bloc_its_players_hold_now(league):
    league.fight("x1", "a1", "attacker", vp=(5, 1))
    league.fight("s1", "x1", "defender", vp=(0, 3))
    # The place's bloc changed after it fought (history made before a rejoin kept the bloc).
    Enrolment.objects.filter(campaign=league.campaign, player__username="x1").update(bloc="SSU")

    standings = league.standings()
    blocs = blocs_of(standings)

    assert (blocs["Axis"].players, blocs["Axis"].won, blocs["Axis"].points, blocs["Axis"].vp_for) == (
        1,
        2,
        6,
        8,
    )
    assert (blocs["SSU"].players, blocs["SSU"].won, blocs["SSU"].lost, blocs["SSU"].vp_for) == (3, 0, 1, 0)
    assert blocs["Allies"].lost == 1
    # The player's own row shows the player as they are now, with every result of theirs.
    x1 = next(row for row in standings.players if row.enrolment_id == league.place("x1").pk)
    assert (x1.bloc, x1.won) == ("SSU", 2)
    assert sum(row.points for row in standings.blocs) == sum(row.points for row in standings.players)


def test_a_faction_counts_the_battles_fought_as_it(league):
    Enrolment.objects.filter(campaign=league.campaign, player__username="x1").update(faction="blutkreuz")
    league.fight("x1", "a1", "attacker", vp=(4, 2))
    Enrolment.objects.filter(campaign=league.campaign, player__username="x1").update(faction="eisen")
    league.fight("x1", "a2", "defender", vp=(1, 3))

    factions = {row.key: row for row in league.standings().factions}

    assert (factions["blutkreuz"].players, factions["blutkreuz"].won, factions["blutkreuz"].lost) == (0, 1, 0)
    assert (factions["eisen"].players, factions["eisen"].won, factions["eisen"].lost) == (1, 0, 1)
    assert (factions["blutkreuz"].vp_for, factions["eisen"].vp_for) == (4, 1)
