"""The report workflow: submit, confirm or dispute, resolve, enter; each status change one conditional update.

Of two people acting on a report at once, one wins and the other gets a
conflict (409): the change of status is a single UPDATE from the status it
must have, so confirming twice applies nothing twice. Every change is written
to the campaign's log and tells the players concerned.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import DurationField, ExpressionWrapper, F
from django.utils import timezone

from armies.validation import skills
from battles import judging
from battles.models import REASON_MAX_LENGTH, BattleReport, Ending, ReportStatus, Resolution
from battles.notices import REPORT_CONFIRMED, REPORT_DISPUTED, REPORT_RESOLVED, REPORT_WAITING, report_link
from battles.selectors import battle_for_report
from campaign.battle_terms import battle_list_check, battle_mission
from campaign.engine.map import Fortification
from campaign.models import (
    Battle,
    BattleStatus,
    Campaign,
    EnrolmentStatus,
    LogKind,
    Registration,
    RoundStatus,
)
from campaign.permissions import can_manage_campaign
from campaign.services import notices
from campaign.services.log import log_write
from campaign.services.results import battle_result_settle, battle_result_unsettle
from core.errors import ConflictError, DomainError, FieldProblem

SIDES = ("attacker", "defender")


class ReportConflictError(ConflictError):
    """The report or the battle changed under the caller: nothing was done (409)."""


@dataclass(frozen=True)
class SideInput:
    lost: Sequence[str] = ()
    reserves: Sequence[str] = ()
    objective: bool = False
    scenario_vp: int = 0


@dataclass(frozen=True)
class ReportInput:
    attacker_registration: Registration
    defender_registration: Registration
    turns: int
    ending: str
    attacker: SideInput
    defender: SideInput
    fortification: str = Fortification.NONE
    conceded_by: str | None = None


def _entries(registration: Registration) -> list[judging.Entry]:
    cards = {card["key"]: card for card in registration.profiles}
    return [
        judging.Entry(
            id=row["entry_id"],
            name=cards.get(row["unit"], {}).get("name", row["unit"]),
            paid_ap=int(row["paid_ap"]),
            hero=bool(cards.get(row["unit"], {}).get("hero")),
            strongpoint_unit=bool(cards.get(row["unit"], {}).get("strongpoint_unit")),
            commissar=skills.COMMISSAR in skills.card_skills(cards.get(row["unit"], {})),
        )
        for row in registration.costs.get("entries", [])
    ]


def _judge(battle: Battle, data: ReportInput) -> judging.Judgement:
    """Check the report against the battle (lists, mission, fortification) and judge it."""
    problems: list[FieldProblem] = []
    mission = battle_mission(battle)
    places = {"attacker": battle.attacker, "defender": battle.defender}
    registrations = {"attacker": data.attacker_registration, "defender": data.defender_registration}
    for side in SIDES:
        registration = registrations[side]
        if registration.enrolment_id != places[side].pk or registration.campaign_id != battle.campaign_id:
            problems.append(FieldProblem(f"{side}_registration", "not-their-list",
                                         f"the {side} fought with a list registered for their own place"))  # fmt: skip
            continue
        verdict = battle_list_check(battle=battle, side=side, registration=registration)  # type: ignore[arg-type]
        if verdict.errors:
            shown = "; ".join(p.message for p in verdict.errors[:3])
            problems.append(FieldProblem(f"{side}_registration", "list-not-legal-for-battle",
                                         f"{registration.name} breaks the battle's terms: {shown}"))  # fmt: skip
    try:
        fielded = Fortification(data.fortification)
    except ValueError:
        fielded = None
    if fielded is None or not mission.allows(fielded):
        problems.append(FieldProblem("fortification", "fortification-not-allowed",
                                     f"the {mission.name} mission lets the defender field at most "
                                     f"{mission.defender_fortification.value}"))  # fmt: skip
    if data.ending not in Ending.values:
        problems.append(
            FieldProblem("ending", "invalid-choice", f"must be one of {', '.join(Ending.values)}")
        )
    if problems:
        raise judging.ReportError(problems)
    facts = judging.ReportFacts(
        attacker=judging.SideFacts(_entries(data.attacker_registration), tuple(data.attacker.lost),
                                   tuple(data.attacker.reserves), data.attacker.objective, data.attacker.scenario_vp),
        defender=judging.SideFacts(_entries(data.defender_registration), tuple(data.defender.lost),
                                   tuple(data.defender.reserves), data.defender.objective, data.defender.scenario_vp),
        turns=data.turns, ending=judging.Ending(data.ending), conceded_by=data.conceded_by,
    )  # fmt: skip
    reserves = {"attacker": mission.attacker_reserves, "defender": mission.defender_reserves}
    return judging.judge_report(facts, turn_limit=mission.turn_limit, reserve_limits=reserves)


def report_preview(*, battle: Battle, data: ReportInput) -> judging.Judgement:
    """What the rules app makes of a report before anyone submits it (nothing is saved).

    The report form shows this as the player picks units; ``ReportError`` says
    what does not add up yet.
    """
    battle = Battle.objects.select_related("campaign", "round", "sector", "attacker", "defender").get(
        pk=battle.pk
    )
    return _judge(battle, data)


def _sides(data: ReportInput) -> dict[str, Any]:
    return {
        side: {
            "lost": list(part.lost),
            "reserves": list(part.reserves),
            "objective": part.objective,
            "scenario_vp": part.scenario_vp,
        }
        for side, part in (("attacker", data.attacker), ("defender", data.defender))
    }


def _facts(report: BattleReport, data: ReportInput, judgement: judging.Judgement) -> None:
    report.attacker_registration = data.attacker_registration
    report.defender_registration = data.defender_registration
    report.fortification = data.fortification
    report.turns = data.turns
    report.ending = data.ending
    report.conceded_by = data.conceded_by or ""
    report.sides = _sides(data)
    report.judgement = judgement.to_dict()


def _result(report: BattleReport) -> dict[str, Any]:
    judgement = report.judgement
    keys = ("winner", "draw", "decided_by", "victory_points", "ap_destroyed")
    return {key: judgement[key] for key in keys}


def _log(report: BattleReport, actor: Any, before: str, after: str, reason: str = "") -> None:
    log_write(campaign=report.campaign, kind=LogKind.REPORT_CHANGED, subject=f"battle:{report.battle_id}",
              actor=actor, field="status", before=before,
              after={"status": after, "judgement": report.judgement}, reason=reason[:REASON_MAX_LENGTH])  # fmt: skip


def _when(battle: Battle) -> str:
    """What the players are told of when an agreed result takes effect, where it waits for the close."""
    return "; it takes effect when the round closes" if battle.pending_result is not None else ""


def _lock(battle: Battle) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=battle.campaign_id)


def _locked_battle(pk: int, campaign: Campaign) -> Battle:
    """The battle as it stands now that the caller holds ``campaign``'s lock (its campaign that row: the
    locked row is put back in its place), as ``battle_for_report`` reads it."""
    battle = battle_for_report(pk=pk)
    battle.campaign = campaign
    return battle


def _player_may_answer(report: BattleReport, actor: Any, *, automatic: bool) -> None:
    """A player confirms or disputes only while the battle's round is open and they are still in the
    campaign; organisers (acting for a placeholder) and the clock may settle a closed round's report, and
    then its result takes effect at once (campaign.services.results). ``report.battle`` is read under the
    caller's lock."""
    battle = report.battle
    if automatic:
        return
    answering = battle.defender if report.submitted_by_id == battle.attacker_id else battle.attacker
    if battle.round.status == RoundStatus.OPEN and answering.status == EnrolmentStatus.ADMITTED:
        return  # whoever answers, organiser or player: whether they organise is not asked (a query)
    if can_manage_campaign(actor, battle.campaign):
        return
    if battle.round.status != RoundStatus.OPEN:
        raise ReportConflictError(
            "round-closed",
            "the battle's round is closed: only an organiser can settle its report now",
            "battle",
        )
    if answering.status != EnrolmentStatus.ADMITTED:
        raise ReportConflictError(
            "left-campaign", "you have left the campaign: an organiser settles this report now", "battle"
        )


