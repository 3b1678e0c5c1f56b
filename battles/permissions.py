"""Who may report, confirm, dispute, resolve and see battle reports: decided here and nowhere else.

A battle's two players report it; the other one confirms or disputes; the
campaign's organisers resolve disputes, change a confirmed report (with a
reason) or enter a result directly, and act for a placeholder side (a club
member without an account). Everyone who sees the campaign sees confirmed
results, unless the campaign hides them until the round closes (then only the
organisers and the two players see them before).
"""

from __future__ import annotations

from django.db.models import Q

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


# --- For the API (issue 12): acting for a named side, and hidden results ------------------------------
#
# ``campaign.hide_results_until_close`` keeps the open round's results from players until it closes, so
# the front line moves for everyone at once. Two readings of it:
#
# - one battle (a battle, its report, the list of reports): the organisers and the battle's own players
#   see its result; everyone else sees it once the battle's round is closed;
# - the campaign as a whole (the map, a sector's history, the log, balances and the ledger): everyone but
#   the organisers sees it as it stood when the last round closed.
#
# ``hidden_battles`` and ``visible_reports`` say the same as ``can_see_result`` and ``can_view_report``
# as database filters, so that lists filter and count in SQL; tests hold each pair to agree.


def can_report_as(user: Actor, battle: Battle, side: str) -> bool:
    """Report for ``side``: its player, or an organiser where that side is a placeholder."""
    place = {"attacker": battle.attacker, "defender": battle.defender}.get(side)
    return place is not None and _acts_for(user, place, battle)


def _open_round_number(campaign: Campaign) -> int | None:
    """The campaign's open round (its current one) or None; asked once per campaign object."""
    cache = campaign.__dict__
    if "_open_round_number" not in cache:
        is_open = Round.objects.filter(campaign=campaign, status=RoundStatus.OPEN).exists()
        cache["_open_round_number"] = campaign.current_round if is_open else None
    number: int | None = cache["_open_round_number"]
    return number


def results_hidden_round(user: Actor, campaign: Campaign) -> int | None:
    """The round whose results ``user`` may not see yet in the campaign as a whole, or None.

    Everyone but the organisers, while the campaign hides results and a round is open.
    """
    if not campaign.hide_results_until_close or can_manage_campaign(user, campaign):
        return None
    return _open_round_number(campaign)


def can_see_result(user: Actor, battle: Battle) -> bool:
    """See who won ``battle``: always, unless the campaign hides results and its round is still open;
    then only the organisers and the battle's two players."""
    campaign = battle.campaign
    if not campaign.hide_results_until_close or not battle.round.is_open:
        return True
    return can_manage_campaign(user, campaign) or side_of(user, battle) is not None


def _own_battles(user: Actor, prefix: str = "") -> Q:
    if not user.is_authenticated:
        return Q(pk__in=[])
    return Q(**{f"{prefix}attacker__player_id": user.pk}) | Q(**{f"{prefix}defender__player_id": user.pk})


def hidden_battles(user: Actor, campaign: Campaign) -> Q | None:
    """``can_see_result`` as a filter of the campaign's battles: those whose result is kept from
    ``user``, or None when nothing is."""
    number = results_hidden_round(user, campaign)
    if number is None:
        return None
    return Q(round__number=number) & ~_own_battles(user)


def visible_reports(user: Actor, campaign: Campaign) -> Q | None:
    """``can_view_report`` as a filter of the campaign's reports (None: every one, for the organisers)."""
    if can_manage_campaign(user, campaign):
        return None
    shown = Q(status__in=_SETTLED)
    number = results_hidden_round(user, campaign)
    if number is not None:
        shown &= ~Q(battle__round__number=number)
    return shown | _own_battles(user, "battle__")


def can_see_dispute_queue(user: Actor, campaign: Campaign) -> bool:
    """The disputes waiting for a decision: the organisers, who resolve them."""
    return can_manage_campaign(user, campaign)
