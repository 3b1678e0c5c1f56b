"""The demo campaign's battle reports (see core.demo), made through the same services players use.

In the open round: two battles reported by their attackers and confirmed by
their defenders (the attackers won, so the front line moved), one disputed
for the organiser to resolve, one left for the demo users to report; and the
latecomer Lena's challenge, accepted and reported by her opponent, waiting
for Lena to confirm or dispute it. Run once: a campaign that has reports is
left as it is.
"""

from __future__ import annotations

from typing import Any

from armies.services import army_lists as lists
from battles.matchup_services import matchup_run, matchup_start
from battles.models import BattleReport, BattleSession, MatchupSheet
from battles.services import ReportInput, SideInput, report_confirm, report_dispute, report_submit
from battles.sessions.demo import demo_session
from campaign.battle_terms import battle_mission
from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Campaign,
    Challenge,
    ChallengeStatus,
    Enrolment,
    Registration,
)
from campaign.selectors.rounds import open_round
from campaign.services.challenges import challenge_accept
from campaign.services.registrations import army_list_register
from core.demo import DemoData

LATECOMER = "lena"
# Lena's bloc is whichever the round-1 bye was not (the pairing's seed decides), so a list for each.
LATECOMER_LISTS = {
    "Allies": ("Riverside patrol", ("allies.gulfport-marine-squad", "allies.prairie-dog")),
    "Axis": ("Riverside patrol", ("axis.grauwolf-rifle-squad", "axis.keiler")),
    "SSU": ("Riverside patrol", ("ssu.volga-rifle-squad", "ssu.medved")),
}


def seed_demo(data: DemoData) -> None:
    campaign: Campaign | None = data.objects.get("campaign")
    if campaign is None:
        return
    if not BattleReport.objects.filter(campaign=campaign).exists():
        _report_the_open_round(campaign, data)
    data.messages.append("Battle reports: lena has one to confirm; the organiser has a dispute to resolve.")
    if not MatchupSheet.objects.filter(battle__campaign=campaign).exists():
        _work_out_a_matchup_sheet(campaign)
    if not BattleSession.objects.filter(campaign=campaign).exists():
        _play_a_few_steps(campaign, data)


def _play_a_few_steps(campaign: Campaign, data: DemoData) -> None:
    """That same battle is in progress at the table: its session a few steps in (docs/battle-sessions.md)."""
    battle = (
        Battle.objects.filter(round=open_round(campaign=campaign), status=BattleStatus.SCHEDULED)
        .select_related("campaign", "sector", "attacker__player", "defender__player")
        .order_by("id")
        .first()
    )
    session = demo_session(battle) if battle is not None else None
    if session is not None and battle is not None:
        data.messages.append(
            f"Battle session: {battle.attacker.display_name} and {battle.defender.display_name} are "
            f"{session.version} steps into their battle (join code {session.code})."
        )


def _work_out_a_matchup_sheet(campaign: Campaign) -> None:
    """The first battle of the open round still to be played has its matchup sheet ready to open (worked
    out here, by the worker's own code)."""
    current = open_round(campaign=campaign)
    battle = (
        Battle.objects.filter(round=current, status=BattleStatus.SCHEDULED)
        .select_related("campaign", "attacker__player", "defender__player")
        .order_by("id")
        .first()
    )
    if battle is None:
        return
    attacker, defender = _current_list(battle.attacker), _current_list(battle.defender)
    if attacker is None or defender is None:
        return
    sheet, _ = matchup_start(battle=battle, attacker=attacker, defender=defender, actor=campaign.organiser)
    matchup_run(sheet_id=sheet.pk)


def _report_the_open_round(campaign: Campaign, data: DemoData) -> None:
    current = open_round(campaign=campaign)
    if current is None:
        return
    challenge = (
        Challenge.objects.filter(
            round=current, status=ChallengeStatus.OPEN, challenger__player__username=LATECOMER
        )
        .select_related("challenger__player", "challenged__player", "sector")
        .first()
    )
    # The challenge's sector is left alone by the other results, so Lena's battle is still about something.
    battles = [
        b
        for b in Battle.objects.filter(
            round=current, status=BattleStatus.SCHEDULED, source=BattleSource.PAIRING
        )
        .select_related("campaign", "round", "sector", "attacker__player", "defender__player")
        .order_by("id")
        if challenge is None or b.sector_id != challenge.sector_id
    ]
    for battle in battles[:2]:
        report = _report(battle, winner="attacker")
        report_confirm(report=report, actor=battle.defender.player)
    if len(battles) > 2:
        disputed = battles[2]
        report_dispute(report=_report(disputed, winner="attacker"), actor=disputed.defender.player,
                       reason="Two of my squads came back from reserve: they were never lost twice.")  # fmt: skip
    if challenge is not None:
        _latecomers_battle(challenge, data)


def _current_list(place: Enrolment) -> Registration | None:
    return (
        Registration.objects.filter(enrolment=place, superseded_by__isnull=True)
        .order_by("-registered_at")
        .first()
    )


def _report(battle: Battle, *, winner: str) -> BattleReport:
    """The winner's opponent lost its first unit, by the mission's last turn; the winner reports it."""
    attacker, defender = _current_list(battle.attacker), _current_list(battle.defender)
    if attacker is None or defender is None:
        raise LookupError(f"{battle}: every demo player registers a list before reporting")
    loser = SideInput(lost=("e1",))
    data = ReportInput(
        attacker_registration=attacker, defender_registration=defender, turns=battle_mission(battle).turn_limit,
        ending="turn_limit", attacker=loser if winner == "defender" else SideInput(),
        defender=loser if winner == "attacker" else SideInput(),
    )  # fmt: skip
    place = battle.attacker if winner == "attacker" else battle.defender
    return report_submit(battle=battle, actor=place.player, side=winner, data=data)


def _latecomers_battle(challenge: Challenge, data: DemoData) -> None:
    """Lena registers a list, her challenge is accepted, and her opponent reports a win she is to answer."""
    lena: Any = challenge.challenger.player
    if _current_list(challenge.challenger) is None:
        name, units = LATECOMER_LISTS[challenge.challenger.bloc]
        army_list = lists.army_list_create(
            owner=lena, catalogue=data.objects["catalogue"], name=name, bloc=challenge.challenger.bloc,
            points_limit=challenge.campaign.points_limit,
        )  # fmt: skip
        for unit in units:
            lists.army_list_add_unit(army_list=army_list, unit_key=unit)
        army_list.refresh_from_db()
        army_list_register(enrolment=challenge.challenger, army_list=army_list, actor=lena)
    battle = challenge_accept(challenge=challenge, actor=challenge.challenged.player)
    battle = Battle.objects.select_related("campaign", "round", "sector", "attacker__player",
                                           "defender__player").get(pk=battle.pk)  # fmt: skip
    _report(battle, winner="defender")
