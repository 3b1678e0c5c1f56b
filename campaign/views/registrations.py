"""Registered lists: the campaign's snapshots, registering one of your lists, and one snapshot whole."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from armies.models import ArmyList
from armies.selectors import faction_names, faction_shown
from campaign.forms import RegisterListForm, add_service_error
from campaign.models import Campaign, Enrolment, EnrolmentStatus, Registration
from campaign.permissions import campaign_access, can_act_for, can_manage_campaign
from campaign.selectors import registration_table_rows
from campaign.services.registrations import army_list_register
from campaign.views.common import campaign_or_404
from campaign.views.page_rows import kept_registration_rows
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user, bound


def _places(user: Any, campaign: Campaign) -> list[Enrolment]:
    """The places the user registers for: their own if admitted; organisers also every placeholder."""
    places = []
    own = campaign_access(user, campaign).enrolment
    if own is not None and own.status == EnrolmentStatus.ADMITTED:
        places.append(own)
    if can_manage_campaign(user, campaign):
        places.extend(
            Enrolment.objects.filter(campaign=campaign, player__isnull=True, status=EnrolmentStatus.ADMITTED)
        )
    return places


def _register_form(request: HtmxHttpRequest, campaign: Campaign) -> RegisterListForm | None:
    if not request.user.is_authenticated:
        return None
    places = _places(request.user, campaign)
    if not places:
        return None
    lists = ArmyList.objects.filter(owner_id=request.user.pk, catalogue=campaign.catalogue).order_by("name")
    return RegisterListForm(
        bound(request)[0],
        places=[(p.pk, f"{p.display_name} ({p.bloc})") for p in places],
        lists=[(a.pk, f"{a.name} ({a.bloc}, {a.points_limit} AP)") for a in lists],
    )


@require_http_methods(["GET", "POST"])
def registration_list(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Every registered list of the campaign; players register theirs here."""
    campaign = campaign_or_404(request, pk)
    form = _register_form(request, campaign)
    if request.method == "POST":
        if form is None:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise PermissionDenied(
                "only an admitted player (or an organiser, for a placeholder) registers lists"
            )
        if form.is_valid():
            enrolment = Enrolment.objects.get(pk=form.cleaned_data["enrolment"], campaign=campaign)
            enrolment.campaign = campaign
            army_list = ArmyList.objects.select_related("catalogue").get(pk=form.cleaned_data["army_list"])
            try:
                if not can_act_for(request.user, enrolment):
                    raise PermissionDenied("you register lists for your own place only")
                registration = army_list_register(
                    enrolment=enrolment, army_list=army_list, actor=acting_user(request)
                )
            except DomainError as exc:
                add_service_error(form, exc)
            else:
                messages.success(request, f"Registered {registration.name} for {enrolment.display_name}.")
                return redirect("campaign:registration", pk=pk, registration_id=registration.pk)
    everything = request.GET.get("all") == "1"
    context = {
        "campaign": campaign,
        "form": form,
        "everything": everything,
        "registrations": kept_registration_rows(
            registration_table_rows(campaign=campaign, current_only=not everything),
            lists_url=reverse("campaign:registrations", args=[campaign.pk]),
        ),
        "can_manage": can_manage_campaign(request.user, campaign),
    }
    return render(request, "campaign/registrations.html", context)


@require_safe
def registration_detail(request: HtmxHttpRequest, pk: int, registration_id: int) -> HttpResponse:
    """One snapshot as registered: its entries with the AP paid, the terms, the verdict."""
    campaign = campaign_or_404(request, pk)
    registration = (
        Registration.objects.select_related("enrolment__player", "superseded_by")
        .filter(campaign=campaign, pk=registration_id)
        .first()
    )
    if registration is None:
        raise Http404("no such registration in this campaign")
    cards = {card["key"]: card for card in registration.profiles}
    rows = [
        {**row, "name": cards.get(row["unit"], {}).get("name", row["unit"]), "card": cards.get(row["unit"])}
        for row in registration.costs.get("entries", [])
    ]
    context = {
        "campaign": campaign,
        "registration": registration,
        "rows": rows,
        "fortifications": registration.costs.get("fortifications", []),
        "problems": registration.verdict.get("problems", []),
        "faction_name": faction_shown(
            faction_names(catalogue_ids=[registration.catalogue_id]),
            registration.catalogue_id,
            registration.faction,
        ),
        "can_manage": can_manage_campaign(request.user, campaign),
    }
    return render(request, "campaign/registration.html", context)


def register_action_allowed(user: Any, campaign: Campaign) -> bool:
    """Whether the campaign page offers "Register a list" to this user."""
    return bool(getattr(user, "is_authenticated", False)) and bool(_places(user, campaign))
