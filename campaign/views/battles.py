"""A battle's page: the mission in full, both sides, the sector on the map, and each side's list check.

Each side chooses one of its current registered lists and sees the verdict
under the battle's terms (its role, the mission's points limit, reserve count
and fortification options, the sector's fortification for a defender, the
campaign's rules): a GET form, answered by htmx with the verdict panel alone.
Organisers change the mission and points limit here until the battle is reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import SafeString
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from armies import validation as v
from armies.selectors import faction_names, faction_shown
from campaign.battle_terms import Side, battle_list_check, battle_mission, battle_terms
from campaign.models import Battle, BattleSide, BattleStatus, Campaign, Enrolment, Registration
from campaign.permissions import (
    can_manage_campaign,
    can_run_rounds,
    can_see_draft_pairings,
)
from campaign.round_forms import BattleTermsForm, ListCheckForm, add_refusal
from campaign.selectors.rounds import battle_for_page, current_registrations, registration_to_check
from campaign.services.pairings import battle_terms_update
from campaign.views.common import campaign_or_404
from campaign.views.pages import map_panel
from campaign.views.pairings import round_page, terms_form
from campaign.views.rounds import rounds_campaign_or_404
from campaign.views.sections import battle_sections, battle_statuses
from campaign.views.subnav import subnav_html
from core.errors import DomainError
from core.formhtml import form_fields_html, unbound_form_html
from core.http import HtmxHttpRequest, acting_user

SIDES: tuple[Side, Side] = ("attacker", "defender")
TERMS_OPEN = (BattleStatus.DRAFT, BattleStatus.SCHEDULED)


@dataclass(frozen=True)
class SidePanel:
    """One side of the battle: who, their current lists, the chosen list and its verdict under the battle's terms."""

    side: Side
    enrolment: Enrolment
    fought: BattleSide  # the bloc, faction and mercenary flag this side fought as, recorded on the battle
    registrations: list[Registration]
    form: ListCheckForm
    form_html: SafeString  # its fields, when the side has lists to choose from
    chosen: Registration | None
    verdict: v.Verdict | None
    terms: v.Terms
    other_choice: str  # the other side's chosen list, kept when this side's form is sent without htmx
    faction: str = ""  # the faction it fought as, by its name

    @property
    def target(self) -> str:
        return f"check-{self.side}"


def battle_or_404(request: HtmxHttpRequest, campaign: Campaign, battle_id: int) -> Battle:
    battle = battle_for_page(campaign=campaign, pk=battle_id)
    if battle is None or (
        battle.status == BattleStatus.DRAFT and not can_see_draft_pairings(request.user, campaign)
    ):
        raise Http404("no such battle in this campaign")
    battle.campaign = campaign
    return battle


def _list_choice(side: Side, lists: tuple[tuple[int, str], ...]) -> ListCheckForm:
    return ListCheckForm(None, side=side, lists=list(lists))


def _sides(request: HtmxHttpRequest, battle: Battle) -> list[SidePanel]:
    places = {"attacker": battle.attacker, "defender": battle.defender}
    lists: dict[int, list[Registration]] = {}
    for registration in current_registrations(enrolment_ids=[battle.attacker_id, battle.defender_id]):
        lists.setdefault(registration.enrolment_id, []).append(registration)
    panels = []
    claimed = [battle.side(side).faction for side in SIDES if battle.side(side).faction]
    # The factions' names only where a side fought as one (one query).
    names = faction_names(catalogue_ids=[battle.campaign.catalogue_id or 0]) if claimed else {}
    for side in SIDES:
        enrolment = places[side]
        own = lists.get(enrolment.pk, [])
        choices = tuple(
            (r.pk, f"{r.name} ({r.total_ap} AP, registered {r.registered_at:%d %b %Y})") for r in own
        )
        form = ListCheckForm(
            request.GET if f"{side}-list" in request.GET else None, side=side, lists=list(choices)
        )
        picked = (
            next((r for r in own if r.pk == form.cleaned_data["list"]), None) if form.is_valid() else None
        )
        # The choice was read as names; the list checked is read whole (its document, its catalogue).
        chosen = registration_to_check(pk=picked.pk) if picked is not None else None
        other = "defender" if side == "attacker" else "attacker"
        panels.append(
            SidePanel(
                side=side,
                enrolment=enrolment,
                fought=battle.side(side),
                registrations=own,
                form=form,
                # The empty choice, the same for every viewer of these lists, is drawn once per process.
                form_html=(
                    form_fields_html(form)
                    if form.is_bound
                    else unbound_form_html(_list_choice, side, choices)
                )
                if own
                else SafeString(),
                chosen=chosen,
                verdict=battle_list_check(battle=battle, side=side, registration=chosen) if chosen else None,
                terms=battle_terms(battle=battle, side=side),
                other_choice=request.GET.get(f"{other}-list", "")[:20],
                faction=faction_shown(names, battle.campaign.catalogue_id, battle.side(side).faction),
            )
        )
    return panels


