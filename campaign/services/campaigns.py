"""A campaign's life: create it, change its settings, move it through its states, its organisers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from armies.models import Catalogue
from armies.validation import limits as list_limits
from campaign import limits
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import Campaign, CoOrganiser, Enrolment, EnrolmentStatus, LogKind
from campaign.models.campaign import new_invite_token
from campaign.options import LOCKED_WHEN_RUNNING, ResourceHolder, Status, Tiebreaker, UnplayedPolicy
from campaign.permissions import forget_access
from campaign.services.log import log_write
from campaign.services.webhooks import webhook_url_check
from core.errors import DomainError
from core.names import NAME_CONTROL_CODE, name_problem
from rules.engine.ruleset import RuleSet

Checker = Callable[[Any, Mapping[str, Any]], Any]


def _text(name: str, *, required: bool, max_length: int) -> Checker:
    def check(value: Any, _all: Mapping[str, Any]) -> str:
        if not isinstance(value, str):
            raise CampaignError("invalid", "must be text", name)
        text = value.strip()
        if required and not text:
            raise CampaignError("required", "may not be empty", name)
        if len(text) > max_length:
            raise CampaignError("too-long", f"at most {max_length:,} characters (got {len(text):,})", name)
        return text

    return check


def _name(name: str, *, max_length: int) -> Checker:
    """A name people read: text, and no control or invisible character in it (``core.names``)."""
    text = _text(name, required=True, max_length=max_length)

    def check(value: Any, _all: Mapping[str, Any]) -> str:
        checked = str(text(value, _all))
        if (problem := name_problem(checked)) is not None:
            raise CampaignError(NAME_CONTROL_CODE, problem, name)
        return checked

    return check


def _whole(name: str, low: int, high: int, *, optional: bool = False) -> Checker:
    def check(value: Any, _all: Mapping[str, Any]) -> int | None:
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise CampaignError("invalid", "must be a whole number", name)
        if not low <= value <= high:
            raise CampaignError("out-of-range", f"must be from {low:,} to {high:,} (got {value:,})", name)
        return value

    return check


def _choice(name: str, choices: Any) -> Checker:
    def check(value: Any, _all: Mapping[str, Any]) -> str:
        allowed = [str(choice) for choice in choices.values]
        if value not in allowed:
            raise CampaignError("invalid-choice", f"must be one of {', '.join(allowed)}", name)
        return str(value)

    return check


def _flag(name: str) -> Checker:
    def check(value: Any, _all: Mapping[str, Any]) -> bool:
        if not isinstance(value, bool):
            raise CampaignError("invalid", "must be true or false", name)
        return value

    return check


def _catalogue(value: Any, _all: Mapping[str, Any]) -> Catalogue | None:
    if value is None or isinstance(value, Catalogue):
        return value
    raise CampaignError("invalid", "must be a catalogue", "catalogue")


def _tiebreakers(value: Any, _all: Mapping[str, Any]) -> list[str]:
    if not isinstance(value, list | tuple) or len(value) > limits.MAX_TIEBREAKERS:
        raise CampaignError(
            "invalid", f"must be a list of at most {limits.MAX_TIEBREAKERS} tiebreakers", "tiebreakers"
        )
    known = set(Tiebreaker.values)
    for index, item in enumerate(value):
        if item not in known:
            raise CampaignError(
                "invalid-choice", f"must be one of {', '.join(Tiebreaker.values)}", f"tiebreakers[{index}]"
            )
    if len(set(value)) != len(value):
        raise CampaignError("duplicate", "a tiebreaker may appear once", "tiebreakers")
    return [str(item) for item in value]


def _ruleset(value: Any, _all: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return RuleSet.from_dict(value).to_dict()
    except DomainError as exc:
        raise CampaignError(
            "invalid-ruleset", exc.message, f"ruleset.{exc.field}" if exc.field else "ruleset"
        ) from exc


SETTINGS: dict[str, Checker] = {
    "name": _name("name", max_length=limits.NAME_MAX_LENGTH),
    "description": _text("description", required=False, max_length=limits.DESCRIPTION_MAX_LENGTH),
    "is_public": _flag("is_public"),
    "catalogue": _catalogue,
    "points_limit": _whole("points_limit", list_limits.POINTS_LIMIT_MIN, list_limits.POINTS_LIMIT_MAX),
    "points_win": _whole("points_win", limits.SCORE_MIN, limits.SCORE_MAX),
    "points_draw": _whole("points_draw", limits.SCORE_MIN, limits.SCORE_MAX),
    "points_loss": _whole("points_loss", limits.SCORE_MIN, limits.SCORE_MAX),
    "tiebreakers": _tiebreakers,
    "ruleset": _ruleset,
    "resources_held_by": _choice("resources_held_by", ResourceHolder),
    "strongpoint_cost": _whole("strongpoint_cost", 0, limits.RESOURCE_COST_MAX),
    "bunker_cost": _whole("bunker_cost", 0, limits.RESOURCE_COST_MAX),
    "income_base": _whole("income_base", 0, limits.INCOME_MAX),
    "max_players_per_bloc": _whole("max_players_per_bloc", 1, limits.MAX_PLAYERS_PER_BLOC, optional=True),
    "unplayed_battles": _choice("unplayed_battles", UnplayedPolicy),
    "max_open_challenges": _whole("max_open_challenges", 0, limits.MAX_OPEN_CHALLENGES),
    "challenge_days": _whole("challenge_days", 1, limits.CHALLENGE_DAYS_MAX),
    "report_confirm_hours": _whole("report_confirm_hours", 1, limits.REPORT_CONFIRM_HOURS_MAX),
    "award_win": _whole("award_win", 0, limits.RESOURCE_COST_MAX),
    "award_draw": _whole("award_draw", 0, limits.RESOURCE_COST_MAX),
    "hide_results_until_close": _flag("hide_results_until_close"),
    "webhook_url": lambda value, _all: webhook_url_check(value),
}
# Settings whose value the log does not show (whoever reads it could use it): only that it changed.
SECRET_SETTINGS = frozenset({"webhook_url"})


def _logged(value: Any) -> Any:
    return value.pk if isinstance(value, Catalogue) else value


def _locked_campaign(campaign: Campaign) -> Campaign:
    """The campaign row, locked until the transaction ends, so checks and changes see one state."""
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


@transaction.atomic
def campaign_create(*, creator: Any, name: str, **settings: Any) -> Campaign:
    campaign = Campaign(organiser=creator)
    checked = _checked_settings(campaign, {"name": name, **settings}, creating=True)
    for field, value in checked.items():
        setattr(campaign, field, value)
    if campaign.catalogue is not None:
        campaign.catalogue_version = campaign.catalogue.version
    campaign.save()
    log_write(campaign=campaign, kind=LogKind.CAMPAIGN_CREATED, subject="campaign", actor=creator,
              after={"name": campaign.name})  # fmt: skip
    return campaign


def _checked_settings(
    campaign: Campaign, changes: Mapping[str, Any], *, creating: bool = False
) -> dict[str, Any]:
    unknown = sorted(set(changes) - set(SETTINGS))
    if unknown:
        raise CampaignError("unknown-setting", "is not a setting of a campaign", unknown[0])
    if campaign.status == Status.FINISHED:
        raise CampaignConflictError("campaign-finished", "a finished campaign can no longer change")
    checked = {field: SETTINGS[field](value, changes) for field, value in changes.items()}
    if campaign.status == Status.RUNNING and not creating:
        for field in sorted(LOCKED_WHEN_RUNNING & set(checked)):
            if _logged(checked[field]) != _logged(getattr(campaign, field)):
                raise CampaignConflictError(
                    "setting-locked", "decides results, so it cannot change once the campaign runs", field
                )
    merged = {field: checked.get(field, getattr(campaign, field)) for field in SETTINGS}
    disagreements = settings_disagreements(merged)
    if disagreements:
        raise disagreements[0]
    return checked


def settings_disagreements(values: Mapping[str, Any]) -> list[CampaignError]:
    """Settings that must agree with each other and do not, each a refusal naming the field at fault.

    The one place these rules live: the settings page, the API and the campaign
    import all come here. ``values`` holds every setting the rules read, each
    within its bounds: a win scores at least a draw and a draw at least a loss
    (a loss may cost points: the bounds allow down to ``SCORE_MIN``), a win earns
    at least the resources a draw does, and a bunker costs at least what a
    strongpoint does (its upgrade price is the difference).
    """
    found = []
    win, draw, loss = values["points_win"], values["points_draw"], values["points_loss"]
    if win < draw:
        found.append(CampaignError(
            "scores-order", f"a win must score at least as much as a draw (win {win}, draw {draw})", "points_win"
        ))  # fmt: skip
    if draw < loss:
        found.append(CampaignError(
            "scores-order", f"a draw must score at least as much as a loss (draw {draw}, loss {loss})",
            "points_draw",
        ))  # fmt: skip
    if values["award_win"] < values["award_draw"]:
        found.append(CampaignError(
            "awards-order", "a win must earn at least the resources a draw does "
            f"(win {values['award_win']}, draw {values['award_draw']})", "award_win",
        ))  # fmt: skip
    if values["bunker_cost"] < values["strongpoint_cost"]:
        found.append(CampaignError(
            "costs-order", "a bunker must cost at least as much as a strongpoint "
            f"(bunker {values['bunker_cost']}, strongpoint {values['strongpoint_cost']})", "bunker_cost",
        ))  # fmt: skip
    return found


# The settings ``settings_disagreements`` reads.
AGREEING_SETTINGS = (
    "points_win", "points_draw", "points_loss", "award_win", "award_draw", "strongpoint_cost", "bunker_cost"
)  # fmt: skip


def settings_problems(values: Mapping[str, Any]) -> list[CampaignError]:
    """Every setting in ``values`` checked as a change would be (bounds and agreement), without the campaign.

    For a campaign that arrives whole (an import): each setting present out of
    its bounds, then, when those the agreement reads are all present and
    sound, the settings that disagree.
    """
    found: list[CampaignError] = []
    for field, value in values.items():
        if field in SETTINGS:
            try:
                SETTINGS[field](value, values)
            except CampaignError as error:
                found.append(error)
    faulty = {error.field for error in found}
    if all(field in values and field not in faulty for field in AGREEING_SETTINGS):
        found += settings_disagreements(values)
    return found


@transaction.atomic
def campaign_update(
    *, campaign: Campaign, actor: Any, changes: Mapping[str, Any], reason: str = ""
) -> Campaign:
    """Change settings; each changed setting is logged with its old and new value."""
    locked = _locked_campaign(campaign)
    checked = _checked_settings(locked, changes)
    for field, value in checked.items():
        before = getattr(locked, field)
        if _logged(before) == _logged(value):
            continue
        setattr(locked, field, value)
        if field == "catalogue":
            locked.catalogue_version = value.version if value is not None else ""
        shown_before, shown_after = _logged(before), _logged(value)
        if field in SECRET_SETTINGS:
            shown_before, shown_after = ("set" if before else ""), ("set" if value else "")
        log_write(campaign=locked, kind=LogKind.SETTING_CHANGED, subject=f"setting:{field}", actor=actor,
                  field=field, before=shown_before, after=shown_after, reason=reason)  # fmt: skip
    locked.save()
    return locked


def _admitted_blocs(campaign: Campaign) -> set[str]:
    return set(
        Enrolment.objects.filter(campaign=campaign, status=EnrolmentStatus.ADMITTED).values_list(
            "bloc", flat=True
        )
    )


def _transition(
    campaign: Campaign, actor: Any, to: Status, allowed_from: set[str], check: Callable[[Campaign], None]
) -> Campaign:
    locked = _locked_campaign(campaign)
    if locked.status not in allowed_from:
        raise CampaignConflictError(
            "wrong-status",
            f"a campaign that is {locked.get_status_display().lower()} cannot become {to.label.lower()}",
            "status",
        )
    check(locked)
    before = locked.status
    locked.status = to
    now = timezone.now()
    if to == Status.RUNNING:
        locked.started_at = now
    if to == Status.FINISHED:
        locked.finished_at = now
    locked.save()
    log_write(campaign=locked, kind=LogKind.STATUS_CHANGED, subject="campaign", actor=actor, field="status",
              before=before, after=str(to))  # fmt: skip
    return locked


def _ready_to_play(campaign: Campaign) -> None:
    if campaign.catalogue_id is None:
        raise CampaignError(
            "catalogue-missing", "choose the catalogue lists are checked against", "catalogue"
        )
    if campaign.map_document is None:
        raise CampaignError("map-missing", "load a map first (the default Zverograd map will do)", "map")


@transaction.atomic
def campaign_open_registration(*, campaign: Campaign, actor: Any) -> Campaign:
    return _transition(campaign, actor, Status.REGISTRATION, {Status.DRAFT}, _ready_to_play)


def _can_start(campaign: Campaign) -> None:
    _ready_to_play(campaign)
    blocs = _admitted_blocs(campaign)
    if len(blocs) < 2:
        held = ", ".join(sorted(blocs)) or "none"
        raise CampaignError(
            "too-few-blocs",
            f"a campaign starts when at least two blocs have admitted players (now: {held})",
            "status",
        )


@transaction.atomic
def campaign_start(*, campaign: Campaign, actor: Any) -> Campaign:
    return _transition(campaign, actor, Status.RUNNING, {Status.REGISTRATION}, _can_start)


@transaction.atomic
def campaign_finish(*, campaign: Campaign, actor: Any) -> Campaign:
    return _transition(campaign, actor, Status.FINISHED, {Status.RUNNING}, lambda _c: None)


@transaction.atomic
def campaign_invite_regenerate(*, campaign: Campaign, actor: Any) -> Campaign:
    """A new invitation link; the old one stops working at once."""
    locked = _locked_campaign(campaign)
    if locked.status == Status.FINISHED:
        raise CampaignConflictError("campaign-finished", "a finished campaign takes no more players")
    locked.invite_token = new_invite_token()
    locked.save(update_fields=["invite_token", "updated_at"])
    # The token itself stays out of the log: the log is shown to players.
    log_write(campaign=locked, kind=LogKind.INVITE_REGENERATED, subject="campaign", actor=actor)
    return locked


@transaction.atomic
def co_organiser_add(*, campaign: Campaign, actor: Any, user: Any) -> CoOrganiser:
    locked = _locked_campaign(campaign)
    if locked.status == Status.FINISHED:
        raise CampaignConflictError("campaign-finished", "a finished campaign can no longer change")
    if user.pk == locked.organiser_id:
        raise CampaignError("already-organiser", "the creator already runs this campaign", "user")
    if CoOrganiser.objects.filter(campaign=locked, user=user).exists():
        raise CampaignConflictError("already-organiser", f"{user} already helps run this campaign", "user")
    if CoOrganiser.objects.filter(campaign=locked).count() >= limits.MAX_CO_ORGANISERS:
        raise CampaignError(
            "too-many-organisers", f"at most {limits.MAX_CO_ORGANISERS} co-organisers", "user"
        )
    row = CoOrganiser.objects.create(campaign=locked, user=user, added_by=actor)
    log_write(campaign=locked, kind=LogKind.CO_ORGANISER_ADDED, subject=f"user:{user.pk}", actor=actor,
              after=str(user))  # fmt: skip
    forget_access(campaign)
    return row


@transaction.atomic
def co_organiser_remove(*, campaign: Campaign, actor: Any, user: Any) -> None:
    if _locked_campaign(campaign).status == Status.FINISHED:
        raise CampaignConflictError("campaign-finished", "a finished campaign can no longer change")
    deleted, _ = CoOrganiser.objects.filter(campaign=campaign, user=user).delete()
    if not deleted:
        raise CampaignError("not-organiser", f"{user} does not help run this campaign", "user")
    log_write(campaign=campaign, kind=LogKind.CO_ORGANISER_REMOVED, subject=f"user:{user.pk}", actor=actor,
              before=str(user))  # fmt: skip
    forget_access(campaign)
