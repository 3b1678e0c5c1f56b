"""Who may report, confirm, dispute, resolve and see battle reports: decided here and nowhere else.

A battle's two players report it; the other one confirms or disputes; the
campaign's organisers resolve disputes, change a confirmed report (with a
reason) or enter a result directly, and act for a placeholder side (a club
member without an account). Everyone who sees the campaign sees confirmed
results, unless the campaign hides them until the round closes (then only the
organisers and the two players see them before).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from battles.models import BattleReport, ReportStatus
from campaign.models import Battle, BattleStatus, Campaign, Enrolment, EnrolmentStatus
from campaign.permissions import (
    can_check_battle_list,
    can_manage_campaign,
    can_see_result,
    can_view_campaign,
    sealed_round,
)
from core.permissions import Actor

_SETTLED = {ReportStatus.CONFIRMED, ReportStatus.RESOLVED}


def _plays(user: Actor, place: Enrolment) -> bool:
    return bool(user.is_authenticated and place.player_id is not None and place.player_id == user.pk)


def _acts_for(user: Actor, place: Enrolment, battle: Battle) -> bool:
    """The place's player while still in the campaign (one who left acts no more), or an organiser where
    the place is a placeholder."""
    if place.player_id is None:
        return can_manage_campaign(user, battle.campaign)
    return _plays(user, place) and place.status == EnrolmentStatus.ADMITTED


def side_of(user: Actor, battle: Battle) -> str | None:
    """Which side of ``battle`` the user acts for: plays (or, as an organiser, holds for a placeholder)."""
    for side, place in (("attacker", battle.attacker), ("defender", battle.defender)):
        if _acts_for(user, place, battle):
            return side
    return None


def fought_in(user: Actor, battle: Battle) -> bool:
    """The user played one side of ``battle`` (still in the campaign or not): they see its report."""
    return _plays(user, battle.attacker) or _plays(user, battle.defender)


def can_report(user: Actor, battle: Battle) -> bool:
    return side_of(user, battle) is not None


def can_answer(user: Actor, report: BattleReport) -> bool:
    """Confirm or dispute: the side that did not submit."""
    battle = report.battle
    other = battle.defender if report.submitted_by_id == battle.attacker_id else battle.attacker
    return _acts_for(user, other, battle)


def can_resolve(user: Actor, battle: Battle) -> bool:
    return can_manage_campaign(user, battle.campaign)


def can_view_report(user: Actor, report: BattleReport) -> bool:
    battle = report.battle
    campaign = battle.campaign
    if not can_view_campaign(user, campaign):
        return False
    if can_manage_campaign(user, campaign) or fought_in(user, battle):
        return True
    return report.status in _SETTLED and can_see_result(user, battle)


# --- For the API (issue 12): acting for a named side, the reports a caller sees, the dispute queue ------


def can_report_as(user: Actor, battle: Battle, side: str) -> bool:
    """Report for ``side``: its player, or an organiser where that side is a placeholder."""
    place = {"attacker": battle.attacker, "defender": battle.defender}.get(side)
    return place is not None and _acts_for(user, place, battle)


def visible_reports(user: Actor, campaign: Campaign) -> Q | None:
    """``can_view_report`` as a filter of the campaign's reports (None: every one, for the organisers).

    A test holds the two to agree (tests/battles/test_permission_filters.py).
    """
    if can_manage_campaign(user, campaign):
        return None
    shown = Q(status__in=_SETTLED)
    number = sealed_round(user, campaign)
    if number is not None:
        shown &= ~Q(battle__round__number=number) | Q(battle__status=BattleStatus.CONFIRMED)
    if not user.is_authenticated:
        return shown
    return shown | Q(battle__attacker__player_id=user.pk) | Q(battle__defender__player_id=user.pk)


def can_see_dispute_queue(user: Actor, campaign: Campaign) -> bool:
    """The disputes waiting for a decision: the organisers, who resolve them."""
    return can_manage_campaign(user, campaign)


# --- Added for the report pages --------------------------------------------------------------------------


def can_view_result(user: Actor, battle: Battle) -> bool:
    """A battle's confirmed result, where no report row is at hand (lists of battles): as ``can_view_report``
    for a settled report (the campaign's rule, ``can_see_result``, for whoever sees the campaign)."""
    return can_view_campaign(user, battle.campaign) and can_see_result(user, battle)


def can_enter_result(user: Actor, battle: Battle) -> bool:
    """Enter a battle's result directly, settled at once, with a reason: the organisers."""
    return can_resolve(user, battle)


# --- The matchup sheet (issue 20, "Before the battle") -------------------------------------------------


def can_view_matchup(user: Actor, battle: Battle) -> bool:
    """A battle's matchup sheet (see it, and ask for it to be worked out): whoever may check the battle's
    lists (``campaign.permissions.can_check_battle_list``): any account that sees the campaign.

    The sheet says nothing the battle's page does not already show them: registered lists are open to
    everyone who sees the campaign (opponents plan against them), and the sheet is those lists run through
    the public odds calculator. It wants an account, as the list check does, because a worker computes it.
    Nothing of a report or result is in it, so hidden results change nothing here.
    """
    return can_check_battle_list(user, battle)


# --- Battle sessions (issue 20: a battle at the table) ----------------------------------------------------
# A session of a campaign battle follows the battle's places (``_acts_for``: the player still in the
# campaign, or an organiser for a placeholder); a friendly game has only its two accounts. Spectators
# (any account) watch a public campaign's sessions; everyone else, anonymous callers too, is told nothing.


def can_start_session(user: Actor, battle: Battle) -> bool:
    """Start the table session of a scheduled battle: either side's player, or an organiser."""
    return user.is_authenticated and (
        side_of(user, battle) is not None or can_manage_campaign(user, battle.campaign)
    )


def session_sides(user: Actor, session: Any) -> tuple[str, ...]:
    """The sides of ``session`` the user may send steps for (both, for one phone or an organiser holding
    two placeholders)."""
    if not user.is_authenticated:
        return ()
    battle = session.battle
    if battle is None:
        return tuple(side for side in ("attacker", "defender") if session.player(side) == user.pk)
    return tuple(side for side in ("attacker", "defender") if can_report_as(user, battle, side))


def can_correct_session(user: Actor, session: Any) -> bool:
    """Abandon or take back steps without the players' agreement: a campaign's organisers."""
    return session.battle is not None and can_manage_campaign(user, session.campaign)


def can_view_session(user: Actor, session: Any) -> bool:
    """See a session: its players, the campaign's organisers, and any account where it is public."""
    if not user.is_authenticated:
        return False
    if user.pk in (session.attacker_player_id, session.defender_player_id):
        return True
    if session.public and session_may_be_public(session):  # the campaign may have turned private since
        return True
    return session.battle_id is not None and (
        can_manage_campaign(user, session.campaign) or bool(session_sides(user, session))
    )


def can_set_session_public(user: Actor, session: Any) -> bool:
    """Let club members watch a session, or stop them: its players (a side each, or both on one phone) and,
    for a campaign battle, the campaign's organisers."""
    return bool(session_sides(user, session)) or can_correct_session(user, session)


def session_may_be_public(session: Any) -> bool:
    """Whether any account may be let in to watch: a friendly game always (its players decide); a campaign
    battle only in a public campaign that does not hide its results until the round closes (watching
    would show them)."""
    campaign = session.campaign
    return campaign is None or (campaign.is_public and not campaign.hide_results_until_close)
