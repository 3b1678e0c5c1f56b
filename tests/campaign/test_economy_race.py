"""N purchases racing on one balance, from real threads: exactly as many succeed as the balance pays for.

Each thread has its own database connection; under CI=true that is the
PostgreSQL server the test command starts (the test insists on it), where the
purchase's lock on the campaign row is what keeps the balance from going below
zero.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from campaign.models import Campaign, FortificationPurchase
from campaign.services.economy import Holder, balance, fortification_buy, ledger_adjust
from tests.races import at_once, outcome, require_postgresql

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

BUYERS = 6


def test_purchases_racing_on_one_balance_never_overspend_it(running_campaign, organiser, place):
    require_postgresql()
    Campaign.objects.filter(pk=running_campaign.pk).update(strongpoint_cost=3, bunker_cost=5)
    # Six Axis sectors to fortify, and the points for exactly two strongpoints.
    keys = list(running_campaign.sectors.filter(headquarters_of="").values_list("key", flat=True)[:BUYERS])
    running_campaign.sectors.filter(key__in=keys).update(owner="Axis")
    ledger_adjust(campaign=running_campaign, holder=Holder(bloc="Axis"), amount=7, reason="war chest",
                  actor=organiser)  # fmt: skip
    buyer = place("x1")

    def buy(key: str) -> Callable[[], str]:
        return outcome("bought", lambda: fortification_buy(
            campaign=running_campaign, buyer=buyer, sector_key=key, kind="strongpoint", actor=None
        ))  # fmt: skip

    outcomes = at_once([buy(key) for key in keys])

    assert sorted(outcomes) == ["balance-too-low"] * (BUYERS - 2) + ["bought"] * 2
    assert FortificationPurchase.objects.count() == 2
    assert balance(campaign=running_campaign, holder=Holder(bloc="Axis")) == 1
