"""Whose platoon charts (issue 26): a chart a campaign's organiser enters is that campaign's alone, counted
against its own bound, so throwaway accounts with draft campaigns cannot fill the room every club on the
catalogue shares; only staff enter the whole catalogue's; a list sees the whole catalogue's charts and
those of its campaigns, never another campaign's."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from armies import selectors
from armies.models import Catalogue, PlatoonChart
from armies.services import army_lists as lists
from armies.services.army_lists import ArmyListError
from armies.validation import limits
from campaign.models import Campaign, CoOrganiser
from tests.armies.test_api_platoon_charts import CHART
from tests.factories import ArmyListFactory, CampaignFactory, EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def url(catalogue: Catalogue, what: str = "") -> str:
    name = f"api:catalogue-platoon-charts{'-' + what if what else ''}"
    return reverse(name, args=[catalogue.pk])


@pytest.fixture
def staff(db: None) -> Any:
    return UserFactory(username="stella", is_staff=True)


def chart(name: str, **extra: Any) -> dict[str, Any]:
    return {**CHART, "name": name, **extra}


def test_throwaway_organisers_fill_only_their_own_campaigns_room_never_the_catalogues(
    api_as, open_campaign, organiser, staff, monkeypatch
):
    """The issue's abuse: ten accounts, each with a draft private campaign, entered charts until the
    catalogue was full and the real organiser got 409. Now each fills its own campaign's room only."""
    catalogue = open_campaign.catalogue
    in_use = PlatoonChart.objects.filter(catalogue=catalogue, retired_at__isnull=True).count()
    monkeypatch.setattr(limits, "MAX_CAMPAIGN_CHARTS", 2)
    monkeypatch.setattr(limits, "MAX_LIVE_CHARTS", in_use + 1)  # the catalogue's own and one more
    refusals = []
    for n in range(4):
        throwaway = UserFactory(username=f"throwaway{n}")
        CampaignFactory(organiser=throwaway, catalogue=catalogue, is_public=False)  # a draft
        for m in range(3):
            cache.clear()  # past the per-account rate: the bound under test is the room
            answer = api_as(throwaway).post(url(catalogue), chart(f"Spam {n} {m}"), format="json")
            refusals.append(answer.status_code == 409 and answer.json()["code"] == "too-many-campaign-charts")

    real = api_as(organiser).post(url(catalogue), chart("The real one"), format="json")
    wide = api_as(staff).post(url(catalogue), chart("For everyone"), format="json")

    assert refusals == [False, False, True] * 4
    assert real.status_code == 201, real.json()
    assert real.json()["campaign"] == open_campaign.pk
    assert wide.status_code == 201, wide.json()
    assert wide.json()["campaign"] is None
    assert PlatoonChart.objects.filter(catalogue=catalogue, campaign__isnull=True, entered=True).count() == 1


def test_only_staff_enter_the_whole_catalogues_charts(api_as, open_campaign, organiser, staff):
    catalogue = open_campaign.catalogue

    by_staff = api_as(staff).post(url(catalogue), chart("By staff"), format="json")
    by_organiser = api_as(organiser).post(url(catalogue), chart("By the organiser"), format="json")
    into_another = api_as(organiser).post(
        url(catalogue), chart("Elsewhere", campaign=CampaignFactory(catalogue=catalogue).pk), format="json"
    )
    staff_into_one_not_theirs = api_as(staff).post(
        url(catalogue), chart("Staff elsewhere", campaign=open_campaign.pk), format="json"
    )

    assert (by_staff.status_code, by_staff.json()["campaign"]) == (201, None)
    assert (by_organiser.status_code, by_organiser.json()["campaign"]) == (201, open_campaign.pk)
    assert into_another.status_code == 403
    assert staff_into_one_not_theirs.status_code == 403


def test_an_organiser_of_several_campaigns_says_which_one(api_as, open_campaign, organiser):
    second = CampaignFactory(name="Second front", organiser=organiser, catalogue=open_campaign.catalogue)
    catalogue = open_campaign.catalogue

    unsaid = api_as(organiser).post(url(catalogue), chart("Unsaid"), format="json")
    said = api_as(organiser).post(url(catalogue), chart("Said", campaign=second.pk), format="json")

    assert (unsaid.status_code, unsaid.json()["code"]) == (400, "campaign-needed")
    assert "say which one" in unsaid.json()["detail"]
    assert (said.status_code, said.json()["campaign"]) == (201, second.pk)


@pytest.mark.parametrize("persona", ["player", "stranger", "visitor"])
def test_a_player_a_stranger_and_a_visitor_enter_no_chart_anywhere(
    api_as, api_client, open_campaign, player, stranger, persona
):
    client = {"player": api_as(player), "stranger": api_as(stranger), "visitor": api_client}[persona]

    answers = [
        client.post(url(open_campaign.catalogue), chart("Mine"), format="json"),
        client.post(url(open_campaign.catalogue), chart("Mine", campaign=open_campaign.pk), format="json"),
        client.post(
            f"{url(open_campaign.catalogue, 'import')}?campaign={open_campaign.pk}", {}, format="json"
        ),
    ]

    assert {answer.status_code for answer in answers} <= {401, 403}
    assert not PlatoonChart.objects.filter(entered=True).exists()


