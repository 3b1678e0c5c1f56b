"""Registering army lists for a campaign: checked under the campaign's terms, then frozen.

A registration keeps everything a later battle report or standings job needs
as it was at registration: the document, the catalogue and its version, the
cards of the units it uses, the AP paid for each entry and the verdict. Later
edits of the list and later imports of the catalogue change none of it.
Registering the same list again makes a new snapshot; the old one stays,
marked superseded, for the battles it fought.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from armies import validation as v
from armies.models import ArmyList, Unit
from armies.selectors import army_list_plain, catalogue_for_validation
from armies.validation.pricing import priced_entries
from campaign import limits
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import Campaign, Enrolment, EnrolmentStatus, LogKind, Registration
from campaign.options import Status
from campaign.permissions import can_manage_campaign
from campaign.services.log import log_write
from core.errors import FieldProblem
from rules.engine.ruleset import RTZ, RuleSet

# The cards a snapshot keeps of each unit the list uses.
UNIT_FIELDS = (
    "key", "name", "bloc", "unit_type", "armour", "ap", "damage", "model_count", "hero", "unique",
    "mercenary", "capturable", "strongpoint_unit", "named_pilot", "skills", "weapons",
)  # fmt: skip


def campaign_terms(
    *, campaign: Campaign, role: str | None = None, points_limit: int | None = None
) -> v.Terms:
    """The terms a campaign checks lists under; a battle adds its role and may set its own limit."""
    ruleset = RuleSet.from_dict(campaign.ruleset)
    return v.Terms(
        points_limit=points_limit or campaign.points_limit,
        role=role,  # type: ignore[arg-type]
        rtz=ruleset.name == RTZ,
        catalogue_version=campaign.catalogue_version or None,
    )


MAX_PROBLEMS_NAMED = 10  # of a refused list's problems, in the API's errors (its answer lists at most 20)


def _problems_sentence(verdict: v.Verdict) -> str:
    shown = "; ".join(p.message for p in verdict.errors[:3])
    more = len(verdict.errors) - 3
    return f"the list breaks the campaign's rules: {shown}" + (f" (and {more} more)" if more > 0 else "")


def _unit_cards(catalogue_id: int, keys: set[str]) -> list[dict[str, Any]]:
    rows = (
        Unit.objects.filter(catalogue_id=catalogue_id, key__in=keys).select_related("faction").order_by("key")
    )
    return [
        {
            **{name: getattr(row, name) for name in UNIT_FIELDS},
            "faction": row.faction.key if row.faction else None,
        }
        for row in rows
    ]


@transaction.atomic
def army_list_register(*, enrolment: Enrolment, army_list: ArmyList, actor: Any) -> Registration:
    """Check ``army_list`` under the campaign's terms and freeze it for ``enrolment``.

    The list must be the actor's own (an organiser registers lists for
    placeholders from their own account), of the enrolment's bloc, built on the
    campaign's catalogue, and free of errors (warnings are kept on the snapshot).
    """
    enrolment = Enrolment.objects.select_for_update().select_related("campaign").get(pk=enrolment.pk)
    campaign = enrolment.campaign
    if campaign.status not in {Status.REGISTRATION, Status.RUNNING}:
        raise CampaignConflictError(
            "not-registering", "lists are registered while the campaign is open for registration or running"
        )
    if enrolment.status != EnrolmentStatus.ADMITTED:
        raise CampaignConflictError("not-admitted", "only an admitted player registers lists", "enrolment")
    acting_for_self = enrolment.player_id is not None and enrolment.player_id == actor.pk
    if not acting_for_self and not (enrolment.is_placeholder and can_manage_campaign(actor, campaign)):
        raise CampaignError("not-your-place", "you register lists for your own place only", "enrolment")
    if army_list.owner_id != actor.pk:
        raise CampaignError("not-your-list", "register a list of your own", "army_list")
    if army_list.catalogue_id != campaign.catalogue_id:
        raise CampaignError(
            "wrong-catalogue", f"the campaign plays {campaign.catalogue}; this list is built on another catalogue",
            "army_list",
        )  # fmt: skip
    if army_list.bloc != enrolment.bloc:
        raise CampaignError(
            "wrong-bloc",
            f"this place fights for {enrolment.bloc}; the list is of {army_list.bloc}",
            "army_list",
        )
    if Registration.objects.filter(enrolment=enrolment).count() >= limits.MAX_REGISTRATIONS_PER_PLAYER:
        raise CampaignError(
            "too-many-registrations",
            f"at most {limits.MAX_REGISTRATIONS_PER_PLAYER} registrations per player",
        )
    plain = army_list_plain(army_list=army_list)
    # The whole catalogue's platoon charts and this campaign's own (armies/services/platoon_charts.py).
    plain_catalogue = catalogue_for_validation(catalogue=army_list.catalogue, campaign_ids=(campaign.pk,))
    terms = campaign_terms(campaign=campaign)
    verdict = v.validate(plain, plain_catalogue, terms)
    if verdict.errors:
        sentence = _problems_sentence(verdict)
        # The API names each problem by its code too; pages show the sentence only.
        each = [FieldProblem("army_list", p.code, p.message) for p in verdict.errors[:MAX_PROBLEMS_NAMED]]
        raise CampaignError(
            "list-has-errors", sentence, "army_list",
            problems=[FieldProblem("army_list", "list-has-errors", sentence), *each],
        )  # fmt: skip
    pricing = priced_entries(plain, plain_catalogue, terms)
    registration = Registration.objects.create(
        campaign=campaign, enrolment=enrolment, army_list=army_list, name=army_list.name, bloc=army_list.bloc,
        faction=army_list.faction, document=army_list.content, catalogue=army_list.catalogue,
        catalogue_name=army_list.catalogue.name, catalogue_version=army_list.catalogue.version,
        profiles=_unit_cards(army_list.catalogue_id, {entry.unit for entry in plain.entries}),
        costs=pricing.to_dict(), total_ap=verdict.totals.paid_ap, terms=terms.to_dict(),
        verdict=verdict.to_dict(), registered_by=actor,
    )  # fmt: skip
    earlier = (
        Registration.objects.filter(enrolment=enrolment, army_list=army_list, superseded_by__isnull=True)
        .exclude(pk=registration.pk)
        .first()
    )
    if earlier is not None:
        earlier.superseded_by = registration
        earlier.save(update_fields=["superseded_by"])
    summary = {"name": registration.name, "player": enrolment.display_name, "ap": registration.total_ap}
    log_write(campaign=campaign, kind=LogKind.LIST_REGISTERED, subject=f"registration:{registration.pk}",
              actor=actor, before=earlier.pk if earlier else None, after=summary)  # fmt: skip
    return registration
