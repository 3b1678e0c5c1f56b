"""Platoon chart keys are unique within their scope (issue 26): the whole catalogue's charts among
themselves, each campaign's among its own and apart from the whole catalogue's. So no throwaway organiser
takes a key from staff or from another club first, and a refusal never tells anyone what a campaign they
may not see holds."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.urls import reverse

from armies import selectors
from armies.models import Catalogue, PlatoonChart
from armies.services.demo import demo_catalogue_load
from campaign.models import Campaign
from tests.armies.test_api_platoon_charts import CHART
from tests.factories import ArmyListFactory, CampaignFactory, EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db

KEY = "ssu.night-raiders"


def url(catalogue: Catalogue, what: str = "") -> str:
    name = f"api:catalogue-platoon-charts{'-' + what if what else ''}"
    return reverse(name, args=[catalogue.pk])


def retire_url(catalogue: Catalogue, key: str) -> str:
    return reverse("api:catalogue-platoon-chart-retire", args=[catalogue.pk, key])


def chart(name: str, key: str = KEY, **extra: Any) -> dict[str, Any]:
    return {**CHART, "name": name, "key": key, **extra}


@pytest.fixture
def staff(db: None) -> Any:
    return UserFactory(username="stella", is_staff=True)


@pytest.fixture
def hidden(open_campaign: Campaign) -> Campaign:
    """Campaign A: another club's private draft on the same catalogue, its organiser a throwaway account."""
    return CampaignFactory(
        name="Secret Cellar League",
        organiser=UserFactory(username="throwaway"),
        catalogue=open_campaign.catalogue,
        is_public=False,
    )


def enter(api_as: Any, user: Any, catalogue: Catalogue, body: dict[str, Any]) -> Any:
    cache.clear()  # past the per-account rate: the keys are under test
    return api_as(user).post(url(catalogue), body, format="json")


def test_it_lets_two_campaigns_use_one_key(api_as, open_campaign, organiser, hidden):
    catalogue = open_campaign.catalogue

    in_a = enter(api_as, hidden.organiser, catalogue, chart("Cellar Raiders"))
    in_b = enter(api_as, organiser, catalogue, chart("Tractor Raiders"))

    assert (in_a.status_code, in_a.json()["campaign"]) == (201, hidden.pk)
    assert (in_b.status_code, in_b.json()["campaign"]) == (201, open_campaign.pk)
    assert in_b.json()["key"] == KEY


def test_a_campaigns_key_does_not_bar_staff_and_its_lists_keep_their_own(
    api_as, open_campaign, organiser, player, hidden, staff
):
    catalogue = open_campaign.catalogue
    squat = enter(api_as, hidden.organiser, catalogue, chart("Squatted Raiders"))

    wide = enter(api_as, staff, catalogue, chart("Everyone's Raiders"))

    assert squat.status_code == 201
    assert (wide.status_code, wide.json()["campaign"]) == (201, None), wide.json()
    catalogue.refresh_from_db()
    in_hidden = selectors.catalogue_for_validation(catalogue=catalogue, campaign_ids=(hidden.pk,))
    in_open = selectors.catalogue_for_validation(catalogue=catalogue, campaign_ids=(open_campaign.pk,))
    assert in_hidden.chart_by_key[KEY].name == "Squatted Raiders"
    assert [c.name for c in in_hidden.platoon_charts if c.key == KEY] == ["Squatted Raiders"]
    assert in_open.chart_by_key[KEY].name == "Everyone's Raiders"
    players_list = ArmyListFactory(owner=player, catalogue=catalogue, bloc="SSU")
    assert selectors.catalogue_for_list(army_list=players_list).chart_by_key[KEY].name == "Everyone's Raiders"


def test_a_campaigns_own_chart_wins_in_its_lists_even_retired(api_as, open_campaign, organiser, staff):
    catalogue = open_campaign.catalogue
    enter(api_as, organiser, catalogue, chart("Our Raiders"))
    enter(api_as, staff, catalogue, chart("Everyone's Raiders"))
    PlatoonChart.objects.filter(campaign=open_campaign).update(retired_at="2026-12-01T00:00:00Z")
    Catalogue.objects.filter(pk=catalogue.pk).update(charts_revision=catalogue.charts_revision + 5)
    catalogue.refresh_from_db()

    seen = selectors.catalogue_for_validation(catalogue=catalogue, campaign_ids=(open_campaign.pk,))

    assert KEY not in seen.chart_by_key  # a new claim of the retired chart is refused
    assert seen.retired_chart_by_key[KEY].name == "Our Raiders"
    assert seen.with_retired_charts.chart_by_key[KEY].name == "Our Raiders"


