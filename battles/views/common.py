"""What the report views share: finding the battle (private campaigns stay 404) and its report."""

from __future__ import annotations

from django.http import Http404

from battles.models import BattleReport
from battles.views.panel import page_report
from campaign.models import Battle, Campaign
from campaign.views.battles import battle_or_404
from campaign.views.common import campaign_or_404
from core.http import HtmxHttpRequest


def battle_in_campaign(request: HtmxHttpRequest, pk: int, battle_id: int) -> tuple[Campaign, Battle]:
    """The campaign and battle if the user may see them: a 404 otherwise, as for a battle that does not exist."""
    campaign = campaign_or_404(request, pk)
    return campaign, battle_or_404(request, campaign, battle_id)


def report_or_404(campaign: Campaign, battle: Battle) -> BattleReport:
    report = page_report(campaign, battle)
    if report is None:
        raise Http404("this battle has no report yet")
    return report