def _answered(report: BattleReport) -> None:
    """Lock the campaign and read the report's battle afresh under it (the caller's objects predate it)."""
    campaign = _lock(report.battle)
    report.campaign = campaign
    report.battle = _locked_battle(report.battle_id, campaign)


def _move(report: BattleReport, frm: set[str], to: str, **changes: Any) -> None:
    if not BattleReport.objects.filter(pk=report.pk, status__in=frm).update(status=to, **changes):
        report.refresh_from_db()
        raise ReportConflictError(
            "report-changed",
            f"the report is {report.get_status_display().lower()} now: nothing was done",
            "status",
        )
    # What the update wrote, without reading the row again (nobody else writes it under the campaign's
    # lock), and keeping the battle loaded with it.
    report.status = to
    for name, value in changes.items():
        setattr(report, name, value)


def _tell_sides(report: BattleReport, kind: str, message: str, actor: Any) -> None:
    """Both players of the battle, except ``actor`` (whose act this is)."""
    battle = report.battle
    notices.tell(enrolments=[battle.attacker, battle.defender], kind=kind, message=message, actor=actor,
                 link=report_link(report))  # fmt: skip


def _done(report: BattleReport, kinds: set[str], *, organisers: bool = False) -> None:
    """What these notifications about the battle asked of its players (and organisers) is done: they are read."""
    battle = report.battle
    notices.done(enrolments=[battle.attacker, battle.defender], kinds=kinds, links=[report_link(report)],
                 users=notices.organisers(report.campaign) if organisers else ())  # fmt: skip


