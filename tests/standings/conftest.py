"""Hand-built campaigns for the standings: rounds and battles written straight to the database.

``league`` is the shared ``running_campaign`` (a1, a2 Allies; s1, s2 SSU; x1, x2 Axis) with helpers
that create rounds and battles with exactly the results a test needs, without the report workflow
(tests/battles covers that; a few tests here go through it end to end).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Campaign,
    Enrolment,
    Round,
    RoundStatus,
    sides_recorded,
)
from standings.selectors import PlayerRow, StandingsView, standings_for
from standings.services import standings_recompute

# The battle workflow's fixtures (a round, one scheduled battle, registered lists, report data).
from tests.battles.conftest import battle, lists_of, report_data, round_one  # noqa: F401


def result(winner: str | None, vp: tuple[int, int] = (0, 0), ap: tuple[int, int] = (0, 0)) -> dict[str, Any]:
    return {
        "winner": winner, "draw": winner is None, "decided_by": "victory_points",
        "victory_points": {"attacker": vp[0], "defender": vp[1]},
        "ap_destroyed": {"attacker": ap[0], "defender": ap[1]},
    }  # fmt: skip


@dataclass
class League:
    campaign: Campaign

    def place(self, name: str) -> Enrolment:
        return self.campaign.enrolments.get(player__username=name)

    def round(self, number: int) -> Round:
        """Round ``number`` (opened if it is new, every earlier one closed): the campaign's current round."""
        Round.objects.filter(campaign=self.campaign, number__lt=number).update(status=RoundStatus.CLOSED)
        found, _ = Round.objects.get_or_create(
            campaign=self.campaign, number=number, defaults={"deadline": timezone.now() + timedelta(days=7)}
        )
        if self.campaign.current_round < number:
            Campaign.objects.filter(pk=self.campaign.pk).update(current_round=number)
            self.campaign.refresh_from_db()
        return found

    def fight(
        self, attacker: str, defender: str, winner: str | None = "attacker", *, vp: tuple[int, int] = (0, 0),
        ap: tuple[int, int] = (0, 0), round: int = 1, status: str = BattleStatus.CONFIRMED,
    ) -> Battle:  # fmt: skip
        """A battle of ``round``; confirmed with ``winner`` ("attacker", "defender", None for a draw)."""
        sides = {"attacker": self.place(attacker), "defender": self.place(defender)}
        confirmed = status == BattleStatus.CONFIRMED
        return Battle.objects.create(
            campaign=self.campaign, round=self.round(round), attacker=sides["attacker"],
            defender=sides["defender"], mission="hold-the-line", points_limit=150, status=status,
            **sides_recorded(attacker=sides["attacker"], defender=sides["defender"]),
            source=BattleSource.PAIRING, result=result(winner, vp, ap) if confirmed else None,
            winner=sides.get(winner or "") if confirmed else None,
            confirmed_at=timezone.now() if confirmed else None,
        )  # fmt: skip

    def standings(self, round_number: int | None = None) -> StandingsView:
        standings_recompute(campaign_id=self.campaign.pk, force=True)
        self.campaign.refresh_from_db()
        view = standings_for(campaign=self.campaign, round_number=round_number)
        assert view is not None
        return view

    def rows(self, round_number: int | None = None) -> dict[str, PlayerRow]:
        """The players' rows by username."""
        usernames = dict(self.campaign.enrolments.values_list("pk", "player__username"))
        return {usernames[row.enrolment_id]: row for row in self.standings(round_number).players}


@pytest.fixture
def league(running_campaign: Campaign) -> League:
    return League(running_campaign)