def test_a_campaigns_key_may_not_shadow_the_catalogues_nor_repeat_its_own(
    api_as, open_campaign, organiser, staff
):
    catalogue = open_campaign.catalogue
    enter(api_as, staff, catalogue, chart("Everyone's Raiders"))
    enter(api_as, organiser, catalogue, chart("Ours", key="ssu.ours"))

    shadow = enter(api_as, organiser, catalogue, chart("Shadow"))
    again = enter(api_as, organiser, catalogue, chart("Ours again", key="ssu.ours"))
    staff_again = enter(api_as, staff, catalogue, chart("Everyone's again"))

    assert (shadow.status_code, shadow.json()["code"]) == (409, "chart-key-taken")
    assert (again.status_code, again.json()["code"]) == (409, "chart-key-taken")
    assert (staff_again.status_code, staff_again.json()["code"]) == (409, "chart-key-taken")
    assert shadow.json()["detail"] == again.json()["detail"].replace("'ssu.ours'", f"{KEY!r}")


def test_the_database_holds_keys_unique_within_each_scope(open_campaign, hidden):
    catalogue = open_campaign.catalogue
    common = {"catalogue": catalogue, "key": KEY, "name": "x", "bloc": "SSU", "entered": True}
    PlatoonChart.objects.create(**common, campaign=hidden)
    PlatoonChart.objects.create(**common, campaign=open_campaign)
    PlatoonChart.objects.create(**common, campaign=None)

    for campaign in (hidden, None):
        with pytest.raises(IntegrityError), transaction.atomic():
            PlatoonChart.objects.create(**common, campaign=campaign)


def test_an_import_into_a_campaign_uses_a_key_another_campaign_has(api_as, open_campaign, organiser, hidden):
    catalogue = open_campaign.catalogue
    enter(api_as, hidden.organiser, catalogue, chart("Cellar Raiders"))
    document = {
        "format": "zverograd-catalogue",
        "version": 1,
        "name": "ours",
        "units": [],
        "platoon_charts": [chart("Tractor Raiders")],
    }

    cache.clear()
    answer = api_as(organiser).post(url(catalogue, "import"), document, format="json")

    assert answer.status_code == 201, answer.json()
    assert answer.json()["created"] == ["Tractor Raiders"]
    assert "Cellar" not in answer.content.decode()
    assert "Secret" not in answer.content.decode()


@pytest.mark.parametrize("persona", ["organiser", "player", "stranger", "visitor"])
def test_no_refusal_tells_whether_a_private_campaign_uses_a_key(
    api_as, api_client, open_campaign, organiser, player, stranger, hidden, persona
):
    """Campaign B's organiser, its player, a stranger and a visitor get the same answers for a key only
    the private campaign A uses as for a key nobody uses: entering, retiring."""
    catalogue = open_campaign.catalogue
    enter(api_as, hidden.organiser, catalogue, chart("Cellar Raiders"))
    cache.clear()
    who = {"organiser": organiser, "player": player, "stranger": stranger, "visitor": None}[persona]
    client = api_client if who is None else api_as(who)

    def answers(key: str) -> list[tuple[int, str]]:
        cache.clear()
        replies = [
            client.post(retire_url(catalogue, key)),
            client.post(f"{retire_url(catalogue, key)}?campaign={hidden.pk}"),
            client.post(url(catalogue), chart("Mine", key=key), format="json"),
        ]
        PlatoonChart.objects.filter(campaign=open_campaign).delete()
        # A refusal's whole body; of a chart entered, what it is (its time of entry differs).
        return [
            (
                r.status_code,
                r.content.decode().replace(key, "KEY") if r.status_code >= 400 else r.json()["name"],
            )
            for r in replies
        ]

    used_in_a = answers(KEY)
    unused = answers("ssu.nobody-uses-this")

    assert used_in_a == unused
    signed_in = who is not None  # a visitor is refused before any chart is looked up
    assert {used_in_a[0][0], used_in_a[1][0]} == ({404} if signed_in else {401, 403} & {used_in_a[0][0]})
    assert all("Cellar" not in body and "Secret" not in body for _, body in used_in_a)
    assert PlatoonChart.objects.get(key=KEY).retired_at is None


