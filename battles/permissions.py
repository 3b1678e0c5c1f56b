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
from campaign.models import Battle, Campaign, Enrolment, Round, RoundStatus
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


def _open_round_number(campaign: Campaign) -> int | None:
    """The number of the campaign's open round, asked once per request and kept on the campaign object."""
    cache = campaign.__dict__
    if "_open_round_number" not in cache:
        cache["_open_round_number"] = (
            Round.objects.filter(campaign=campaign, status=RoundStatus.OPEN)
            .values_list("number", flat=True)
            .first()
        )
    number: int | None = cache["_open_round_number"]
    return number


def results_frozen_at(user: Actor, campaign: Campaign) -> int | None:
    """The round whose end ``user`` sees the campaign's results as of; None: as they are now.

    While a campaign that hides results has a round open, everyone but its
    organisers sees the map (and the changes results made to it) as they were
    when the last round closed, so that the front line moves for everyone at
    once. The two players of a battle see their own report on its page.
    """
    if not campaign.hide_results_until_close or can_manage_campaign(user, campaign):
        return None
    number = _open_round_number(campaign)
    return None if number is None else number - 1


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