# Once the battle is reported, its pairing or accepted challenge asks nothing more of its players.
_TO_PLAY = {notices.PAIRINGS_PUBLISHED, notices.CHALLENGE_ANSWERED}


@transaction.atomic
def report_submit(*, battle: Battle, actor: Any, side: str, data: ReportInput) -> BattleReport:
    """Report a scheduled battle for ``side`` (the caller checked the actor may act for it)."""
    battle = _locked_battle(battle.pk, _lock(battle))
    if side not in SIDES:
        raise DomainError("invalid", "a report is made by the attacker or the defender", "side")
    if not battle.round.is_open:
        raise ReportConflictError("round-closed", "the battle's round is closed: ask an organiser", "battle")
    judgement = _judge(battle, data)
    if not Battle.objects.filter(pk=battle.pk, status=BattleStatus.SCHEDULED).update(
        status=BattleStatus.REPORTED
    ):
        battle.refresh_from_db()
        raise ReportConflictError(
            "already-reported",
            f"this battle is {battle.get_status_display().lower()}: report it only once",
            "battle",
        )
    battle.status = BattleStatus.REPORTED  # what the update wrote
    report = BattleReport(battle=battle, campaign=battle.campaign, submitted_by=getattr(battle, side))
    _facts(report, data, judgement)
    report.save()
    _log(report, actor, "", ReportStatus.SUBMITTED)
    other = battle.defender if side == "attacker" else battle.attacker
    _done(report, _TO_PLAY)
    notices.tell(enrolments=[other], kind=REPORT_WAITING, actor=actor,
                 message=f"{getattr(battle, side).display_name} reported your battle: confirm or dispute it.",
                 link=report_link(report))  # fmt: skip
    return report


@transaction.atomic
def report_confirm(*, report: BattleReport, actor: Any, automatic: bool = False) -> BattleReport:
    """The opponent agrees: the result is recorded and the campaign moves on (once, whoever races)."""
    _answered(report)
    _player_may_answer(report, actor, automatic=automatic)
    by = actor if getattr(actor, "is_authenticated", False) else None
    _move(report, {ReportStatus.SUBMITTED}, ReportStatus.CONFIRMED, confirmed_at=timezone.now(), confirmed_by=by,
          auto_confirmed=automatic)  # fmt: skip
    how = "confirmed for the opponent after the deadline" if automatic else "confirmed"
    settled = battle_result_settle(
        battle=report.battle,
        result=_result(report),
        actor=actor,
        reason=f"report {how}",
        locked=report.campaign,
    )
    _log(report, actor, ReportStatus.SUBMITTED, ReportStatus.CONFIRMED, how)
    _done(report, {REPORT_WAITING})
    _tell_sides(report, REPORT_CONFIRMED, f"The report of your battle is {how}{_when(settled)}.", actor)
    return report