def test_staff_and_each_organiser_retire_the_chart_of_the_key_they_mean(
    api_as, open_campaign, organiser, hidden, staff
):
    catalogue = open_campaign.catalogue
    for user, name in ((hidden.organiser, "A's"), (organiser, "B's"), (staff, "Everyone's")):
        PlatoonChart.objects.create(
            catalogue=catalogue, key=KEY, name=name, bloc="SSU", entered=True,
            campaign=None if user is staff else (hidden if user is hidden.organiser else open_campaign),
        )  # fmt: skip

    by_b = api_as(organiser).post(retire_url(catalogue, KEY))
    by_staff = api_as(staff).post(retire_url(catalogue, KEY))
    by_staff_in_a = api_as(staff).post(f"{retire_url(catalogue, KEY)}?campaign={hidden.pk}")

    assert (by_b.status_code, by_b.json()["campaign"]) == (200, open_campaign.pk)
    assert (by_staff.status_code, by_staff.json()["campaign"]) == (200, None)
    assert (by_staff_in_a.status_code, by_staff_in_a.json()["campaign"]) == (200, hidden.pk)
    assert not PlatoonChart.objects.filter(key=KEY, retired_at__isnull=True).exists()


def test_a_player_of_campaign_a_sees_its_chart_and_a_player_of_b_sees_b(
    api_as, open_campaign, player, hidden
):
    catalogue = open_campaign.catalogue
    enter(api_as, hidden.organiser, catalogue, chart("Cellar Raiders"))
    enter(api_as, open_campaign.organiser, catalogue, chart("Tractor Raiders"))
    cellar_player = UserFactory(username="cyril")
    EnrolmentFactory(campaign=hidden, player=cellar_player, bloc="SSU")

    def names(user: Any) -> list[str]:
        return [row["name"] for row in api_as(user).get(url(catalogue)).json() if row["key"] == KEY]

    assert names(player) == ["Tractor Raiders"]
    assert names(cellar_player) == ["Cellar Raiders"]


def test_the_page_retire_of_a_chart_one_may_not_see_is_not_found(client, open_campaign, stranger, hidden):
    row = PlatoonChart.objects.create(
        catalogue=open_campaign.catalogue, key=KEY, name="Cellar Raiders", bloc="SSU", entered=True,
        campaign=hidden,
    )  # fmt: skip
    client.force_login(stranger)

    answer = client.post(
        reverse("armies:catalogue_platoon_chart_retire", args=[open_campaign.catalogue.pk, row.pk])
    )

    assert answer.status_code == 404
    row.refresh_from_db()
    assert row.retired_at is None


def test_an_export_holds_one_chart_a_key_and_imports_again(api_as, open_campaign, organiser, staff):
    catalogue = open_campaign.catalogue
    enter(api_as, organiser, catalogue, chart("Our Raiders"))
    enter(api_as, staff, catalogue, chart("Everyone's Raiders"))

    document = api_as(organiser).get(url(catalogue, "export")).json()
    cache.clear()
    again = api_as(organiser).post(url(catalogue, "import"), document, format="json")

    assert [c["name"] for c in document["platoon_charts"] if c["key"] == KEY] == ["Our Raiders"]
    assert again.status_code == 200, again.json()
    assert "Our Raiders" in again.json()["unchanged"]


def test_a_catalogue_import_brings_a_key_a_campaign_already_uses(open_campaign):
    """Staff's data is not held back by a campaign's key: the import keeps both, and the campaign's lists
    keep seeing their own."""
    catalogue = open_campaign.catalogue
    wide = PlatoonChart.objects.get(catalogue=catalogue, key="ssu.volga-shock-platoon")
    wide.delete()  # as if the data brought it only now
    PlatoonChart.objects.create(
        catalogue=catalogue, key=wide.key, name="Our Shock Platoon", bloc="SSU", entered=True,
        slots=wide.slots, campaign=open_campaign,
    )  # fmt: skip

    again = demo_catalogue_load()

    assert again.pk == catalogue.pk
    rows = PlatoonChart.objects.filter(catalogue=catalogue, key=wide.key)
    assert sorted((row.campaign_id or 0, row.name) for row in rows) == [
        (0, wide.name),
        (open_campaign.pk, "Our Shock Platoon"),
    ]
    assert not [issue for issue in again.import_report if issue.get("what") == "chart-key-taken"]
    seen = selectors.catalogue_for_validation(catalogue=again, campaign_ids=(open_campaign.pk,))
    assert seen.chart_by_key[wide.key].name == "Our Shock Platoon"
