"""The settings page: every setting with its one-line help, under headings; locked ones disabled, with why.

A refused save opens at an error summary that links to each field at fault. "Fill in the standard
values" puts the standard Return to Zverograd settings in the form without saving them.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaign.forms import add_service_error
from campaign.options import standard_rtz_summary
from campaign.selectors.webhooks import webhook_deliveries
from campaign.services.campaigns import campaign_update
from campaign.settings_form import CampaignSettingsForm
from campaign.views.common import managed_campaign_or_404
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user, bound

PRESET = "standard"


def error_summary(form: CampaignSettingsForm) -> list[tuple[str, str, str]]:
    """Each error of a bound form as (its field's id, the label, the message), in page order."""
    if not form.is_bound or not form.errors:
        return []
    found = [("", "", str(error)) for error in form.non_field_errors()]
    shown = [field for _, _, rows in form.sections() for row in rows for field in row.fields]
    for field in [*shown, form["reason"]]:
        found += [(field.id_for_label, str(field.label), str(error)) for error in field.errors]
    return found


@login_required
@require_http_methods(["GET", "POST"])
def campaign_settings(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = managed_campaign_or_404(request, pk)
    form = CampaignSettingsForm(bound(request)[0], campaign=campaign)
    preset = request.method == "POST" and request.POST.get("preset") == PRESET and not form.read_only
    if preset:
        form = CampaignSettingsForm(form.preset_data(request.POST), campaign=campaign)
        messages.info(
            request, "The standard Return to Zverograd values are filled in below: nothing is saved until "
            "you press Save settings.",
        )  # fmt: skip
    elif request.method == "POST" and form.is_valid():
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
    context = {
        "campaign": campaign,
        "form": form,
        "deliveries": webhook_deliveries(campaign=campaign),
        "errors": error_summary(form),
        "preset": PRESET,
        "standard_summary": standard_rtz_summary(),
    }
    return render(request, "campaign/settings.html", context)
