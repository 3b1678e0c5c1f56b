"""What the round waits on (counts, panel, API) and the close that waits for every dispute.

Built on the battles fixtures: round 1 of a running campaign is open, x1 (Axis) attacks a1 (Allies)
over a neutral sector, both with a registered list; the other four players (a2, s1, s2, x2) have none.
Reports are made by the real services.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from battles.services import report_resolve
from campaign.errors import CampaignConflictError
from campaign.models import (
    Battle,
    BattleStatus,
    Campaign,
    EntryKind,
    ResourceEntry,
    Round,
    RoundStatus,
    Sector,
)
from campaign.selectors.dashboard import CLOSE_ROUND, round_waits_on
from campaign.selectors.round_close import round_close_preview
from campaign.services.rounds import round_close

pytestmark = pytest.mark.django_db


def words(content: bytes) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", content.decode()).split()).replace(" .", ".")


def test_it_counts_a_scheduled_battle_then_the_report_waiting_then_the_dispute(report_world):
    world = report_world

    before = round_waits_on(campaign=world.campaign)
    assert (before.round_number, before.battles_unreported, before.reports_waiting, before.disputes) == (
        1,
        1,
        0,
        0,
    )
    assert (before.players_admitted, before.players_without_list, before.join_requests) == (6, 4, 0)
    assert before.next_step == CLOSE_ROUND

    report = world.submitted()
    waiting = round_waits_on(campaign=world.campaign)
    assert (waiting.battles_unreported, waiting.reports_waiting, waiting.disputes) == (0, 1, 0)
    hours = world.campaign.report_confirm_hours
    assert waiting.reports_confirm_at == report.submitted_at + timedelta(hours=hours)

    report.refresh_from_db()
    from battles.services import report_dispute

    report_dispute(report=report, actor=world.defender, reason="I kept the squad")
    disputed = round_waits_on(campaign=world.campaign)
    assert (disputed.reports_waiting, disputed.disputes, disputed.close_blocked) == (0, 1, True)


def test_it_refuses_to_close_a_round_with_a_dispute_then_closes_it_once_resolved(report_world):
    world = report_world
    report = world.disputed()

    with pytest.raises(CampaignConflictError) as caught:
        round_close(round=world.battle.round, actor=world.creator)

    assert caught.value.code == "disputes-open"
    assert "1 battle report of round 1 is disputed" in caught.value.message
    assert Round.objects.get(pk=world.battle.round_id).status == RoundStatus.OPEN
    report_resolve(report=report, actor=world.creator, decision="voided", reason="Replay it next round")
    round_close(round=world.battle.round, actor=world.creator)
    assert Round.objects.get(pk=world.battle.round_id).status == RoundStatus.CLOSED


def test_the_close_preview_says_what_closing_does_with_each_open_thing(report_world):
    world = report_world
    world.hide_results()
    world.confirmed()  # agreed while results are hidden: it waits for the close
    other, lists = world.another_battle(world.place("x2"), world.place("a2"))
    world.another_battle(world.place("x2"), world.place("a1"), lists=lists)  # nobody reports it

    from battles.services import report_submit

    report_submit(battle=other, actor=other.attacker.player, side="attacker", data=world.data(
        attacker_registration=lists["attacker"], defender_registration=lists["defender"]))  # fmt: skip

    preview = round_close_preview(campaign=world.campaign, round=world.battle.round)

    assert [line.battle_id for line in preview.hidden_results] == [world.battle.pk]
    assert preview.hidden_results[0].outcome == f"{world.battle.attacker.display_name} wins"
    assert [line.battle_id for line in preview.reports_unanswered] == [other.pk]
    assert len(preview.unreported) == 1
    assert preview.settled_as == "unplayed"
    assert {line.holder for line in preview.income} == {"Allies", "Axis", "SSU"}
    assert (preview.disputes, preview.blocked) == ([], False)


@pytest.mark.parametrize("held_by", ["bloc", "player"])
def test_the_income_previewed_is_what_the_close_pays_once_the_hidden_results_take_effect(
    report_world, held_by
):
    world = report_world
    Campaign.objects.filter(pk=world.campaign.pk).update(hide_results_until_close=True, resources_held_by=held_by,
                                                         income_base=1)  # fmt: skip
    world.campaign.refresh_from_db()
    world.confirmed()  # x1 (Axis) beat a1 over a neutral sector: the Axis takes it, but only at the close
    sector = Sector.objects.get(pk=world.battle.sector_id)
    assert sector.owner == ""

    previewed = {
        (line.holder, line.amount, line.reason)
        for line in round_close_preview(campaign=world.campaign, round=world.battle.round).income
    }
    round_close(round=world.battle.round, actor=world.creator)

    paid = {
        (entry.enrolment.display_name if entry.enrolment else entry.bloc, entry.amount, entry.reason)
        for entry in ResourceEntry.objects.filter(kind=EntryKind.INCOME).select_related("enrolment__player")
    }
    assert previewed - {line for line in previewed if line[1] == 0} == paid
    taker = "Axis" if held_by == "bloc" else world.battle.attacker.display_name
    assert any(holder == taker and sector.name in reason for holder, _amount, reason in paid)


def test_the_close_page_links_each_dispute_and_offers_no_close_until_resolved(client, report_world):
    world = report_world
    report = world.disputed()
    client.force_login(world.creator)
    url = reverse("campaign:round_close", args=[world.campaign.pk, 1])

    page = client.get(url).content
    refused = client.post(url)

    assert reverse("campaign:battle", args=[world.campaign.pk, world.battle.pk]).encode() in page
    assert "1 disputed report must be resolved first." in words(page)
    assert b"Yes: close round 1" not in page
    assert refused.status_code == 200
    assert "1 battle report of round 1 is disputed" in words(refused.content)
    report_resolve(report=report, actor=world.creator, decision="accepted", reason="The photos agree")
    assert b"Yes: close round 1" in client.get(url).content
    assert client.post(url).status_code == 302


def test_the_api_refuses_the_close_with_409_and_its_preview_lists_the_dispute(report_world):
    world = report_world
    world.disputed()
    api = world.client("creator")
    url = world.campaign_url("rounds/1/close/")

    refused = api.post(url)
    preview = api.get(url)

    assert (refused.status_code, refused.json()["code"]) == (409, "disputes-open")
    assert preview.status_code == 200
    assert preview.json()["blocked"] is True
    assert [row["battle_id"] for row in preview.json()["disputes"]] == [world.battle.pk]


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("creator", 200), ("co_organiser", 200), ("attacker", 403), ("bystander", 403), ("stranger", 404),
     ("anonymous", 404)],
)  # fmt: skip
def test_only_organisers_read_the_dashboard_counts(report_world, persona, expected):
    world = report_world
    world.publish(public=False)
    world.submitted()

    response = world.client(persona).get(world.campaign_url("dashboard/"))

    assert response.status_code == expected
    if expected == 200:
        body = response.json()
        assert (body["reports_waiting"], body["battles_unreported"], body["players_without_list"]) == (
            1,
            0,
            4,
        )
        assert body["next_step"] == "close-round"
        assert body["reports_confirm_at"] is not None


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("creator", 200), ("co_organiser", 200), ("attacker", 403), ("stranger", 404), ("anonymous", 302)],
)
def test_only_organisers_poll_the_panel(client, report_world, persona, expected):
    world = report_world
    world.publish(public=False)
    user = world.user(persona)
    if user is not None:
        client.force_login(user)

    response = client.get(reverse("campaign:dashboard_waits", args=[world.campaign.pk]))

    assert response.status_code == expected


def test_the_panel_answers_204_while_nothing_changed_and_the_fresh_panel_once_a_player_acts(
    client, report_world
):
    world = report_world
    client.force_login(world.creator)
    url = reverse("campaign:dashboard_waits", args=[world.campaign.pk])
    first = client.get(url).content.decode()
    digest = re.search(r'dashboard/waits/\?v=([0-9a-f]+)"', first).group(1)

    unchanged = client.get(url, {"v": digest})
    world.submitted()
    changed = client.get(url, {"v": digest})

    assert "1 battle of round 1 not yet reported." in words(first.encode())
    assert unchanged.status_code == 204
    assert changed.status_code == 200
    text = words(changed.content)
    assert "1 report waits for the opponent (the oldest is confirmed by itself in 72 hours)." in text
    assert "0 battles of round 1 not yet reported." in text
    assert f"v={digest}" not in changed.content.decode()


def test_the_dashboard_leads_with_the_rounds_next_step_and_keeps_finishing_secondary(client, report_world):
    world = report_world
    client.force_login(world.creator)

    page = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).content.decode()

    close = reverse("campaign:round_close", args=[world.campaign.pk, 1])
    assert f'<a class="button" href="{close}" data-testid="next-step">Close round 1…</a>' in page
    finish = reverse("campaign:status", args=[world.campaign.pk, "finish"])
    assert f'<a class="button button-secondary" href="{finish}">Finish the campaign…</a>' in page
    assert 'hx-trigger="every 10s"' in page


def test_a_battle_settled_by_the_close_is_counted_no_more(report_world):
    world = report_world
    round_close(round=world.battle.round, actor=world.creator)

    after = round_waits_on(campaign=world.campaign)

    assert Battle.objects.get(pk=world.battle.pk).status == BattleStatus.UNPLAYED
    assert (after.round_number, after.battles_unreported, after.next_step) == (None, 0, "open-round")