def battle_page(
    request: HtmxHttpRequest,
    campaign: Campaign,
    battle: Battle,
    *,
    form: BattleTermsForm | None = None,
    section_state: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The battle's page; ``section_state`` puts back why an action of an added section (the report's,
    by the battles app) was refused."""
    sides = _sides(request, battle)
    if request.htmx and request.htmx.target in {panel.target for panel in sides}:
        panel = next(p for p in sides if p.target == request.htmx.target)
        return render(
            request, "campaign/_list_check.html", {"campaign": campaign, "battle": battle, "panel": panel}
        )
    may_change = can_run_rounds(request.user, campaign) and battle.status in TERMS_OPEN
    context: dict[str, Any] = {
        "campaign": campaign,
        "battle": battle,
        "mission": battle_mission(battle),
        "can_manage": (manages := can_manage_campaign(request.user, campaign)),
        "subnav": subnav_html(campaign.pk, current="battles", can_manage=manages),
        "sides": sides,
        # A refused post shows its form with why, even once the terms are fixed.
        "terms_form": form or (terms_form(battle) if may_change else None),
        "challenge": getattr(battle, "challenge", None) if battle.source == "challenge" else None,
        # What other apps add (the battles app: the battle's report, where its notifications point).
        **battle_sections(request, campaign, battle, section_state),
    }
    # After the sections: the report they fetched words the status without asking again.
    context["battle_status"] = battle_statuses(request, campaign, [battle])[battle.pk]
    if battle.sector is not None:
        context.update(map_panel(campaign, None, highlight=battle.sector.key))
    return render(request, "campaign/battle.html", context, status=status)


@require_safe
@vary_on_headers("HX-Request")
def battle_detail(request: HtmxHttpRequest, pk: int, battle_id: int) -> HttpResponse:
    campaign = campaign_or_404(request, pk)
    return battle_page(request, campaign, battle_or_404(request, campaign, battle_id))


@login_required
@require_POST
def battle_terms_view(request: HtmxHttpRequest, pk: int, battle_id: int) -> HttpResponse:
    """Change a battle's mission and points limit (organisers), from the battle page or the draft."""
    campaign = rounds_campaign_or_404(request, pk)
    battle = battle_or_404(request, campaign, battle_id)
    form = terms_form(battle, request.POST)
    if form.is_valid():
        try:
            battle_terms_update(
                battle=battle, actor=acting_user(request), mission=form.cleaned_data["mission"],
                points_limit=form.cleaned_data["points_limit"],
            )  # fmt: skip
        except DomainError as exc:
            add_refusal(form, exc)
        else:
            messages.success(request, f"{battle}: {battle_mission(battle).name} at {battle.points_limit} AP.")
            if battle.status == BattleStatus.DRAFT:
                return redirect("campaign:round", pk=pk, number=battle.round.number)
            return redirect("campaign:battle", pk=pk, battle_id=battle.pk)
    if battle.status == BattleStatus.DRAFT:
        return round_page(request, campaign, battle.round, terms_forms={battle.pk: form})
    return battle_page(request, campaign, battle, form=form)
