"""The CSV downloads: one row per battle, the standings tables; a result waiting for the close in neither."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.utils import timezone

from campaign.models import Battle, BattleSource, BattleStatus, Campaign, sides_recorded
from exchange.tables import GROUP_COLUMNS, PLAYER_COLUMNS, RESULT_COLUMNS, results_csv, standings_csv
from standings.selectors import standings_for
from standings.services import standings_recompute

pytestmark = pytest.mark.django_db


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.fixture
def late_win(played: Campaign, place: Any) -> Battle:
    """A confirmed win of the open round 2: s2 beats x2 by 7 VP to 2 (their display names: S2, X2)."""
    battle = Battle.objects.create(
        campaign=played, round=played.rounds.get(number=2), attacker=place("s2"), defender=place("x2"),
        **sides_recorded(attacker=place("s2"), defender=place("x2")),
        mission="hold-the-line", points_limit=150, status=BattleStatus.CONFIRMED, source=BattleSource.PAIRING,
        winner=place("s2"), confirmed_at=timezone.now(),
        result={"winner": "attacker", "draw": False, "decided_by": "victory_points",
                "victory_points": {"attacker": 7, "defender": 2}, "ap_destroyed": {"attacker": 40, "defender": 5}},
    )  # fmt: skip
    standings_recompute(campaign_id=played.pk, force=True)
    return battle


def test_it_writes_one_row_per_published_battle(played: Campaign, late_win: Battle) -> None:
    rows = _rows(results_csv(campaign=played))
    assert list(rows[0]) == list(RESULT_COLUMNS)
    assert len(rows) == Battle.objects.filter(campaign=played).exclude(status=BattleStatus.DRAFT).count()
    first = rows[0]
    assert (first["round"], first["attacker"], first["defender"], first["status"]) == (
        "1",
        "X1",
        "A1",
        "confirmed",
    )
    assert first["winner"] == "X1"
    last = next(row for row in rows if row["attacker"] == "S2")
    assert (last["winner"], last["attacker_vp"], last["defender_vp"]) == ("S2", "7", "2")
    assert (last["attacker_ap_destroyed"], last["defender_ap_destroyed"]) == ("40", "5")
    assert next(row for row in rows if row["defender"] == "Club member")["winner"] == ""


def test_a_result_waiting_for_the_close_is_in_neither_table(played: Campaign, place: Any) -> None:
    # In a campaign that hides results, a win agreed in the open round waits on the battle (still
    # "reported") until the round closes: no table has it yet, for anyone.
    Campaign.objects.filter(pk=played.pk).update(hide_results_until_close=True)
    Battle.objects.create(
        campaign=played, round=played.rounds.get(number=2), attacker=place("s2"), defender=place("x2"),
        **sides_recorded(attacker=place("s2"), defender=place("x2")),
        mission="hold-the-line", points_limit=150, status=BattleStatus.REPORTED, source=BattleSource.PAIRING,
        pending_result={"winner": "attacker", "draw": False, "decided_by": "victory_points",
                        "victory_points": {"attacker": 7, "defender": 2},
                        "ap_destroyed": {"attacker": 40, "defender": 5}},
        pending_at=timezone.now(),
    )  # fmt: skip
    standings_recompute(campaign_id=played.pk, force=True)
    played.refresh_from_db()

    row = next(r for r in _rows(results_csv(campaign=played)) if r["attacker"] == "S2")
    players = {r["player"]: r for r in _rows(standings_csv(campaign=played, table="players"))}

    assert (row["status"], row["winner"], row["attacker_vp"]) == ("reported", "", "")
    assert players["S2"]["won"] == "0"


def test_it_writes_the_standings_tables_as_the_selectors_rank_them(
    played: Campaign, late_win: Battle
) -> None:
    view = standings_for(campaign=played)
    assert view is not None
    players = _rows(standings_csv(campaign=played, table="players"))
    assert list(players[0]) == list(PLAYER_COLUMNS)
    assert [(r["rank"], r["player"], r["points"]) for r in players] == [
        (str(p.rank), p.name, str(p.points)) for p in view.players
    ]
    blocs = _rows(standings_csv(campaign=played, table="blocs"))
    assert list(blocs[0]) == list(GROUP_COLUMNS)
    assert [(r["key"], r["sectors_held"]) for r in blocs] == [
        (b.key, str(b.sectors_held)) for b in view.blocs
    ]
    factions = _rows(standings_csv(campaign=played, table="factions"))
    assert [r["key"] for r in factions] == [f.key for f in view.factions]


def test_it_quotes_a_name_a_spreadsheet_would_run(played: Campaign, place: Any) -> None:
    ghost = played.enrolments.get(placeholder_name="Club member")
    type(ghost).objects.filter(pk=ghost.pk).update(placeholder_name="=HYPERLINK(1)")
    rows = _rows(results_csv(campaign=played))
    assert "'=HYPERLINK(1)" in [row["defender"] for row in rows]


def test_it_writes_only_the_header_before_any_standings(campaign: Campaign) -> None:
    assert standings_csv(campaign=campaign, table="players").strip() == ",".join(PLAYER_COLUMNS)
