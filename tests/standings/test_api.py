"""The standings endpoints: what they answer, their bounds and the organisers' adjustments."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from campaign.models import Campaign
from campaign.options import Status
from campaign.services.versions import results_changed
from standings.models import ADJUSTMENT_POINTS_MAX, Adjustment
from tests.standings.conftest import League

pytestmark = pytest.mark.django_db


def _url(campaign: Campaign, tail: str = "") -> str:
    return f"/api/campaigns/{campaign.pk}/standings/{tail}"


@pytest.fixture
def played(league: League) -> League:
    league.fight("a1", "x1", "attacker", vp=(5, 1), ap=(120, 40), round=1)
    league.fight("s1", "a2", None, vp=(2, 2), round=1)
    league.fight("x1", "s2", "defender", vp=(0, 3), round=2)
    league.standings()
    return league


def test_it_answers_players_blocs_factions_and_status(played: League, organiser: User, api_as: Any) -> None:
    body = api_as(organiser).get(_url(played.campaign)).json()
    assert body["round_number"] == 2
    assert body["is_now"] is True
    assert body["status"]["reports_counted"] == 3
    assert body["status"]["pending"] is False
    first = body["players"][0]
    assert first["rank"] == 1
    assert {"points", "vp_for", "vp_against", "vp_difference", "ap_destroyed", "adjustment"} <= set(first)
    assert {row["key"] for row in body["blocs"]} == {"Allies", "Axis", "SSU"}
    assert body["factions"]


def test_it_answers_as_of_a_round(played: League, organiser: User, api_as: Any) -> None:
    body = api_as(organiser).get(_url(played.campaign), {"round": 1}).json()
    assert body["round_number"] == 1
    assert body["is_now"] is False
    assert sum(row["played"] for row in body["players"]) == 4


@pytest.mark.parametrize("value", ["-1", "32768", "one"])
def test_a_round_out_of_bounds_is_refused(played: League, organiser: User, api_as: Any, value: str) -> None:
    response = api_as(organiser).get(_url(played.campaign), {"round": value})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "round"


def test_everyone_gets_the_same_standings_where_results_are_hidden(
    played: League, organiser: User, api_as: Any
) -> None:
    # A hidden result takes effect (in the standings too) when its round closes: nothing to mask, so a
    # player and an organiser read the same tables, now and as of any round.
    Campaign.objects.filter(pk=played.campaign.pk).update(hide_results_until_close=True)
    player = played.place("a1").player
    for tail, query in (("", {}), ("", {"round": 1}), ("history/", {})):
        seen = api_as(player).get(_url(played.campaign, tail), query).json()
        assert seen == api_as(organiser).get(_url(played.campaign, tail), query).json()
    assert api_as(player).get(_url(played.campaign)).json()["round_number"] == 2


def test_the_status_says_a_recompute_is_due(played: League, organiser: User, api_as: Any) -> None:
    results_changed(campaign=played.campaign)
    body = api_as(organiser).get(_url(played.campaign, "status/")).json()
    assert body["pending"] is True
    assert body["standings_version"] < body["results_version"]


def test_before_any_computation_the_lists_are_empty(league: League, organiser: User, api_as: Any) -> None:
    body = api_as(organiser).get(_url(league.campaign)).json()
    assert body["players"] == []
    assert body["round_number"] is None
    assert body["status"]["computed"] is False


def test_a_players_standing_has_series_and_adjustments(played: League, organiser: User, api_as: Any) -> None:
    place = played.place("x1")
    Adjustment.objects.create(
        campaign=played.campaign, enrolment=place, points=-1, reason="Late", round_number=2
    )
    played.standings()
    body = api_as(organiser).get(_url(played.campaign, f"players/{place.pk}/")).json()
    assert body["rounds"] == [1, 2]
    assert (body["row"]["won"], body["row"]["lost"]) == (0, 2)
    assert body["row"]["adjustment"] == -1
    assert [a["reason"] for a in body["adjustments"]] == ["Late"]


def test_the_history_has_the_leaders_and_the_blocs(played: League, organiser: User, api_as: Any) -> None:
    body = api_as(organiser).get(_url(played.campaign, "history/"), {"leaders": 2}).json()
    assert len(body["points"]["series"]) == 2
    assert {s["key"] for s in body["sectors"]["series"]} == {"Allies", "Axis", "SSU"}
    assert api_as(organiser).get(_url(played.campaign, "history/"), {"leaders": 0}).status_code == 400


def test_an_organiser_adjusts_points(played: League, organiser: User, api_as: Any) -> None:
    place = played.place("s2")
    response = api_as(organiser).post(
        _url(played.campaign, "adjustments/"),
        {"player": place.pk, "points": 3, "reason": "Hosted"},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["points"] == 3
    assert response.json()["actor"]["username"] == organiser.username
    listed = api_as(organiser).get(_url(played.campaign, "adjustments/"), {"player": place.pk}).json()
    assert [row["reason"] for row in listed["results"]] == ["Hosted"]


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [({"points": ADJUSTMENT_POINTS_MAX + 1, "reason": "x"}, "points", "max_value"),
     ({"points": 0, "reason": "x"}, "points", "out-of-range"),
     ({"points": 1, "reason": "  "}, "reason", "blank"),
     ({"points": 1, "reason": "x", "colour": "red"}, "colour", "unknown-field"),
     ({"points": 1, "reason": "x", "player": 999_999}, "player", "not-a-player")],
)  # fmt: skip
def test_a_bad_adjustment_names_the_field(
    played: League, organiser: User, api_as: Any, body: dict[str, Any], field: str, code: str
) -> None:
    body = {"player": played.place("s2").pk, **body}
    response = api_as(organiser).post(_url(played.campaign, "adjustments/"), body, format="json")
    assert response.status_code == 400
    assert (field, code) in {(e["field"], e["code"]) for e in response.json()["errors"]}
    assert not Adjustment.objects.exists()


def test_no_adjustment_once_the_campaign_is_finished(played: League, organiser: User, api_as: Any) -> None:
    Campaign.objects.filter(pk=played.campaign.pk).update(status=Status.FINISHED)
    response = api_as(organiser).post(
        _url(played.campaign, "adjustments/"),
        {"player": played.place("s2").pk, "points": 1, "reason": "x"},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["code"] == "campaign-not-running"
