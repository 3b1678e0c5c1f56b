"""The campaign list (public ones and the user's own) and the short create form."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from campaign.forms import CampaignCreateForm, StatusFilterForm, add_service_error
from campaign.selectors import campaigns_for_listing
from campaign.services.campaigns import campaign_create
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user, bound

CAMPAIGNS_PER_PAGE = 30


@require_safe
@vary_on_headers("HX-Request")
def campaign_list(request: HtmxHttpRequest) -> HttpResponse:
    form = StatusFilterForm(request.GET or None)
    campaigns = campaigns_for_listing(user=request.user)
    status = form.cleaned_data["status"] if form.is_bound and form.is_valid() else ""
    if status:
        campaigns = campaigns.filter(status=status)
    page = Paginator(campaigns, CAMPAIGNS_PER_PAGE).get_page(request.GET.get("page"))
    context = {"form": form, "page": page, "status": status}
    if request.htmx and request.htmx.target == "campaign-results":
        return render(request, "campaign/_campaign_rows.html", context)
    return render(request, "campaign/list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_new(request: HtmxHttpRequest) -> HttpResponse:
    form = CampaignCreateForm(bound(request)[0])
    if request.method == "POST" and form.is_valid():
        try:
            campaign = campaign_create(
                creator=acting_user(request), name=form.cleaned_data["name"], **form.settings()
            )
        except DomainError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, f"Created {campaign.name}. Now choose its settings.")
            return redirect("campaign:settings", pk=campaign.pk)
    return render(request, "campaign/new.html", {"form": form})