@transaction.atomic
def report_dispute(*, report: BattleReport, actor: Any, reason: str) -> BattleReport:
    _answered(report)
    _player_may_answer(report, actor, automatic=False)
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("reason-required", "say what is wrong with the report", "reason")
    if len(reason) > REASON_MAX_LENGTH:
        raise DomainError("too-long", f"at most {REASON_MAX_LENGTH} characters", "reason")
    _move(
        report,
        {ReportStatus.SUBMITTED},
        ReportStatus.DISPUTED,
        dispute_reason=reason,
        disputed_at=timezone.now(),
    )
    _log(report, actor, ReportStatus.SUBMITTED, ReportStatus.DISPUTED, reason)
    _done(report, {REPORT_WAITING})
    _tell_sides(report, REPORT_DISPUTED, f"The report of your battle is disputed: {reason}", actor)
    notices.tell_organisers(campaign=report.campaign, kind=REPORT_DISPUTED, actor=actor,
                            message=f"A battle report is disputed: {reason}", link=report_link(report))  # fmt: skip
    return report


_APPLIED = {ReportStatus.CONFIRMED, ReportStatus.RESOLVED}

# The decisions an organiser is offered on a report of each status (``seen`` in report_resolve).
_OFFERED: dict[str, set[str]] = {
    Resolution.ACCEPTED: {ReportStatus.SUBMITTED, ReportStatus.DISPUTED},
    Resolution.AMENDED: {
        ReportStatus.SUBMITTED,
        ReportStatus.DISPUTED,
        ReportStatus.CONFIRMED,
        ReportStatus.RESOLVED,
    },
    Resolution.VOIDED: {
        ReportStatus.SUBMITTED,
        ReportStatus.DISPUTED,
        ReportStatus.CONFIRMED,
        ReportStatus.RESOLVED,
    },
}


@transaction.atomic
def report_resolve(
    *,
    report: BattleReport,
    actor: Any,
    decision: str,
    reason: str,
    data: ReportInput | None = None,
    seen: str | None = None,
) -> BattleReport:
    """An organiser accepts, amends or voids a report (disputed, waiting, or already confirmed: with a reason).

    ``seen``: the status the organiser decided on (a page shows it, the API may send it). If the report
    changed since (another organiser voided it, the opponent confirmed it), or the decision is not one
    offered for that status (accepting a void report), nothing is done: a conflict. Without it the
    decision applies to the report as it is.
    """
    locked = _lock(report.battle)
    report.refresh_from_db()
    if seen is not None and (report.status != seen or report.status not in _OFFERED.get(decision, set())):
        raise ReportConflictError(
            "report-changed",
            f"the report is {report.get_status_display().lower()} now (it was {seen or 'unknown'}): "
            "nothing was done",
            "status",
        )
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("reason-required", "say why: the campaign's timeline shows it", "reason")
    if len(reason) > REASON_MAX_LENGTH:
        raise DomainError("too-long", f"at most {REASON_MAX_LENGTH} characters", "reason")
    if decision not in (Resolution.ACCEPTED, Resolution.AMENDED, Resolution.VOIDED):
        raise DomainError("invalid-choice", "accept, amend or void", "decision")
    before = report.status
    battle = Battle.objects.get(pk=report.battle_id)
    # Agreed before: it took effect (the battle confirmed) or waits for the round's close (pending).
    settled = before in _APPLIED and (
        battle.status == BattleStatus.CONFIRMED or battle.pending_result is not None
    )
    judgement = None
    if decision == Resolution.AMENDED:
        if data is None:
            raise DomainError("required", "an amendment says what the report should be", "report")
        judgement = _judge(Battle.objects.select_related("campaign", "round", "sector", "attacker", "defender")
                           .get(pk=report.battle_id), data)  # fmt: skip
    to = ReportStatus.VOID if decision == Resolution.VOIDED else ReportStatus.RESOLVED
    _move(report, {before}, to, resolution=decision, resolution_reason=reason, resolved_at=timezone.now(),
          resolved_by=actor if getattr(actor, "is_authenticated", False) else None)  # fmt: skip
    if judgement is not None and data is not None:
        _facts(report, data, judgement)
        report.save()
    if settled:
        back_to = BattleStatus.VOID if decision == Resolution.VOIDED else BattleStatus.REPORTED
        battle_result_unsettle(battle=battle, actor=actor, reason=reason, to=back_to)
    elif decision == Resolution.VOIDED:
        Battle.objects.filter(pk=battle.pk).update(status=BattleStatus.VOID)
    if decision != Resolution.VOIDED:
        battle.refresh_from_db()
        battle = battle_result_settle(
            battle=battle, result=_result(report), actor=actor, reason=f"{decision}: {reason}", locked=locked
        )
    _log(report, actor, before, to, reason)
    # Settled by an organiser: the report waits on no one, and its dispute is over for everyone told of it.
    _done(report, {REPORT_WAITING, REPORT_DISPUTED}, organisers=True)
    _tell_sides(
        report,
        REPORT_RESOLVED,
        f"An organiser {decision} the report of your battle: {reason}{_when(battle)}",
        actor,
    )
    return report


