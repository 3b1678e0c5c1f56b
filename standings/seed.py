"""The demo campaign's standings (see core.demo): computed once its rounds are seeded.

Runs after the campaign's and the battles' seeds (``standings`` comes after them
in INSTALLED_APPS). The results those seeds record also queue the recompute for
the worker that ``make run`` starts; computing here as well means the standings
page is never empty on a fresh demo, and running the seed again changes nothing.
"""

from __future__ import annotations

from core.demo import DemoData
from standings.services import standings_recompute


def seed_demo(data: DemoData) -> None:
    campaign = data.objects.get("campaign")
    if campaign is None:
        return
    if standings_recompute(campaign_id=campaign.pk):
        data.messages.append(f"Standings of {campaign.name} computed.")
