"""Hidden results: while the campaign keeps the open round's results until it closes, no API output tells a
player outside the battle (or a visitor) who won; the organisers always see it, the battle's players see
their own battle's; once the round closes everyone sees everything.

The campaign here is public, so strangers and visitors see it at all; x1 (Axis) beat a1 (Allies) for a
neutral sector in the open round 1 and the report is confirmed: the sector is Axis now and the Axis has
its award.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from campaign.models import Challenge, Sector
from campaign.services.rounds import round_close

pytestmark = pytest.mark.django_db

KEPT_FROM = ("bystander", "stranger", "anonymous")
SHOWN_TO = ("creator", "co_organiser", "attacker", "defender")


@pytest.fixture
def hidden(report_world: Any) -> Any:
    report_world.publish(True)
    report_world.hide_results()
    report_world.confirmed()
    assert Sector.objects.get(pk=report_world.battle.sector_id).owner == "Axis"
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
def test_the_organisers_and_the_battles_players_see_the_report(hidden, persona):
    response = hidden.client(persona).get(hidden.url())

    assert (response.status_code, response.json()["result"]["winner"]) == (200, "attacker")


def test_the_reports_list_leaves_the_open_rounds_results_out_but_your_own(hidden):
    def listed(persona: str, query: str = "") -> list[int]:
        return [row["battle"] for row in get(hidden, persona, f"reports/{query}")["results"]]

    assert listed("bystander") == listed("stranger") == listed("anonymous") == []
    assert listed("bystander", "?status=confirmed") == []
    assert listed("attacker") == listed("defender") == listed("creator") == [hidden.battle.pk]
    round_close(round=hidden.battle.round, actor=hidden.creator)
    assert listed("stranger") == [hidden.battle.pk]


def shown_battle(world: Any, persona: str, query: str = "") -> dict[str, Any]:
    rows = [row for row in get(world, persona, f"battles/{query}")["results"] if row["id"] == world.battle.pk]
    assert len(rows) == 1
    return dict(rows[0])


@pytest.mark.parametrize("persona", KEPT_FROM)
def test_the_battles_show_a_hidden_result_as_reported_and_filter_it_so(hidden, persona):
    row = shown_battle(hidden, persona)
    detail = get(hidden, persona, f"battles/{hidden.battle.pk}/")
    round_detail = get(hidden, persona, "rounds/1/")

    assert (row["status"], row["result"], row["result_hidden"]) == ("reported", None, True)
    assert (detail["status"], detail["result"]) == ("reported", None)
    assert [(b["status"], b["result"]) for b in round_detail["battles"]] == [("reported", None)]
    # The sector at stake is shown as the last closed round left it: neutral.
    assert row["sector"]["owner"] is None
    assert get(hidden, persona, "battles/?status=confirmed")["results"] == []
    assert [b["id"] for b in get(hidden, persona, "battles/?status=reported")["results"]] == [
        hidden.battle.pk
    ]


def test_every_battle_of_the_open_round_says_its_result_is_hidden_not_only_the_confirmed_ones(hidden):
    other, _lists = hidden.another_battle(hidden.place("x2"), hidden.place("a2"))

    rows = {row["id"]: row for row in get(hidden, "stranger", "battles/")["results"]}

    assert {rows[other.pk]["status"], rows[hidden.battle.pk]["status"]} == {"scheduled", "reported"}
    assert rows[other.pk]["result_hidden"] is rows[hidden.battle.pk]["result_hidden"] is True


@pytest.mark.parametrize("persona", SHOWN_TO)
def test_the_organisers_and_the_battles_players_see_the_battles_result(hidden, persona):
    row = shown_battle(hidden, persona, "?status=confirmed")

    assert (row["status"], row["result"]["winner"], row["result_hidden"]) == ("confirmed", "attacker", False)


def test_the_map_shows_everyone_but_the_organisers_the_end_of_the_last_closed_round(hidden):
    key = sector_key(hidden)

    def owner(persona: str, query: str = "") -> tuple[Any, Any, Any]:
        state = get(hidden, persona, f"sectors/{query}")
        (sector,) = [row for row in state["sectors"] if row["key"] == key]
        return sector["owner"], state["round"], state["results_hidden"]

    for persona in ("bystander", "stranger", "anonymous", "attacker", "defender"):
        assert owner(persona) == (None, 0, True), persona
        assert owner(persona, "?round=1") == (None, 0, True), persona
    assert owner("creator") == owner("co_organiser") == ("Axis", None, False)
    assert owner("creator", "?round=1") == ("Axis", 1, False)
    round_close(round=hidden.battle.round, actor=hidden.creator)
    assert owner("stranger") == ("Axis", None, False)


def test_the_map_picture_too(hidden):
    key = sector_key(hidden)

    def drawn(persona: str) -> str:
        svg = hidden.client(persona).get(hidden.campaign_url("map.svg")).content.decode()
        return re.findall(rf'data-sector="{key}" data-owner="([^"]+)"', svg)[0]

    assert (drawn("anonymous"), drawn("attacker"), drawn("creator")) == ("neutral", "neutral", "Axis")


def test_the_log_and_the_sectors_history_leave_out_what_the_result_wrote(hidden):
    key = sector_key(hidden)
    result_kinds = {"report-changed", "result-recorded"}

    def log(persona: str) -> list[dict[str, Any]]:
        return list(get(hidden, persona, "log/")["results"])

    kept = log("stranger")
    assert not [entry for entry in kept if entry["kind"] in result_kinds]
    assert not [entry for entry in kept if entry["subject"] == f"sector:{key}"]
    assert not get(hidden, "bystander", f"sectors/{key}/history/")
    full = log("creator")
    assert {entry["kind"] for entry in full} >= result_kinds
    assert [entry["after"] for entry in get(hidden, "creator", f"sectors/{key}/history/")] == ["Axis"]
    round_close(round=hidden.battle.round, actor=hidden.creator)
    assert {entry["kind"] for entry in log("stranger")} >= result_kinds


def test_the_balances_and_the_ledger_pay_the_award_when_the_round_closes(hidden):
    award = hidden.campaign.award_win

    def axis(persona: str) -> Any:
        lines = [line["balance"] for line in get(hidden, persona, "balances/") if line["bloc"] == "Axis"]
        return lines[0] if lines else None

    def awards(persona: str) -> list[int]:
        return [row["amount"] for row in get(hidden, persona, "ledger/")["results"] if row["kind"] == "award"]

    # The award is Axis's only entry: hidden, the Axis shows 0, as it did before it won (a bloc with
    # admitted players is always listed).
    assert (axis("bystander"), awards("bystander")) == (0, [])
    assert (axis("attacker"), awards("attacker")) == (0, [])
    assert (axis("creator"), awards("creator")) == (award, [award])
    round_close(round=hidden.battle.round, actor=hidden.creator)
    assert awards("stranger") == [award]
    income = [
        row["amount"]
        for row in get(hidden, "creator", "ledger/?bloc=Axis")["results"]
        if row["kind"] == "income"
    ]
    assert axis("stranger") == award + sum(income)


def test_a_challenge_over_the_sector_shows_it_as_the_last_round_left_it(hidden):
    Challenge.objects.create(
        campaign=hidden.campaign, round=hidden.battle.round, challenger=hidden.place("s1"),
        challenged=hidden.place("x2"), sector=hidden.battle.sector, deadline=hidden.battle.round.deadline,
    )  # fmt: skip

    def owner(persona: str) -> Any:
        return get(hidden, persona, "challenges/")["results"][0]["sector"]["owner"]

    assert (owner("stranger"), owner("creator")) == (None, "Axis")


def test_without_the_setting_everyone_sees_a_confirmed_result_at_once(report_world):
    report_world.publish(True)
    report_world.confirmed()

    row = shown_battle(report_world, "anonymous")

    assert (row["status"], row["result"]["winner"], row["result_hidden"]) == ("confirmed", "attacker", False)
    assert row["sector"]["owner"] == "Axis"
    assert report_world.client("anonymous").get(report_world.url()).status_code == 200
