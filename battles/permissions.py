"""Who may report, confirm, dispute, resolve and see battle reports: decided here and nowhere else.

A battle's two players report it; the other one confirms or disputes; the
campaign's organisers resolve disputes, change a confirmed report (with a
reason) or enter a result directly, and act for a placeholder side (a club
member without an account). Everyone who sees the campaign sees confirmed
results, unless the campaign hides them until the round closes (then only the
organisers and the two players see them before).
"""

from __future__ import annotations

from battles.models import BattleReport, ReportStatus
from campaign.models import Battle, Enrolment
from campaign.permissions import can_manage_campaign, can_view_campaign
from core.permissions import Actor

_SETTLED = {ReportStatus.CONFIRMED, ReportStatus.RESOLVED}


def _plays(user: Actor, place: Enrolment) -> bool:
    return bool(user.is_authenticated and place.player_id is not None and place.player_id == user.pk)


def _acts_for(user: Actor, place: Enrolment, battle: Battle) -> bool:
    """The place's player, or an organiser where the place is a placeholder."""
    return _plays(user, place) or (place.player_id is None and can_manage_campaign(user, battle.campaign))


def side_of(user: Actor, battle: Battle) -> str | None:
    """Which side of ``battle`` the user plays (or, as an organiser, holds for a placeholder)."""
    for side, place in (("attacker", battle.attacker), ("defender", battle.defender)):
        if _acts_for(user, place, battle):
            return side
    return None


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
    if can_manage_campaign(user, campaign) or side_of(user, battle) is not None:
        return True
    if report.status not in _SETTLED:
        return False
    return not (campaign.hide_results_until_close and battle.round.is_open)


# --- Added for the report pages --------------------------------------------------------------------------


def can_view_result(user: Actor, battle: Battle) -> bool:
    """A battle's confirmed result, where no report row is at hand (lists of battles): as ``can_view_report``
    for a settled report."""
    campaign = battle.campaign
    if not can_view_campaign(user, campaign):
        return False
    if can_manage_campaign(user, campaign) or side_of(user, battle) is not None:
        return True
    return not (campaign.hide_results_until_close and battle.round.is_open)


def can_enter_result(user: Actor, battle: Battle) -> bool:
    """Enter a battle's result directly, settled at once, with a reason: the organisers."""
    return can_resolve(user, battle)
