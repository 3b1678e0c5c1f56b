"""The standings pages: the table, the status poll, the round selector, hidden results, adjustments,
a player's page and the printable page."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from armies.models import Faction
from battles.services import report_confirm, report_submit
from campaign.models import Campaign, Enrolment, LogEntry, LogKind
from campaign.options import Status
from campaign.services.versions import results_changed
from standings.models import ADJUSTMENT_POINTS_MAX, Adjustment
from standings.services import standings_recompute
from tests.standings.conftest import League

pytestmark = pytest.mark.django_db


def _client(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def _played(league: League) -> None:
    league.fight("a1", "x1", "attacker", vp=(5, 1), ap=(120, 40))
    league.fight("s1", "x2", None, vp=(2, 2))
    league.standings()


def test_it_shows_players_blocs_factions_and_when_computed(league: League, organiser) -> None:
    _played(league)
    html = _client(organiser).get(reverse("standings:standings", args=[league.campaign.pk])).content.decode()
    assert 'data-player="A1"' in html
    assert 'data-testid="blocs-table"' in html
    # Nobody of this league claims a faction: a table of one row "No faction" would say nothing.
    assert 'data-testid="factions-table"' not in html
    assert "from 2 reports" in html
    assert 'data-pending="false"' in html
    assert 'data-testid="points-chart"' in html
    assert 'data-testid="sectors-chart"' in html


def test_it_shows_the_factions_by_name_once_players_claim_them(league: League, organiser) -> None:
    Faction.objects.update_or_create(catalogue=league.campaign.catalogue, key="coastal-raiders",
                                     defaults={"name": "Coastal Raiders", "bloc": "Allies"})  # fmt: skip
    Enrolment.objects.filter(pk=league.place("a1").pk).update(faction="coastal-raiders")
    _played(league)

    html = _client(organiser).get(reverse("standings:standings", args=[league.campaign.pk])).content.decode()

    assert 'data-testid="factions-table"' in html
    assert '<th scope="row">Coastal Raiders</th>' in html
    assert '<th scope="row">No faction</th>' in html
    assert '<th scope="row">coastal-raiders</th>' not in html


def test_it_marks_shared_ranks_for_true_ties(league: League, organiser) -> None:
    _played(league)
    html = _client(organiser).get(reverse("standings:standings", args=[league.campaign.pk])).content.decode()
    # Players who did not play tie with each other: one rank, written "=n" on each of their rows; a rank
    # nobody shares is written plain.
    ranks = re.findall(r'<td data-testid="rank">(=?)(\d+)</td>', html)
    by_rank = Counter(number for _mark, number in ranks)
    assert any(count > 1 for count in by_rank.values())
    for mark, number in ranks:
        assert mark == ("=" if by_rank[number] > 1 else ""), (mark, number)


def test_it_polls_every_two_seconds_while_a_recompute_is_due(league: League, organiser) -> None:
    _played(league)
    results_changed(campaign=league.campaign)
    html = _client(organiser).get(reverse("standings:standings", args=[league.campaign.pk])).content.decode()
    assert 'data-pending="true"' in html
    assert 'hx-trigger="every 2s"' in html
    assert "standings-pending" in html


def test_the_poll_brings_the_tables_once_fresh_standings_land(league: League, organiser) -> None:
    _played(league)
    client = _client(organiser)
    status_url = reverse("standings:status", args=[league.campaign.pk])
    seen = league.campaign.standings.results_version
    quiet = client.get(status_url, {"seen": seen}).content.decode()
    assert "hx-swap-oob" not in quiet
    league.fight("a2", "s2", "defender", vp=(0, 4), round=1)
    results_changed(campaign=league.campaign)
    standings_recompute(campaign_id=league.campaign.pk)
    fresh = client.get(status_url, {"seen": seen}).content.decode()
    assert 'id="standings-body" hx-swap-oob="true"' in fresh
    assert 'data-player="S2"' in fresh
    assert "from 3 reports" in fresh


def test_a_round_is_chosen_with_the_selector(league: League, organiser) -> None:
    league.fight("a1", "x1", "attacker", round=1)
    league.fight("x1", "a1", "attacker", round=2)
    league.standings()
    client = _client(organiser)
    url = reverse("standings:standings", args=[league.campaign.pk])
    assert "As of round 1." in client.get(url, {"round": 1}).content.decode()
    assert "As of round 2 (now)." in client.get(url).content.decode()
    # Not a round number: now.
    assert "As of round 2 (now)." in client.get(url, {"round": "x"}).content.decode()


def test_a_campaign_hiding_results_says_when_they_count(league: League, organiser) -> None:
    league.fight("a1", "x1", "attacker", round=1)
    league.fight("x1", "a1", "attacker", round=2)
    league.standings()
    Campaign.objects.filter(pk=league.campaign.pk).update(hide_results_until_close=True)
    url = reverse("standings:standings", args=[league.campaign.pk])
    seen_by_player = _client(league.place("a1").player).get(url).content.decode()
    assert "As of round 2 (now)." in seen_by_player
    assert "a round's results count here once it closes" in seen_by_player


def test_an_organiser_adjusts_points_with_a_reason(league: League, organiser) -> None:
    _played(league)
    place = league.place("s1")
    response = _client(organiser).post(
        reverse("standings:adjust", args=[league.campaign.pk]),
        {"adjust-enrolment": place.pk, "adjust-points": -2, "adjust-reason": "Late list"},
    )
    assert response.status_code == 302
    adjustment = Adjustment.objects.get(enrolment=place)
    assert (adjustment.points, adjustment.reason) == (-2, "Late list")
    assert LogEntry.objects.filter(campaign=league.campaign, kind=LogKind.POINTS_ADJUSTED).exists()


@pytest.mark.parametrize(
    ("points", "reason", "says"),
    [(0, "why", "at least one point"), (ADJUSTMENT_POINTS_MAX + 1, "why", "less than or equal"),
     ("two", "why", "whole number"), (3, "", "required")],
)  # fmt: skip
def test_a_bad_adjustment_is_refused_and_the_form_keeps_what_was_typed(
    league: League, organiser, points: object, reason: str, says: str
) -> None:
    _played(league)
    response = _client(organiser).post(
        reverse("standings:adjust", args=[league.campaign.pk]),
        {"adjust-enrolment": league.place("s1").pk, "adjust-points": points, "adjust-reason": reason},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert says in html
    assert f'value="{points}"' in html or points == ""
    assert not Adjustment.objects.exists()


def test_an_adjustment_refused_by_the_service_is_said_next_to_the_form(league: League, organiser) -> None:
    _played(league)
    Campaign.objects.filter(pk=league.campaign.pk).update(status=Status.FINISHED)
    response = _client(organiser).post(
        reverse("standings:adjust", args=[league.campaign.pk]),
        {"adjust-enrolment": league.place("s1").pk, "adjust-points": 2, "adjust-reason": "Late"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "campaign points are adjusted while the campaign runs" in html
    assert "campaign-not-running" not in html  # the code is the API's
    assert "Late</textarea>" in html
    assert not Adjustment.objects.exists()


def test_a_players_page_has_record_battles_lists_and_adjustments(league: League, organiser) -> None:
    battle = league.fight("a1", "x1", "attacker", vp=(5, 1))
    place = league.place("a1")
    Adjustment.objects.create(campaign=league.campaign, enrolment=place, points=3, reason="Painted army",
                              round_number=1)  # fmt: skip
    league.standings()
    html = (
        _client(organiser)
        .get(reverse("standings:player", args=[league.campaign.pk, place.pk]))
        .content.decode()
    )
    assert reverse("campaign:battle", args=[league.campaign.pk, battle.pk]) in html
    assert '<dd data-testid="wdl">1 / 1 / 0 / 0</dd>' in html
    assert "Painted army" in html
    assert 'data-testid="player-chart"' in html


def test_a_place_of_another_campaign_is_not_found(league: League, organiser) -> None:
    other = league.place("a1").pk + 10_000
    response = _client(organiser).get(reverse("standings:player", args=[league.campaign.pk, other]))
    assert response.status_code == 404


def test_the_printable_page_has_the_tables_and_no_navigation(league: League, organiser) -> None:
    _played(league)
    html = _client(organiser).get(reverse("standings:print", args=[league.campaign.pk])).content.decode()
    assert 'data-player="A1"' in html
    assert "@page { size: A4" in html
    assert "campaign-subnav" not in html
    assert "site-header" not in html


def test_a_players_page_lists_the_lists_their_reports_name(
    league: League, organiser, battle, report_data
) -> None:
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    report_confirm(report=report, actor=battle.defender.player)
    html = (
        _client(organiser)
        .get(reverse("standings:player", args=[league.campaign.pk, battle.attacker_id]))
        .content.decode()
    )
    registration = report.attacker_registration
    assert reverse("campaign:registration", args=[league.campaign.pk, registration.pk]) in html
    assert f"{registration.name}</a> ({registration.total_ap} AP) — 1 battle" in html
    assert report.defender_registration.name not in html.split('id="lists-heading"')[1].split("</section>")[0]