def test_a_campaigns_chart_is_shown_and_offered_to_its_members_only(
    api_as, api_client, open_campaign, organiser, player, stranger
):
    catalogue = open_campaign.catalogue
    api_as(organiser).post(url(catalogue), chart("Ours alone"), format="json")
    outsider = UserFactory(username="otto")
    elsewhere = CampaignFactory(catalogue=catalogue)
    EnrolmentFactory(campaign=elsewhere, player=outsider, bloc="SSU")
    key = "ssu.ours-alone"

    seen = {
        name: key in [row["key"] for row in client.get(url(catalogue)).json()]
        for name, client in (("organiser", api_as(organiser)), ("player", api_as(player)),
                             ("outsider", api_as(outsider)), ("stranger", api_as(stranger)),
                             ("visitor", api_client))
    }  # fmt: skip
    catalogue.refresh_from_db()
    theirs = ArmyListFactory(owner=player, catalogue=catalogue, bloc="SSU")
    others = ArmyListFactory(owner=outsider, catalogue=catalogue, bloc="SSU")

    assert seen == {"organiser": True, "player": True, "outsider": False, "stranger": False, "visitor": False}
    lists.army_list_add_platoon(army_list=theirs, chart_key=key)
    with pytest.raises(ArmyListError):
        lists.army_list_add_platoon(army_list=others, chart_key=key)
    assert key in selectors.catalogue_for_list(army_list=theirs).chart_by_key
    assert key not in selectors.catalogue_for_list(army_list=others).chart_by_key
    assert (
        key
        in selectors.catalogue_for_validation(
            catalogue=catalogue, campaign_ids=(open_campaign.pk,)
        ).chart_by_key
    )
    assert (
        key
        not in selectors.catalogue_for_validation(
            catalogue=catalogue, campaign_ids=(elsewhere.pk,)
        ).chart_by_key
    )
    assert key not in selectors.catalogue_for_validation(catalogue=catalogue).chart_by_key


def test_a_campaigns_organisers_retire_its_charts_and_no_other(api_as, open_campaign, organiser, staff):
    catalogue = open_campaign.catalogue
    co = UserFactory(username="cora")
    CoOrganiser.objects.create(campaign=open_campaign, user=co)
    api_as(organiser).post(url(catalogue), chart("Ours"), format="json")
    api_as(staff).post(url(catalogue), chart("Everyone's"), format="json")

    ours = api_as(co).post(reverse("api:catalogue-platoon-chart-retire", args=[catalogue.pk, "ssu.ours"]))
    everyones = api_as(co).post(
        reverse("api:catalogue-platoon-chart-retire", args=[catalogue.pk, "ssu.everyones"])
    )

    assert ours.status_code == 200, ours.json()
    assert ours.json()["retired_at"]
    assert everyones.status_code == 403


def test_a_draft_campaigns_charts_go_when_the_campaign_goes(api_as, open_campaign, organiser):
    draft = CampaignFactory(organiser=UserFactory(username="dora"), catalogue=open_campaign.catalogue)
    api_as(draft.organiser).post(url(open_campaign.catalogue), chart("Draft's"), format="json")

    Campaign.objects.filter(pk=draft.pk).delete()

    assert not PlatoonChart.objects.filter(key="ssu.drafts").exists()


def test_a_list_registered_in_the_campaign_claims_its_chart_and_one_in_another_campaign_may_not(
    api_as, open_campaign, organiser, player
):
    from campaign.errors import CampaignError
    from campaign.options import Status
    from campaign.services.map import campaign_map_load
    from campaign.services.registrations import army_list_register

    catalogue = open_campaign.catalogue
    rifles = ["ssu.volga-rifle-squad"]
    slots = [{"role": "command", "name": "Command", "required": True, "units": rifles},
             {"role": "combat", "name": "Combat", "required": True, "units": rifles}]  # fmt: skip
    entered = api_as(organiser).post(url(catalogue), chart("Ours alone", slots=slots), format="json")
    assert entered.status_code == 201, entered.json()
    catalogue.refresh_from_db()
    army_list = ArmyListFactory(owner=player, catalogue=catalogue, bloc="SSU", points_limit=150)
    for unit in rifles * 2:
        lists.army_list_add_unit(army_list=army_list, unit_key=unit)
    lists.army_list_add_platoon(army_list=army_list, chart_key="ssu.ours-alone")
    for entry, slot in (("e1", "Command"), ("e2", "Combat")):
        lists.army_list_update_entry(army_list=army_list, entry_id=entry, platoon="p1", slot=slot)
    army_list.refresh_from_db()
    outsider = UserFactory(username="otto")
    elsewhere = CampaignFactory(catalogue=catalogue, catalogue_version=catalogue.version)
    campaign_map_load(campaign=elsewhere, actor=elsewhere.organiser)
    Campaign.objects.filter(pk=elsewhere.pk).update(status=Status.REGISTRATION)
    place = EnrolmentFactory(campaign=elsewhere, player=outsider, bloc="SSU")
    copied = ArmyListFactory(owner=outsider, catalogue=catalogue, bloc="SSU", points_limit=150,
                             content=army_list.content)  # fmt: skip

    registered = army_list_register(
        enrolment=open_campaign.enrolments.get(player=player), army_list=army_list, actor=player
    )
    with pytest.raises(CampaignError) as refused:
        army_list_register(enrolment=place, army_list=copied, actor=outsider)

    assert registered.document["platoons"][0]["chart"] == "ssu.ours-alone"
    assert refused.value.code == "list-has-errors"
    assert any("platoon" in problem.code for problem in refused.value.problems[1:])
