"""Who may run rounds, answer challenges and spend resources: the predicates of rounds and the economy.

Kept beside ``campaign.permissions`` (which they build on) so the pages and the
API ask the same questions. Each takes the acting user (possibly anonymous);
what the user is to the campaign comes from ``campaign_access``, worked out once
per request, so these cost no query once it is known.
"""

from __future__ import annotations

from campaign.models import Battle, Campaign, Challenge, Enrolment
from campaign.permissions import campaign_access, can_view_campaign
from core.permissions import Actor


def can_run_rounds(user: Actor, campaign: Campaign) -> bool:
    """Open, close and reopen rounds; generate, edit and publish pairings; change a battle's terms."""
    return campaign_access(user, campaign).is_organiser


def can_see_draft_pairings(user: Actor, campaign: Campaign) -> bool:
    """A drafted pairing is the organisers' until it is published: nobody else is told before then."""
    return can_run_rounds(user, campaign)


def can_challenge(user: Actor, campaign: Campaign) -> bool:
    """Challenge a player of another bloc: an admitted player, for their own place."""
    return campaign_access(user, campaign).is_admitted


def _speaks_for(user: Actor, place: Enrolment, campaign: Campaign) -> bool:
    """The place's own player; for a placeholder (no account to answer with), the organisers."""
    if not user.is_authenticated:
        return False
    if place.player_id is not None:
        return bool(place.player_id == user.pk)
    return campaign_access(user, campaign).is_organiser


def can_answer_challenge(user: Actor, challenge: Challenge) -> bool:
    """Accept or decline: the challenged player only (an organiser answers for a placeholder)."""
    return _speaks_for(user, challenge.challenged, challenge.campaign)


def can_withdraw_challenge(user: Actor, challenge: Challenge) -> bool:
    """Take a challenge back: the challenger only (an organiser for a placeholder)."""
    return _speaks_for(user, challenge.challenger, challenge.campaign)


def can_buy_fortification(user: Actor, campaign: Campaign) -> bool:
    """Spend resources on a fortification: an admitted player, from their bloc's (or their own) balance."""
    return campaign_access(user, campaign).is_admitted


def can_adjust_ledger(user: Actor, campaign: Campaign) -> bool:
    """Give or take back resource points with a reason: the organisers."""
    return campaign_access(user, campaign).is_organiser


def can_check_battle_list(user: Actor, battle: Battle) -> bool:
    """Check a registered list under a battle's terms: any account that sees the campaign.

    Registered lists are open to everyone who sees the campaign (opponents plan
    against them); the check runs the validator, so it wants an account.
    """
    return bool(user.is_authenticated) and can_view_campaign(user, battle.campaign)
