"""Who plays: join requests and the organisers' decisions, withdrawing and leaving, placeholders.

Every change of an enrolment's status is one conditional update from the
status it must have, so of two organisers deciding at once one wins and the
other gets a conflict; admission also locks the campaign row, so a bloc's cap
holds under concurrent admissions.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from armies.blocs import Bloc
from armies.validation import limits as list_limits
from campaign import limits
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import Campaign, Enrolment, EnrolmentStatus, LogKind
from campaign.models.players import new_claim_token
from campaign.options import Status
from campaign.permissions import forget_access
from campaign.selectors import place_has_history
from campaign.services import notices
from campaign.services.log import log_write
from campaign.services.versions import results_changed
from core.names import NAME_CONTROL_CODE, name_problem

_TAKES_PLAYERS = {Status.REGISTRATION, Status.RUNNING}


def _bloc(bloc: Any) -> str:
    if bloc not in {b.value for b in Bloc}:
        raise CampaignError("unknown-bloc", f"must be one of {', '.join(b.value for b in Bloc)}", "bloc")
    return str(bloc)


def _faction(campaign: Campaign, bloc: str, faction: str, mercenary: bool) -> str:
    """A faction of the campaign's catalogue, of the bloc chosen (a mercenary player names none)."""
    faction = (faction or "").strip()
    if not faction:
        return ""
    if len(faction) > list_limits.KEY_MAX_LENGTH:
        raise CampaignError("too-long", f"at most {list_limits.KEY_MAX_LENGTH} characters", "faction")
    if mercenary:
        raise CampaignError("mercenary-faction", "a mercenary force claims no faction of a bloc", "faction")
    if campaign.catalogue_id is None:
        raise CampaignError(
            "catalogue-missing", "the campaign has no catalogue to choose a faction from", "faction"
        )
    row = campaign.catalogue.factions.filter(key=faction).first() if campaign.catalogue else None
    if row is None:
        raise CampaignError(
            "unknown-faction", f"the campaign's catalogue has no faction {faction[:40]!r}", "faction"
        )
    if row.bloc != bloc:
        raise CampaignError(
            "faction-of-another-bloc", f"{row.name} fights for {row.bloc}, not {bloc}", "faction"
        )
    return faction


def _text(value: str, field: str, max_length: int) -> str:
    value = (value or "").strip()
    if len(value) > max_length:
        raise CampaignError("too-long", f"at most {max_length:,} characters (got {len(value):,})", field)
    return value


def _log(enrolment: Enrolment, actor: Any, before: str | None, reason: str = "") -> None:
    log_write(
        campaign=enrolment.campaign, kind=LogKind.ENROLMENT_CHANGED, subject=f"enrolment:{enrolment.pk}",
        actor=actor, field="status", before=before,
        after={"status": enrolment.status, "player": enrolment.display_name, "bloc": enrolment.bloc},
        reason=reason,
    )  # fmt: skip


@transaction.atomic
def enrolment_request(
    *, campaign: Campaign, user: Any, bloc: str, faction: str = "", mercenary: bool = False, message: str = ""
) -> Enrolment:
    """Ask to join for a bloc (and a faction); the organisers admit or refuse.

    Someone who withdrew, left or was refused may ask again: the same place is
    reused, so what it recorded stays with it. A place that has fought (a battle
    beyond a draft), has a ledger entry or a purchase, or holds a sector may ask
    again only for the same bloc (its faction may change within it); one with
    no such history may choose another bloc.
    """
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.status not in _TAKES_PLAYERS:
        words = "has finished" if campaign.status == Status.FINISHED else "is not open for registration yet"
        raise CampaignConflictError("not-taking-players", f"the campaign {words}", "campaign")
    bloc = _bloc(bloc)
    fields = {
        "bloc": bloc,
        "faction": _faction(campaign, bloc, faction, mercenary),
        "mercenary": bool(mercenary),
        "message": _text(message, "message", limits.MESSAGE_MAX_LENGTH),
        "status": EnrolmentStatus.PENDING,
        "decision_reason": "",
        "decided_by": None,
        "decided_at": None,
        "left_at": None,
    }
    enrolment = Enrolment.objects.filter(campaign=campaign, player=user).first()
    before = None
    if enrolment is not None:
        if enrolment.status in {EnrolmentStatus.PENDING, EnrolmentStatus.ADMITTED}:
            raise CampaignConflictError(
                "already-joined", "you have already asked to join this campaign", "campaign"
            )
        if bloc != enrolment.bloc and place_has_history(enrolment=enrolment):
            # A result keeps the bloc it was fought for: a place that fought for one bloc stays with it.
            raise CampaignError(
                "rejoin-other-bloc",
                f"You fought for the {enrolment.bloc} in this campaign: you can rejoin only for the {enrolment.bloc}",
                "bloc",
            )
        before = enrolment.status
        for name, value in fields.items():
            setattr(enrolment, name, value)
        enrolment.save()
    else:
        enrolment = Enrolment.objects.create(campaign=campaign, player=user, **fields)
    _log(enrolment, user, before)
    forget_access(campaign)
    how = f"{enrolment.bloc}, as a mercenary" if enrolment.mercenary else enrolment.bloc
    notices.tell_organisers(campaign=campaign, kind=notices.JOIN_REQUESTED, actor=user,
                            message=f"{enrolment.display_name} asks to join {campaign.name} for {how}.",
                            link=notices.request_link(enrolment))  # fmt: skip
    return enrolment


