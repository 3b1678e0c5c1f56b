"""Who may see and change what in a campaign: decided here and nowhere else.

Views, API views and services ask these predicates. Each takes the acting user
(possibly anonymous) and the campaign; what the user is to the campaign is
worked out once per request (``campaign_access``, one query) and
kept on the campaign object, so a page that asks ten questions costs the same.

The people a campaign knows:

- its **creator** (``Campaign.organiser``) and **co-organisers**: organisers;
- **admitted** players, and players who left (they keep their history);
- **pending** applicants (asked to join, not yet decided);
- everyone else: a **stranger** (logged in) or an **anonymous** visitor.

A private campaign is a 404 to whoever may not see it, so its existence does
not leak; the invitation link is the way in (``can_join``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, FilteredRelation, OuterRef, Q, QuerySet, Subquery

from campaign.models import (
    Battle,
    BattleStatus,
    Campaign,
    Challenge,
    CoOrganiser,
    Enrolment,
    EnrolmentStatus,
    Round,
    RoundStatus,
)
from campaign.options import Status
from core.compiled import CompiledValues
from core.permissions import Actor

# A refused applicant still sees the campaign they were invited to, so they can read why.
_SEEING = {EnrolmentStatus.PENDING, EnrolmentStatus.ADMITTED, EnrolmentStatus.LEFT, EnrolmentStatus.REFUSED}


@dataclass(frozen=True)
class Access:
    """What one user is to one campaign."""

    user_id: int | None
    is_creator: bool
    is_co_organiser: bool
    enrolment: Enrolment | None

    @property
    def is_organiser(self) -> bool:
        return self.is_creator or self.is_co_organiser

    @property
    def status(self) -> str | None:
        return self.enrolment.status if self.enrolment is not None else None

    @property
    def is_admitted(self) -> bool:
        return self.status == EnrolmentStatus.ADMITTED

    @property
    def is_pending(self) -> bool:
        return self.status == EnrolmentStatus.PENDING


def campaign_access(user: Actor, campaign: Campaign) -> Access:
    """What ``user`` is to ``campaign``, computed once and remembered on the campaign object."""
    if not user.is_authenticated:
        return Access(None, False, False, None)
    cache: dict[int, Access] = campaign.__dict__.setdefault("_access_cache", {})
    user_id = int(user.pk)
    if user_id not in cache:
        row = _ACCESS.first(campaign=campaign.pk, user=user_id) or {}
        is_creator = campaign.organiser_id == user_id
        enrolment = None
        if row.get(_MINE_PK) is not None:
            values = [row[f"{_MINE}__{name}"] for name in _ENROLMENT_FIELDS]
            enrolment = Enrolment.from_db(campaign._state.db, _ENROLMENT_FIELDS, values)
        cache[user_id] = Access(user_id, is_creator, not is_creator and bool(row.get(_IS_CO)), enrolment)
    return cache[user_id]


_MINE, _IS_CO = "viewer_enrolment", "viewer_is_co"
_ENROLMENT_FIELDS = [field.attname for field in Enrolment._meta.concrete_fields]
_MINE_PK = f"{_MINE}__{Enrolment._meta.pk.attname}"


def _access_query(campaign: int, user: int) -> QuerySet[Campaign, dict[str, Any]]:
    # The user's enrolment (one at most: one-enrolment-per-player) joined to the campaign, and whether they
    # co-organise it: one row.
    query: QuerySet[Campaign, dict[str, Any]] = (
        Campaign.objects.filter(pk=campaign)
        .order_by()
        .annotate(
            **{
                _MINE: FilteredRelation("enrolments", condition=Q(enrolments__player_id=user)),
                _IS_CO: Exists(CoOrganiser.objects.filter(campaign=OuterRef("pk"), user_id=user)),
            }
        )
        .values(_IS_CO, *(f"{_MINE}__{name}" for name in _ENROLMENT_FIELDS))
    )
    return query


# Built and compiled once per thread (core/compiled.py): nearly every page and API call asks it.
_ACCESS = CompiledValues(_access_query, "campaign", "user")


def forget_access(campaign: Campaign) -> None:
    """Drop what was worked out, after a change of organisers or enrolments."""
    campaign.__dict__.pop("_access_cache", None)


def is_organiser(user: Actor, campaign: Campaign) -> bool:
    return campaign_access(user, campaign).is_organiser


def is_creator(user: Actor, campaign: Campaign) -> bool:
    return campaign_access(user, campaign).is_creator


def is_enrolled(user: Actor, campaign: Campaign) -> bool:
    """An admitted player (who has not left)."""
    return campaign_access(user, campaign).is_admitted


def can_view_campaign(user: Actor, campaign: Campaign) -> bool:
    """Public campaigns are seen by all; a private one by its organisers, players and applicants."""
    if campaign.is_public:
        return True
    access = campaign_access(user, campaign)
    return access.is_organiser or access.status in _SEEING


# What ``can_view_campaign`` reads of the viewer, as annotations of a campaign query (``viewer_annotations``).
VIEWER_IS_CO = "viewer_is_co_organiser"
VIEWER_STATUS = "viewer_status"


def viewer_annotations(user: Actor) -> dict[str, Any]:
    """Annotations that read what ``user`` is to a campaign within the campaign's own query.

    A poll asks who may see the campaign in the one query that reads its version
    (``can_view_campaign_row``): the same rule, without ``campaign_access``'s query.
    """
    if not user.is_authenticated:
        return {}
    return {
        VIEWER_IS_CO: Exists(CoOrganiser.objects.filter(campaign=OuterRef("pk"), user_id=user.pk)),
        VIEWER_STATUS: Subquery(
            Enrolment.objects.filter(campaign=OuterRef("pk"), player_id=user.pk).values("status")[:1]
        ),
    }


def can_view_campaign_row(user: Actor, row: dict[str, Any]) -> bool:
    """``can_view_campaign`` over a row of ``is_public``, ``organiser_id`` and ``viewer_annotations``."""
    if row["is_public"]:
        return True
    if not user.is_authenticated:
        return False
    is_organiser = row["organiser_id"] == user.pk or bool(row[VIEWER_IS_CO])
    return is_organiser or row[VIEWER_STATUS] in _SEEING


def can_view_with_invite(user: Actor, campaign: Campaign, token: str) -> bool:
    """The invitation link shows a private campaign's join page to anyone who has it."""
    return can_view_campaign(user, campaign) or (bool(token) and token == campaign.invite_token)


