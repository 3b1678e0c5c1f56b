"""Hidden results through the API: a result agreed while the round is open takes effect when it closes.

The campaign here is public, so strangers and visitors see it at all; x1 (Axis) beat a1 (Allies) for a
neutral sector in the open round 1 and a1 confirmed. Until the round closes nothing of the campaign
changes for anyone (organisers included): the sector stays neutral, no award is paid, the battle is
"reported". The organisers and the battle's players see the report itself (agreed, waiting for the
close); every other check (challenges, purchases) works on the state as it is, which holds no hidden
result, so no refusal can tell one either. At the close the result takes effect for everyone at once.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from accounts.models import Notification
from campaign.models import Sector
from campaign.services.economy import Holder, ledger_adjust
from campaign.services.rounds import round_close

pytestmark = pytest.mark.django_db

KEPT_FROM = ("bystander", "stranger", "anonymous")
SHOWN_TO = ("creator", "co_organiser", "attacker", "defender")
EVERYONE = SHOWN_TO + KEPT_FROM


@pytest.fixture
def hidden(report_world: Any) -> Any:
    report_world.publish(True)
    report_world.hide_results()
    report_world.confirmed()
    assert Sector.objects.get(pk=report_world.battle.sector_id).owner == ""
    return report_world


def get(world: Any, persona: str, tail: str) -> Any:
    response = world.client(persona).get(world.campaign_url(tail))
    assert response.status_code == 200, response.content
    return response.json()


def sector_key(world: Any) -> str:
    return str(Sector.objects.get(pk=world.battle.sector_id).key)


@pytest.mark.parametrize("persona", KEPT_FROM)
def test_the_report_is_refused_until_the_round_closes(hidden, persona):
    refused = hidden.client(persona).get(hidden.url())
    round_close(round=hidden.battle.round, actor=hidden.creator)
    shown = hidden.client(persona).get(hidden.url())

    assert (refused.status_code, refused.json()["code"]) == (403, "result-hidden")
    assert (shown.status_code, shown.json()["result"]["winner"]) == (200, "attacker")


@pytest.mark.parametrize("persona", SHOWN_TO)
def test_the_organisers_and_the_battles_players_see_the_report_agreed(hidden, persona):
    response = hidden.client(persona).get(hidden.url())

    assert response.status_code == 200
    assert (response.json()["status"], response.json()["result"]["winner"]) == ("confirmed", "attacker")


def test_the_reports_list_leaves_the_open_rounds_reports_out_but_your_own(hidden):
    def listed(persona: str, query: str = "") -> list[int]:
        return [row["battle"] for row in get(hidden, persona, f"reports/{query}")["results"]]

    assert listed("bystander") == listed("stranger") == listed("anonymous") == []
    assert listed("bystander", "?status=confirmed") == []
    assert listed("attacker") == listed("defender") == listed("creator") == [hidden.battle.pk]
    round_close(round=hidden.battle.round, actor=hidden.creator)
    assert listed("stranger") == [hidden.battle.pk]


@pytest.mark.parametrize("persona", EVERYONE)
def test_the_battle_stays_reported_for_everyone_until_the_round_closes(hidden, persona):
    (row,) = [row for row in get(hidden, persona, "battles/")["results"] if row["id"] == hidden.battle.pk]
    detail = get(hidden, persona, f"battles/{hidden.battle.pk}/")

    assert (row["status"], row["result"], row["sector"]["owner"]) == ("reported", None, None)
    assert (detail["status"], detail["result"]) == ("reported", None)
    assert get(hidden, persona, "battles/?status=confirmed")["results"] == []
    round_close(round=hidden.battle.round, actor=hidden.creator)
    (row,) = [row for row in get(hidden, persona, "battles/")["results"] if row["id"] == hidden.battle.pk]
    assert (row["status"], row["result"]["winner"], row["sector"]["owner"]) == (
        "confirmed",
        "attacker",
        "Axis",
    )


def test_every_battle_of_the_open_round_says_its_result_is_hidden(hidden):
    other, _lists = hidden.another_battle(hidden.place("x2"), hidden.place("a2"))

    rows = {row["id"]: row for row in get(hidden, "stranger", "battles/")["results"]}

    assert {rows[other.pk]["status"], rows[hidden.battle.pk]["status"]} == {"scheduled", "reported"}
    assert rows[other.pk]["result_hidden"] is rows[hidden.battle.pk]["result_hidden"] is True


def test_the_map_the_log_and_the_picture_move_when_the_round_closes(hidden):
    key = sector_key(hidden)

    def owner(persona: str) -> Any:
        state = get(hidden, persona, "sectors/")
        return next(row["owner"] for row in state["sectors"] if row["key"] == key)

    def drawn(persona: str) -> str:
        svg = hidden.client(persona).get(hidden.campaign_url("map.svg")).content.decode()
        return re.findall(rf'data-sector="{key}" data-owner="([^"]+)"', svg)[0]

    def kinds(persona: str) -> set[str]:
        return {entry["kind"] for entry in get(hidden, persona, "log/")["results"]}

    assert {owner(p) for p in EVERYONE} == {None}
    assert {drawn(p) for p in EVERYONE} == {"neutral"}
    assert get(hidden, "creator", "sectors/")["results_hidden"] is True
    assert not get(hidden, "creator", f"sectors/{key}/history/")
    assert "result-recorded" not in kinds("creator")
    # The report's steps are the organisers' to read until the close.
    assert "report-changed" in kinds("creator")
    assert "report-changed" not in kinds("stranger")

    round_close(round=hidden.battle.round, actor=hidden.creator)

    assert {owner(p) for p in EVERYONE} == {"Axis"}
    assert {drawn(p) for p in EVERYONE} == {"Axis"}
    assert kinds("stranger") >= {"report-changed", "result-recorded"}
    assert [entry["after"] for entry in get(hidden, "stranger", f"sectors/{key}/history/")] == ["Axis"]


def test_the_award_is_paid_when_the_round_closes_before_its_income(hidden):
    award = hidden.campaign.award_win

    def axis(persona: str) -> Any:
        return next(line["balance"] for line in get(hidden, persona, "balances/") if line["bloc"] == "Axis")

    def ledger(persona: str) -> list[str]:
        return [row["kind"] for row in get(hidden, persona, "ledger/?bloc=Axis")["results"]]

    assert {axis(p) for p in EVERYONE} == {0}
    assert "award" not in ledger("creator")
    round_close(round=hidden.battle.round, actor=hidden.creator)
    income = [row["amount"] for row in get(hidden, "creator", "ledger/?bloc=Axis")["results"]
              if row["kind"] == "income"]  # fmt: skip
    # Newest first: the income (paid on the map the result left) after the award.
    assert ledger("stranger")[-2:] == ["income", "award"]
    assert {axis(p) for p in EVERYONE} == {award + sum(income)}


def test_a_challenge_over_the_sector_is_judged_on_the_map_without_the_hidden_result(hidden):
    # s1 (SSU) challenges x2 (Axis) over the neutral sector x1 won: still neutral, so it may be attacked
    # from anywhere, and nothing in the answer names its next holder.
    response = hidden.client_of("s1").post(
        hidden.campaign_url("challenges/"),
        {"challenged": hidden.place("x2").pk, "sector": sector_key(hidden)},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["sector"]["owner"] is None
    owners = {
        persona: get(hidden, persona, "challenges/")["results"][0]["sector"]["owner"] for persona in EVERYONE
    }
    assert set(owners.values()) == {None}


def test_a_purchase_is_checked_against_the_sectors_as_they_are(hidden):
    # Fortifications are bought in a sector the buyer's bloc holds: the neutral sector x1 won is nobody's
    # until the close, so the Axis cannot buy there yet, refused as for any neutral sector.
    ledger_adjust(
        campaign=hidden.campaign, holder=Holder(bloc="Axis"), amount=50, reason="test", actor=hidden.creator
    )

    def buy() -> Any:
        body = {"sector": sector_key(hidden), "kind": "strongpoint"}
        return hidden.client("attacker").post(hidden.campaign_url("purchases/"), body, format="json")

    refused = buy()
    assert refused.status_code == 400
    assert refused.json()["detail"] == f"sector: Axis does not hold {hidden.battle.sector.name}"
    round_close(round=hidden.battle.round, actor=hidden.creator)
    assert buy().status_code == 201


def test_without_the_setting_everyone_sees_a_confirmed_result_at_once(report_world):
    report_world.publish(True)
    report_world.confirmed()

    (row,) = get(report_world, "anonymous", "battles/")["results"]

    assert (row["status"], row["result"]["winner"], row["result_hidden"]) == ("confirmed", "attacker", False)
    assert row["sector"]["owner"] == "Axis"
    assert report_world.client("anonymous").get(report_world.url()).status_code == 200


def test_the_reporter_is_told_when_their_agreed_result_takes_effect(hidden):
    told = {
        persona: list(
            Notification.objects.filter(user=hidden.user(persona)).values_list("message", flat=True)
        )
        for persona in ("attacker", "defender")
    }

    assert (
        "The report of your battle is confirmed; it takes effect when the round closes." in told["attacker"]
    )
    # The defender confirmed it: nobody is told of their own act.
    assert not any("is confirmed" in message for message in told["defender"])
