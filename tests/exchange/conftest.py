"""A campaign played through the services, to export: reports confirmed, disputed and resolved, a closed
round with its income, a placeholder, a fortification bought, a challenge, an adjustment and an
organiser's edits of the ledger and the map."""

from __future__ import annotations

import json
from typing import Any

import pytest

from battles.services import SideInput, report_confirm, report_dispute, report_resolve, report_submit
from campaign.models import Battle, BattleSource, BattleStatus, Campaign, CoOrganiser, Round, sides_recorded
from campaign.services.challenges import challenge_issue
from campaign.services.economy import Holder, fortification_buy, ledger_adjust
from campaign.services.map import sector_update
from campaign.services.players import placeholder_add
from campaign.services.rounds import round_close, round_open
from exchange.export import campaign_export
from standings.services import adjustment_add
from tests.battles.conftest import AXIS_UNITS, battle, lists_of, register, report_data, round_one  # noqa: F401
from tests.factories import UserFactory


def _fight(campaign: Campaign, round_: Round, attacker: Any, defender: Any, sector: Any) -> Battle:
    return Battle.objects.create(
        campaign=campaign, round=round_, sector=sector, attacker=attacker, defender=defender,
        **sides_recorded(attacker=attacker, defender=defender),
        mission="hold-the-line", points_limit=150, status=BattleStatus.SCHEDULED, source=BattleSource.PAIRING,
    )  # fmt: skip


@pytest.fixture
def played(running_campaign: Campaign, battle: Battle, report_data: Any, lists_of: Any, place: Any,  # noqa: F811
           organiser: Any) -> Campaign:  # fmt: skip
    """``running_campaign`` after two rounds (see the module docstring)."""
    campaign = running_campaign
    CoOrganiser.objects.create(campaign=campaign, user=UserFactory(username="helper"), added_by=organiser)
    x1, a1 = battle.attacker, battle.defender
    # Round 1: x1 beats a1 over a neutral sector (confirmed); the same two fight again, a draw disputed
    # and resolved as reported.
    report = report_submit(battle=battle, actor=x1.player, side="attacker", data=report_data())
    report_confirm(report=report, actor=a1.player)
    second_sector = campaign.sectors.filter(owner="", headquarters_of="").exclude(pk=battle.sector_id).first()
    again = _fight(campaign, battle.round, a1, x1, second_sector)
    draw = report_data(
        attacker_registration=lists_of["defender"], defender_registration=lists_of["attacker"],
        attacker=SideInput(), defender=SideInput(),
    )  # fmt: skip
    second = report_submit(battle=again, actor=a1.player, side="attacker", data=draw)
    report_dispute(report=second, actor=x1.player, reason="We called it a draw, but on different turns.")
    report_resolve(
        report=second, actor=organiser, decision="accepted", reason="Both sides agree on the table."
    )
    round_close(round=battle.round, actor=organiser)
    campaign.refresh_from_db()
    # Round 2: a placeholder joins, the Axis fortifies what it took, an organiser edits the map and the
    # ledger, a penalty, a challenge waiting, and a battle still to be reported.
    second_round = round_open(campaign=campaign, actor=organiser, deadline=battle.round.deadline)
    ghost = placeholder_add(campaign=campaign, actor=organiser, name="Club member", bloc="SSU")
    fortification_buy(campaign=campaign, buyer=x1, sector_key=battle.sector.key, kind="strongpoint",
                      actor=x1.player)  # fmt: skip
    spare = campaign.sectors.filter(owner="", headquarters_of="").exclude(pk__in=[battle.sector_id]).last()
    sector_update(
        campaign=campaign, actor=organiser, key=spare.key, changes={"value": 3}, reason="A depot found"
    )
    ledger_adjust(
        campaign=campaign, holder=Holder(bloc="Allies"), amount=2, reason="Supply drop", actor=organiser
    )
    adjustment_add(campaign=campaign, enrolment=a1, points=-1, reason="Late report", actor=organiser)
    register(place("x2"), AXIS_UNITS, "Axis")
    _fight(campaign, second_round, place("x2"), ghost, spare)
    challenge_issue(
        challenger=place("s1"), challenged=place("a2"), sector_key=_front(campaign), actor=place("s1").player
    )
    campaign.refresh_from_db()
    return campaign


@pytest.fixture
def good(played: Campaign) -> dict[str, Any]:
    """``played``'s export, as a file holds it."""
    return json.loads(json.dumps(campaign_export(campaign=played)))


def _front(campaign: Campaign) -> str:
    from armies.blocs import Bloc
    from campaign.services.pairings import fronts

    return fronts(campaign=campaign)[(Bloc.SSU, Bloc.ALLIES)][0]