def campaigns_organised_on(user: Actor, catalogue_id: int) -> dict[int, str]:
    """The campaigns on this catalogue ``user`` organises (creator or co-organiser), {id: name}: they enter
    platoon charts for those campaigns alone (``armies.permissions.can_enter_chart_into``)."""
    if not user.is_authenticated:
        return {}
    mine = Q(organiser_id=user.pk) | Q(co_organisers__user_id=user.pk)
    rows = Campaign.objects.filter(mine, catalogue_id=catalogue_id).order_by("name", "pk")
    return dict(rows.values_list("pk", "name").distinct())


def campaigns_joined_on(user_id: int, catalogue_id: int) -> list[int]:
    """The campaigns on this catalogue an account organises or is admitted to: its lists may claim the
    platoon charts entered for them."""
    member = Q(organiser_id=user_id) | Q(co_organisers__user_id=user_id)
    member |= Q(enrolments__player_id=user_id, enrolments__status=EnrolmentStatus.ADMITTED)
    rows = Campaign.objects.filter(member, catalogue_id=catalogue_id)
    return list(rows.values_list("pk", flat=True).distinct())


def campaigns_joined_anywhere(user_id: int) -> dict[int, tuple[str, int]]:
    """Every campaign an account organises or is admitted to, {id: (name, catalogue id)}: a list it imports
    may be read for one of them (``armies.permissions.campaigns_for_lists``)."""
    member = Q(organiser_id=user_id) | Q(co_organisers__user_id=user_id)
    member |= Q(enrolments__player_id=user_id, enrolments__status=EnrolmentStatus.ADMITTED)
    rows = Campaign.objects.filter(member, catalogue__isnull=False).order_by("name", "pk")
    return {
        pk: (name, catalogue_id) for pk, name, catalogue_id in rows.values_list("pk", "name", "catalogue_id")
    }


def can_manage_campaign(user: Actor, campaign: Campaign) -> bool:
    """Change settings, the map and the status; decide join requests; manage placeholders."""
    return campaign_access(user, campaign).is_organiser


