"""The economy page: balances as a chart and a table, the ledger, purchases, buying and adjusting."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.charts import MAX_BARS, balance_chart
from campaign.models import Campaign, EntryKind, FortificationPurchase, ResourceEntry
from campaign.options import ResourceHolder
from campaign.services.economy import Holder, balance, ledger_adjust
from campaign.services.map import sector_update

pytestmark = pytest.mark.django_db


def url(name: str, campaign: Campaign, *args: object) -> str:
    return reverse(f"campaign:{name}", args=[campaign.pk, *args])


def fund(
    campaign, organiser, amount: int, *, bloc: str = "", enrolment=None, reason: str = "War chest"
) -> None:
    ledger_adjust(
        campaign=campaign, holder=Holder(bloc=bloc, enrolment=enrolment), amount=amount, reason=reason,
        actor=organiser,
    )  # fmt: skip


def buy(client, campaign, sector: str, kind: str):
    return client.post(url("fortification_buy", campaign), {"buy-sector": sector, "buy-kind": kind})


def test_it_shows_every_blocs_balance_as_a_chart_and_a_table(client, running_campaign, organiser, stranger):
    fund(running_campaign, organiser, 7, bloc="SSU")
    fund(running_campaign, organiser, 2, bloc="Axis")
    Campaign.objects.filter(pk=running_campaign.pk).update(is_public=True)
    client.force_login(stranger)

    page = client.get(url("economy", running_campaign)).content.decode()

    assert 'data-testid="balance-chart"' in page
    assert 'data-holder="SSU" data-balance="7"' in page
    assert 'data-holder="Axis" data-balance="2"' in page
    assert 'data-holder="Allies" data-balance="0"' in page  # a bloc with no entry yet still has a row
    assert page.count('data-testid="balance-row"') == 3
    # A stranger sees the economy but may neither buy nor adjust.
    assert 'data-testid="buy-form"' not in page
    assert 'data-testid="adjust-form"' not in page


def test_the_ledger_lists_each_entry_newest_first_with_reason_round_and_who(
    client, running_campaign, organiser, place
):
    fund(running_campaign, organiser, 5, bloc="SSU", reason="Supply drop")
    fund(running_campaign, organiser, -2, bloc="SSU", reason="Lost in the river")
    client.force_login(place("s1").player)

    page = client.get(url("economy", running_campaign)).content.decode()

    assert page.index("Lost in the river") < page.index("Supply drop")
    assert page.count('data-testid="ledger-entry"') == 2
    assert 'class="ledger-amount">-2<' in page
    assert 'class="ledger-amount">+5<' in page
    assert page.count(f"<td>{organiser.public_name}</td>") == 2


def test_the_ledger_pages_through_htmx(client, running_campaign, organiser, place):
    for index in range(30):
        fund(running_campaign, organiser, 1, bloc="Axis", reason=f"Entry {index:02d}")
    client.force_login(place("x1").player)

    first = client.get(url("economy", running_campaign)).content.decode()
    second = client.get(
        url("economy", running_campaign), {"page": 2}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="ledger"
    )

    assert first.count('data-testid="ledger-entry"') == 25
    assert "Entry 29" in first
    assert "Entry 04" not in first
    body = second.content.decode()
    assert "<html" not in body
    assert body.count('data-testid="ledger-entry"') == 5
    assert "Entry 00" in body


def test_a_player_buys_a_bunker_for_a_sector_their_bloc_holds_and_the_map_shows_it(
    client, running_campaign, organiser, place
):
    fund(running_campaign, organiser, 10, bloc="SSU")
    client.force_login(place("s1").player)
    form = client.get(url("economy", running_campaign)).context["buy_form"]
    offered = dict(form.fields["sector"].widget.choices)
    # Not the Tractor Works, the SSU headquarters: never attacked, so nothing is built there.
    assert sorted(k for k in offered if k) == ["workers-settlement"]
    assert offered["workers-settlement"] == "Workers' Settlement: strongpoint 3, bunker 5"

    response = buy(client, running_campaign, "workers-settlement", "bunker")

    assert response["Location"] == url("economy", running_campaign)
    assert balance(campaign=running_campaign, holder=Holder(bloc="SSU")) == 5
    purchase = FortificationPurchase.objects.get()
    assert (purchase.sector.key, purchase.kind, purchase.cost) == ("workers-settlement", "bunker", 5)
    page = client.get(url("economy", running_campaign)).content.decode()
    assert 'data-testid="purchase-row"' in page
    assert "Bought a bunker at Workers&#x27; Settlement for 5" in page
    campaign_page = client.get(url("detail", running_campaign)).content.decode()
    assert 'data-sector="workers-settlement" data-owner="SSU" data-fortification="bunker"' in campaign_page


@pytest.mark.parametrize(
    ("sector", "kind", "field", "code"),
    [
        ("workers-settlement", "bunker", "kind", "balance-too-low"),  # 5 over a balance of 4
        ("riverside", "strongpoint", "sector", "not-your-sector"),  # the Allies'
        ("tractor-works", "bunker", "sector", "headquarters-not-fortifiable"),  # the SSU headquarters
    ],
)
def test_a_purchase_that_breaks_the_rules_is_refused_next_to_the_field_and_nothing_changes(
    client, running_campaign, organiser, place, sector, kind, field, code
):
    fund(running_campaign, organiser, 4, bloc="SSU")
    client.force_login(place("s1").player)

    response = buy(client, running_campaign, sector, kind)

    assert response.status_code == 200
    assert response.context["buy_form"].has_error(field, code)
    assert not FortificationPurchase.objects.exists()
    assert balance(campaign=running_campaign, holder=Holder(bloc="SSU")) == 4
    assert running_campaign.sectors.get(key=sector).fortification in ("none", "strongpoint")


def test_a_fortification_already_there_is_refused_next_to_the_kind(
    client, running_campaign, organiser, place
):
    sector_update(campaign=running_campaign, actor=organiser, key="workers-settlement",
                  changes={"fortification": "bunker"}, reason="Dug in")  # fmt: skip
    fund(running_campaign, organiser, 10, bloc="SSU")
    client.force_login(place("s1").player)

    response = buy(client, running_campaign, "workers-settlement", "strongpoint")

    assert response.context["buy_form"].has_error("kind", "already-fortified")
    assert not FortificationPurchase.objects.exists()


def test_where_resources_are_per_player_only_the_player_holding_a_sector_buys_for_it(
    client, running_campaign, organiser, place
):
    Campaign.objects.filter(pk=running_campaign.pk).update(resources_held_by=ResourceHolder.PLAYER)
    running_campaign.refresh_from_db()
    sector_update(campaign=running_campaign, actor=organiser, key="workers-settlement",
                  changes={"held_by": place("s1").pk}, reason="Taken by s1")  # fmt: skip
    for name in ("s1", "s2"):
        fund(running_campaign, organiser, 10, enrolment=place(name))
    client.force_login(place("s2").player)
    s2_form = client.get(url("economy", running_campaign)).context["buy_form"]
    refused = buy(client, running_campaign, "workers-settlement", "strongpoint")
    client.force_login(place("s1").player)
    bought = buy(client, running_campaign, "workers-settlement", "strongpoint")

    assert [k for k, _label in s2_form.fields["sector"].widget.choices if k] == []
    assert refused.context["buy_form"].has_error("sector", "not-your-sector")
    assert bought.status_code == 302
    assert balance(campaign=running_campaign, holder=Holder(enrolment=place("s1"))) == 7
    assert balance(campaign=running_campaign, holder=Holder(enrolment=place("s2"))) == 10


def test_an_organiser_adjusts_a_balance_with_a_reason(client, running_campaign, organiser):
    client.force_login(organiser)

    response = client.post(
        url("ledger_adjust", running_campaign),
        {"adjust-holder": "bloc:Allies", "adjust-amount": 6, "adjust-reason": "Lend-lease convoy"},
    )

    assert response["Location"] == url("economy", running_campaign)
    entry = ResourceEntry.objects.get()
    assert (entry.bloc, entry.amount, entry.kind, entry.reason, entry.actor) == (
        "Allies", 6, EntryKind.ADJUSTMENT, "Lend-lease convoy", organiser,
    )  # fmt: skip


def test_an_adjustment_below_zero_or_without_a_reason_is_refused_and_nothing_is_written(
    client, running_campaign, organiser
):
    fund(running_campaign, organiser, 3, bloc="Axis")
    client.force_login(organiser)

    below = client.post(
        url("ledger_adjust", running_campaign),
        {"adjust-holder": "bloc:Axis", "adjust-amount": -4, "adjust-reason": "Sabotage"},
    )
    no_reason = client.post(
        url("ledger_adjust", running_campaign),
        {"adjust-holder": "bloc:Axis", "adjust-amount": 2, "adjust-reason": ""},
    )

    assert below.context["adjust_form"].has_error("amount", "balance-too-low")
    assert no_reason.context["adjust_form"].errors["reason"]
    assert ResourceEntry.objects.count() == 1


def test_players_neither_adjust_nor_do_organisers_buy(client, running_campaign, organiser, place):
    fund(running_campaign, organiser, 10, bloc="SSU")
    client.force_login(place("s1").player)
    adjusted = client.post(
        url("ledger_adjust", running_campaign),
        {"adjust-holder": "bloc:SSU", "adjust-amount": 100, "adjust-reason": "Mine"},
    )
    client.force_login(organiser)
    bought = buy(client, running_campaign, "workers-settlement", "strongpoint")

    assert (adjusted.status_code, bought.status_code) == (403, 403)
    assert ResourceEntry.objects.count() == 1


# --------------------------------------------------------------------------- the chart's geometry


def test_the_chart_puts_the_richest_first_and_scales_bars_to_the_largest():
    chart = balance_chart([("Axis", 2, "#111"), ("SSU", 8, "#222"), ("Allies", 0, "#333")], title="Balances")

    assert [bar.label for bar in chart.bars] == ["SSU", "Axis", "Allies"]
    widest = chart.bars[0].width
    assert chart.bars[1].width == pytest.approx(widest / 4, abs=0.01)
    assert chart.bars[2].width == 1.0  # an empty balance is a hairline, so its row reads as 0
    assert chart.summary == "Balances: SSU 8, Axis 2, Allies 0."
    assert chart.bars[0].y < chart.bars[1].y < chart.bars[2].y


def test_the_chart_shows_at_most_its_limit_and_says_how_many_more_the_table_has():
    lines = [(f"Player {index}", index, "#444") for index in range(MAX_BARS + 5)]

    chart = balance_chart(lines, title="Balances")

    assert len(chart.bars) == MAX_BARS
    assert chart.hidden == 5
    assert chart.bars[0].full_label == f"Player {MAX_BARS + 4}"
    assert chart.summary.endswith("and 5 more in the table.")


def test_an_empty_chart_says_so_and_long_names_are_shortened():
    empty = balance_chart([], title="Balances")
    long = balance_chart([("Konstantin Konstantinovich Rokossovsky", 3, "#555")], title="Balances")

    assert empty.bars == ()
    assert empty.summary == "Balances: nobody holds any resource points yet."
    assert long.bars[0].label.endswith("…")
    assert len(long.bars[0].label) < len(long.bars[0].full_label)
