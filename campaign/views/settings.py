"""The settings page: every setting with its one-line help; locked ones shown disabled, with why."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaign.forms import CampaignSettingsForm, add_service_error
from campaign.selectors.webhooks import webhook_deliveries
from campaign.services.campaigns import campaign_update
from campaign.views.common import managed_campaign_or_404
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user, bound


@login_required
@require_http_methods(["GET", "POST"])
def campaign_settings(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = managed_campaign_or_404(request, pk)
    form = CampaignSettingsForm(bound(request)[0], campaign=campaign)
    if request.method == "POST" and form.is_valid():
        try:
            campaign_update(
                campaign=campaign,
                actor=acting_user(request),
                changes=form.changes(),
                reason=form.cleaned_data["reason"],
            )
        except DomainError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, "Settings saved.")
            return redirect("campaign:settings", pk=campaign.pk)
    deliveries = webhook_deliveries(campaign=campaign)
    return render(
        request, "campaign/settings.html", {"campaign": campaign, "form": form, "deliveries": deliveries}
    )