def _bloc_is_full(campaign: Campaign, bloc: str, *, excluding: int | None = None) -> bool:
    if campaign.max_players_per_bloc is None:
        return False
    admitted = Enrolment.objects.filter(campaign=campaign, bloc=bloc, status=EnrolmentStatus.ADMITTED)
    if excluding is not None:
        admitted = admitted.exclude(pk=excluding)
    return admitted.count() >= campaign.max_players_per_bloc


def _move(
    enrolment: Enrolment, *, frm: set[str], to: str, actor: Any, reason: str = "", **extra: Any
) -> Enrolment:
    """One conditional update from the statuses allowed; a lost race is a conflict, nothing half-done."""
    changed = Enrolment.objects.filter(pk=enrolment.pk, status__in=frm).update(status=to, **extra)
    if not changed:
        enrolment.refresh_from_db()
        raise CampaignConflictError(
            "enrolment-changed", f"this place is now {enrolment.get_status_display().lower()}: nothing was changed",
            "status",
        )  # fmt: skip
    before = enrolment.status
    enrolment.refresh_from_db()
    _log(enrolment, actor, before, reason)
    forget_access(enrolment.campaign)
    return enrolment


@transaction.atomic
def enrolment_admit(*, enrolment: Enrolment, actor: Any) -> Enrolment:
    campaign = Campaign.objects.select_for_update().get(pk=enrolment.campaign_id)
    if campaign.status == Status.FINISHED:
        raise CampaignConflictError(
            "campaign-finished", "a finished campaign takes no more players", "status"
        )
    if _bloc_is_full(campaign, enrolment.bloc, excluding=enrolment.pk):
        raise CampaignConflictError(
            "bloc-full", f"{enrolment.bloc} already has {campaign.max_players_per_bloc} "
            f"player{'' if campaign.max_players_per_bloc == 1 else 's'}, the campaign's cap",
            "bloc",
        )  # fmt: skip
    admitted = _move(enrolment, frm={EnrolmentStatus.PENDING}, to=EnrolmentStatus.ADMITTED, actor=actor,
                     decided_by=actor, decided_at=timezone.now(), decision_reason="")  # fmt: skip
    results_changed(campaign=campaign)  # a new row in the standings
    _request_decided(admitted)
    notices.tell(enrolments=[admitted], kind=notices.JOIN_DECIDED, actor=actor,
                 message=f"You are admitted to {campaign.name} for {admitted.bloc}.",
                 link=notices.campaign_link(campaign))  # fmt: skip
    return admitted


def _request_decided(enrolment: Enrolment) -> None:
    """Every organiser's notice of this request is read: it was answered, by whichever of them."""
    notices.done(users=notices.organisers(enrolment.campaign), kinds=[notices.JOIN_REQUESTED],
                 links=[notices.request_link(enrolment)])  # fmt: skip


def _not_finished(campaign_id: int) -> None:
    campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
    if campaign.status == Status.FINISHED:
        raise CampaignConflictError("campaign-finished", "a finished campaign can no longer change", "status")


@transaction.atomic
def enrolment_refuse(*, enrolment: Enrolment, actor: Any, reason: str) -> Enrolment:
    _not_finished(enrolment.campaign_id)
    reason = _text(reason, "reason", limits.REASON_MAX_LENGTH)
    if not reason:
        raise CampaignError("reason-required", "say why, so the player knows", "reason")
    refused = _move(enrolment, frm={EnrolmentStatus.PENDING}, to=EnrolmentStatus.REFUSED, actor=actor,
                    reason=reason, decided_by=actor, decided_at=timezone.now(), decision_reason=reason)  # fmt: skip
    _request_decided(refused)
    notices.tell(enrolments=[refused], kind=notices.JOIN_DECIDED, actor=actor,
                 message=f"Your request to join {refused.campaign.name} was refused: {reason}",
                 link=notices.campaign_link(refused.campaign))  # fmt: skip
    return refused


