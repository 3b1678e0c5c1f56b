"""The war economy: balances from the ledger, fortification purchases, upgrades and refusals."""

from __future__ import annotations

import pytest

from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import EntryKind, FortificationPurchase, LogEntry, LogKind, ResourceEntry
from campaign.options import ResourceHolder
from campaign.services.economy import Holder, balance, fortification_buy, ledger_adjust
from campaign.services.map import sector_update

pytestmark = pytest.mark.django_db


def _fund(campaign, organiser, bloc: str, amount: int) -> None:
    ledger_adjust(
        campaign=campaign, holder=Holder(bloc=bloc), amount=amount, reason="war chest", actor=organiser
    )


def _axis_sector(campaign) -> str:
    return campaign.sectors.filter(owner="Axis", headquarters_of="").values_list("key", flat=True).first()


def test_a_player_buys_a_strongpoint_for_a_sector_their_bloc_holds(running_campaign, organiser, place):
    _fund(running_campaign, organiser, "Axis", 10)
    key = _axis_sector(running_campaign)

    purchase = fortification_buy(campaign=running_campaign, buyer=place("x1"), sector_key=key, kind="strongpoint",
                                 actor=place("x1").player)  # fmt: skip

    assert purchase.cost == running_campaign.strongpoint_cost
    assert balance(campaign=running_campaign, holder=Holder(bloc="Axis")) == 10 - purchase.cost
    assert running_campaign.sectors.get(key=key).fortification == "strongpoint"
    assert LogEntry.objects.filter(kind=LogKind.SECTOR_CHANGED, subject=f"sector:{key}").exists()


def test_a_strongpoint_is_upgraded_to_a_bunker_for_the_difference(running_campaign, organiser, place):
    _fund(running_campaign, organiser, "Axis", 10)
    key = _axis_sector(running_campaign)
    buyer = place("x1")
    fortification_buy(campaign=running_campaign, buyer=buyer, sector_key=key, kind="strongpoint", actor=None)

    upgrade = fortification_buy(
        campaign=running_campaign, buyer=buyer, sector_key=key, kind="bunker", actor=None
    )

    assert upgrade.upgrade
    assert upgrade.cost == running_campaign.bunker_cost - running_campaign.strongpoint_cost
    with pytest.raises(CampaignConflictError) as caught:
        fortification_buy(campaign=running_campaign, buyer=buyer, sector_key=key, kind="bunker", actor=None)
    assert caught.value.code == "already-fortified"


def test_a_purchase_over_the_balance_is_refused_and_changes_nothing(running_campaign, place):
    key = _axis_sector(running_campaign)

    with pytest.raises(CampaignConflictError) as caught:
        fortification_buy(
            campaign=running_campaign, buyer=place("x1"), sector_key=key, kind="bunker", actor=None
        )

    assert caught.value.code == "balance-too-low"
    assert not ResourceEntry.objects.exists()
    assert not FortificationPurchase.objects.exists()
    assert running_campaign.sectors.get(key=key).fortification == "none"


@pytest.mark.parametrize("kind", ["strongpoint", "bunker"])
def test_nothing_is_bought_for_a_headquarters_and_nothing_is_written(
    running_campaign, organiser, place, kind
):
    _fund(running_campaign, organiser, "Axis", 10)
    headquarters = running_campaign.sectors.get(headquarters_of="Axis")
    before = headquarters.fortification

    with pytest.raises(CampaignError) as caught:
        fortification_buy(campaign=running_campaign, buyer=place("x1"), sector_key=headquarters.key, kind=kind,
                          actor=None)  # fmt: skip

    assert (caught.value.code, caught.value.field) == ("headquarters-not-fortifiable", "sector")
    assert not FortificationPurchase.objects.exists()
    assert balance(campaign=running_campaign, holder=Holder(bloc="Axis")) == 10
    assert running_campaign.sectors.get(pk=headquarters.pk).fortification == before


def test_a_sector_the_bloc_does_not_hold_is_refused(running_campaign, organiser, place):
    _fund(running_campaign, organiser, "Allies", 10)

    with pytest.raises(CampaignError) as caught:
        fortification_buy(campaign=running_campaign, buyer=place("a1"), sector_key=_axis_sector(running_campaign),
                          kind="strongpoint", actor=None)  # fmt: skip

    assert caught.value.code == "not-your-sector"


def test_where_resources_are_per_player_only_the_holder_buys_from_their_own_balance(
    running_campaign, organiser, place
):
    running_campaign.resources_held_by = ResourceHolder.PLAYER
    running_campaign.save()
    x1, x2 = place("x1"), place("x2")
    sector_update(campaign=running_campaign, actor=organiser, key="zoo", changes={"owner": "Axis", "held_by": x1.pk},
                  reason="taken")  # fmt: skip
    for who in (x1, x2):
        ledger_adjust(
            campaign=running_campaign, holder=Holder(enrolment=who), amount=10, reason="x", actor=organiser
        )

    with pytest.raises(CampaignError):
        fortification_buy(
            campaign=running_campaign, buyer=x2, sector_key="zoo", kind="strongpoint", actor=None
        )
    fortification_buy(campaign=running_campaign, buyer=x1, sector_key="zoo", kind="strongpoint", actor=None)

    assert (
        balance(campaign=running_campaign, holder=Holder(enrolment=x1))
        == 10 - running_campaign.strongpoint_cost
    )
    assert balance(campaign=running_campaign, holder=Holder(enrolment=x2)) == 10


def test_the_ledger_is_append_only_and_an_adjustment_never_goes_below_zero(running_campaign, organiser):
    entry = ledger_adjust(campaign=running_campaign, holder=Holder(bloc="SSU"), amount=3, reason="bonus",
                          actor=organiser)  # fmt: skip

    with pytest.raises(ValueError, match="never changed"):
        entry.save()
    with pytest.raises(CampaignConflictError):
        ledger_adjust(
            campaign=running_campaign, holder=Holder(bloc="SSU"), amount=-4, reason="x", actor=organiser
        )
    assert entry.kind == EntryKind.ADJUSTMENT