@transaction.atomic
def report_enter(*, battle: Battle, actor: Any, data: ReportInput, reason: str) -> BattleReport:
    """An organiser enters a battle's result directly (a club night's paper slip, a placeholder's battle)."""
    locked = _lock(battle)
    battle = Battle.objects.select_related("campaign", "round", "sector", "attacker", "defender").get(
        pk=battle.pk
    )
    reason = (reason or "").strip() or "entered by an organiser"
    judgement = _judge(battle, data)
    if not Battle.objects.filter(pk=battle.pk, status=BattleStatus.SCHEDULED).update(
        status=BattleStatus.REPORTED
    ):
        raise ReportConflictError(
            "already-reported", "this battle already has a report: resolve that one", "battle"
        )
    report = BattleReport(battle=battle, campaign=battle.campaign, submitted_by=battle.attacker,
                          status=ReportStatus.RESOLVED, resolution=Resolution.ENTERED,
                          resolution_reason=reason[:REASON_MAX_LENGTH], resolved_at=timezone.now(),
                          resolved_by=actor if getattr(actor, "is_authenticated", False) else None)  # fmt: skip
    _facts(report, data, judgement)
    report.save()
    battle.refresh_from_db()
    battle = battle_result_settle(
        battle=battle, result=_result(report), actor=actor, reason=reason, locked=locked
    )
    _log(report, actor, "", ReportStatus.RESOLVED, reason)
    _done(report, _TO_PLAY)
    _tell_sides(
        report,
        REPORT_RESOLVED,
        f"An organiser entered the result of your battle: {reason}{_when(battle)}",
        actor,
    )
    return report


def reports_overdue(*, now: Any = None) -> list[int]:
    """Reports waiting longer than their campaign lets the opponent take to answer."""
    waited = ExpressionWrapper((now or timezone.now()) - F("submitted_at"), output_field=DurationField())
    rows = BattleReport.objects.filter(status=ReportStatus.SUBMITTED).annotate(waited=waited)
    return [
        row.pk
        for row in rows.select_related("campaign")
        if row.waited >= timedelta(hours=row.campaign.report_confirm_hours)
    ]


def reports_autoconfirm(*, now: Any = None) -> int:
    """Confirm every overdue report for its silent opponent (the beat job); returns how many."""
    done = 0
    for pk in reports_overdue(now=now):
        try:
            report_confirm(
                report=BattleReport.objects.select_related("battle").get(pk=pk), actor=None, automatic=True
            )
            done += 1
        except ReportConflictError:
            continue  # answered meanwhile
    return done


def side_input(data: Mapping[str, Any]) -> SideInput:
    return SideInput(
        lost=tuple(data.get("lost", ())), reserves=tuple(data.get("reserves", ())),
        objective=bool(data.get("objective", False)), scenario_vp=int(data.get("scenario_vp", 0)),
    )  # fmt: skip


def report_entries(registration: Registration) -> list[judging.Entry]:
    """A registered snapshot's entries as the judge sees them (id, name, paid AP, hero, strongpoint unit).

    The report form offers these to pick losses and reserves from; the report's page lists them.
    """
    return _entries(registration)