def can_see_round_waits(user: Actor, campaign: Campaign) -> bool:
    """What the round waits on (the dashboard's panel, its poll and ``GET .../dashboard/``): who has not
    acted yet is the organisers' business, not the other players'."""
    return campaign_access(user, campaign).is_organiser


def can_add_co_organisers(user: Actor, campaign: Campaign) -> bool:
    return campaign_access(user, campaign).is_creator


def can_see_invite(user: Actor, campaign: Campaign) -> bool:
    return can_manage_campaign(user, campaign)


def can_join(user: Actor, campaign: Campaign, *, token: str = "") -> bool:
    """Ask to join: logged in, not already in, and the campaign takes players.

    A campaign takes join requests while open for registration and while it
    runs (latecomers are common in clubs); never as a draft or once finished.
    Organisers may play in their own campaign, as club organisers often do.
    """
    if not user.is_authenticated or campaign.status not in {Status.REGISTRATION, Status.RUNNING}:
        return False
    access = campaign_access(user, campaign)
    if access.status in {EnrolmentStatus.PENDING, EnrolmentStatus.ADMITTED}:
        return False
    return can_view_with_invite(user, campaign, token)


def can_withdraw(user: Actor, campaign: Campaign) -> bool:
    """Withdraw a request or a place before the campaign runs."""
    access = campaign_access(user, campaign)
    return campaign.status in {Status.DRAFT, Status.REGISTRATION} and (
        access.is_pending or access.is_admitted
    )


def can_leave(user: Actor, campaign: Campaign) -> bool:
    """Leave a running campaign: results stay, no more pairings."""
    return campaign.status == Status.RUNNING and campaign_access(user, campaign).is_admitted


def can_act_for(user: Actor, enrolment: Enrolment) -> bool:
    """Register lists (and later report results) for a place: its player, or an organiser.

    Organisers act for every place, placeholders included.
    """
    if not user.is_authenticated:
        return False
    if enrolment.player_id is not None and enrolment.player_id == user.pk:
        return True
    return can_manage_campaign(user, enrolment.campaign)


def can_see_registration_details(user: Actor, campaign: Campaign) -> bool:
    """Registered lists are open to everyone who sees the campaign: opponents plan against them."""
    return can_view_campaign(user, campaign)


def can_remove_co_organiser(user: Actor, campaign: Campaign, co_organiser_id: int) -> bool:
    """The creator removes any co-organiser; a co-organiser may step down themself."""
    access = campaign_access(user, campaign)
    return access.is_creator or (access.is_co_organiser and access.user_id == co_organiser_id)


def has_place(user: Actor, campaign: Campaign) -> bool:
    """The user has a place (in any status) to withdraw or leave; whether the status allows it is the
    service's to say, with a conflict that tells why."""
    return campaign_access(user, campaign).enrolment is not None


def can_see_every_enrolment(user: Actor, campaign: Campaign) -> bool:
    """Organisers see every place, pending, refused and withdrawn ones too; others see the players
    (admitted, or who left) and their own place."""
    return campaign_access(user, campaign).is_organiser


def can_see_enrolment_notes(user: Actor, enrolment: Enrolment) -> bool:
    """An applicant's message and the reason of a decision: between the organisers and that player."""
    if not user.is_authenticated:
        return False
    if enrolment.player_id is not None and enrolment.player_id == user.pk:
        return True
    return can_manage_campaign(user, enrolment.campaign)


# --- Rounds, challenges and the economy (the pages of issue 11) ---------------------------------------
#
# Each predicate says who may ask for a change; whether the campaign's state allows it right now (a
# round open, the campaign running, a challenge still waiting) is the service's to say, with a code.


def can_run_rounds(user: Actor, campaign: Campaign) -> bool:
    """Open, close and reopen rounds; generate, edit and publish pairings; change a battle's terms."""
    return campaign_access(user, campaign).is_organiser


def can_schedule_battle(user: Actor, campaign: Campaign) -> bool:
    """Schedule a battle directly (the club's paper slip: "Ada attacks Ivan over North Station")."""
    return campaign_access(user, campaign).is_organiser


def can_see_draft_pairings(user: Actor, campaign: Campaign) -> bool:
    """An unpublished pairing is the organisers' working copy: players see it once it is published."""
    return can_run_rounds(user, campaign)