@transaction.atomic
def enrolment_withdraw(*, enrolment: Enrolment, actor: Any) -> Enrolment:
    """A player takes back a request not yet decided, or a place before the campaign runs."""
    campaign = Campaign.objects.select_for_update().get(pk=enrolment.campaign_id)
    if campaign.status == Status.FINISHED:
        raise CampaignConflictError("campaign-finished", "a finished campaign can no longer change", "status")
    allowed: set[str] = {EnrolmentStatus.PENDING}
    if campaign.status in {Status.DRAFT, Status.REGISTRATION}:
        allowed.add(EnrolmentStatus.ADMITTED)
    elif enrolment.status == EnrolmentStatus.ADMITTED:
        raise CampaignConflictError(
            "campaign-running", "the campaign has started: leave it instead (your results stay)", "status"
        )
    withdrawn = _move(enrolment, frm=allowed, to=EnrolmentStatus.WITHDRAWN, actor=actor)
    _request_decided(withdrawn)  # nothing is left to answer
    return withdrawn


@transaction.atomic
def enrolment_leave(*, enrolment: Enrolment, actor: Any, reason: str = "") -> Enrolment:
    """Leave a running campaign: past battles and results stay, no more pairings, the bloc keeps its sectors."""
    campaign = Campaign.objects.select_for_update().get(pk=enrolment.campaign_id)
    if campaign.status != Status.RUNNING:
        raise CampaignConflictError(
            "campaign-not-running", "only a running campaign can be left; withdraw instead"
        )
    return _move(enrolment, frm={EnrolmentStatus.ADMITTED}, to=EnrolmentStatus.LEFT, actor=actor,
                 reason=_text(reason, "reason", limits.REASON_MAX_LENGTH), left_at=timezone.now())  # fmt: skip


@transaction.atomic
def placeholder_add(
    *, campaign: Campaign, actor: Any, name: str, bloc: str, faction: str = "", mercenary: bool = False
) -> Enrolment:
    """A club member without an account: admitted at once, played for by the organisers."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.status == Status.FINISHED:
        raise CampaignConflictError(
            "campaign-finished", "a finished campaign takes no more players", "status"
        )
    name = _text(name, "name", limits.PLACEHOLDER_NAME_MAX_LENGTH)
    if not name:
        raise CampaignError("required", "give the player's name", "name")
    if (problem := name_problem(name)) is not None:
        raise CampaignError(NAME_CONTROL_CODE, problem, "name")
    bloc = _bloc(bloc)
    if _bloc_is_full(campaign, bloc):
        raise CampaignConflictError(
            "bloc-full", f"{bloc} already has {campaign.max_players_per_bloc} players", "bloc"
        )
    enrolment = Enrolment.objects.create(
        campaign=campaign, player=None, placeholder_name=name, bloc=bloc,
        faction=_faction(campaign, bloc, faction, mercenary), mercenary=bool(mercenary),
        status=EnrolmentStatus.ADMITTED, decided_by=actor, decided_at=timezone.now(),
    )  # fmt: skip
    _log(enrolment, actor, None)
    results_changed(campaign=campaign)  # a new row in the standings
    return enrolment


@transaction.atomic
def placeholder_claim_link(*, enrolment: Enrolment, actor: Any) -> Enrolment:
    """A new link the member opens to claim the place with their account; an older link stops working."""
    _not_finished(enrolment.campaign_id)
    if not enrolment.is_placeholder:
        raise CampaignConflictError("not-a-placeholder", "this place already belongs to an account")
    enrolment.claim_token = new_claim_token()
    enrolment.save(update_fields=["claim_token"])
    # The link itself stays out of the log: the log is shown to players.
    log_write(campaign=enrolment.campaign, kind=LogKind.ENROLMENT_CHANGED, subject=f"enrolment:{enrolment.pk}",
              actor=actor, field="claim_link", after="a new claim link")  # fmt: skip
    return enrolment


@transaction.atomic
def placeholder_claim(*, token: str, user: Any) -> Enrolment:
    """The account takes the place: the same enrolment, so its lists and results stay."""
    enrolment = Enrolment.objects.select_for_update().filter(claim_token=token, player__isnull=True).first()
    if not token or enrolment is None:
        raise CampaignError(
            "claim-invalid", "this link is not valid any more: ask an organiser for a new one"
        )
    if Enrolment.objects.filter(campaign_id=enrolment.campaign_id, player=user).exists():
        raise CampaignConflictError("already-joined", "you already have a place in this campaign")
    name = enrolment.placeholder_name
    enrolment.player = user
    enrolment.claim_token = None
    enrolment.save(update_fields=["player", "claim_token"])
    log_write(campaign=enrolment.campaign, kind=LogKind.ENROLMENT_CHANGED, subject=f"enrolment:{enrolment.pk}",
              actor=user, field="player", before=name, after=enrolment.display_name)  # fmt: skip
    forget_access(enrolment.campaign)
    return enrolment