def can_challenge(user: Actor, campaign: Campaign) -> bool:
    """Challenge a player of another bloc: an admitted player, for their own place.

    Whether a challenge can be made now (the campaign running, a round open) is
    the service's to say, with a code that tells why; pages also ask it before
    offering the form (``challenges_open``).
    """
    return campaign_access(user, campaign).is_admitted


def challenges_open(campaign: Campaign) -> bool:
    """Whether the campaign takes challenges now: running, with a round open (one query, remembered)."""
    return campaign.status == Status.RUNNING and _open_round_number(campaign) is not None


def _acts_for_place(user: Actor, enrolment: Enrolment) -> bool:
    """The place's own player; for a placeholder (no account), the campaign's organisers."""
    if not user.is_authenticated:
        return False
    if enrolment.player_id is not None:
        return bool(enrolment.player_id == user.pk)
    return can_manage_campaign(user, enrolment.campaign)


def can_answer_challenge(user: Actor, challenge: Challenge) -> bool:
    """Accept or decline: only the challenged player (an organiser answers for a placeholder)."""
    return _acts_for_place(user, challenge.challenged)


def can_withdraw_challenge(user: Actor, challenge: Challenge) -> bool:
    """Take a challenge back: only the challenger (an organiser, for a placeholder's)."""
    return _acts_for_place(user, challenge.challenger)


def can_buy_fortification(user: Actor, campaign: Campaign) -> bool:
    """Buy a strongpoint or a bunker: an admitted player (the service checks that the campaign runs and
    that their side holds the sector)."""
    return campaign_access(user, campaign).is_admitted


def can_adjust_ledger(user: Actor, campaign: Campaign) -> bool:
    """Give or take resource points with a reason: the organisers."""
    return campaign_access(user, campaign).is_organiser


def can_check_battle_list(user: Actor, battle: Battle) -> bool:
    """Check a registered list under a battle's terms: any account that sees the campaign.

    Registered lists are open to everyone who sees the campaign (opponents plan
    against them); the check runs the validator, so it wants an account.
    """
    return bool(user.is_authenticated) and can_view_campaign(user, battle.campaign)


# --- Hidden results ----------------------------------------------------------------------------------
#
# ``hide_results_until_close``: a result agreed while its round is open waits on the battle and takes
# effect (sectors, awards, standings, the log's result entries, webhooks) when the round closes, for
# everyone at once (campaign.services.results). Until then the campaign's state simply does not contain
# it, so no map, balance, standing or refusal can give it away. What remains to keep from view is the
# report itself: while the round is open, only the organisers and the battle's two players see a report
# and its steps in the log; everyone else sees the battle as reported, whether agreed yet or not.


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


def sealed_round(user: Actor, campaign: Campaign) -> int | None:
    """The round whose battle reports (and their steps in the log) ``user`` may not see, or None: the open
    round of a campaign that hides results, for everyone but its organisers."""
    if not campaign.hide_results_until_close or campaign_access(user, campaign).is_organiser:
        return None
    return _open_round_number(campaign)


def _plays_in(user: Actor, battle: Battle) -> bool:
    players = (battle.attacker.player_id, battle.defender.player_id)
    return bool(user.is_authenticated and user.pk in players)


def can_see_result(user: Actor, battle: Battle) -> bool:
    """See ``battle``'s report and what it claims: always, unless the campaign hides results, the round is
    open and no result of the battle has taken effect; then only the organisers and the battle's two
    players (a result agreed meanwhile waits for the close: ``campaign.services.results``)."""
    campaign = battle.campaign
    if not campaign.hide_results_until_close or not battle.round.is_open:
        return True
    if battle.status == BattleStatus.CONFIRMED:
        return True  # took effect when an earlier close of this (reopened) round made it public
    return campaign_access(user, campaign).is_organiser or _plays_in(user, battle)


def can_see_report_claims(user: Actor, battle: Battle) -> bool:
    """See what a battle's report claims (its result, a dispute's reason) in the campaign's log: the
    organisers and the battle's two players always; everyone else once the result stands (the battle
    confirmed) and may be seen (``can_see_result``), as the report itself."""
    if campaign_access(user, battle.campaign).is_organiser or _plays_in(user, battle):
        return True
    return battle.status == BattleStatus.CONFIRMED and can_see_result(user, battle)
