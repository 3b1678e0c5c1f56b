"""The schedule-a-battle page: players by name grouped by bloc, front-line sectors first, refusals beside the
field; and a player without a registered list flagged wherever they are paired, challenged or scheduled."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import Battle, BattleSource, BattleStatus, Campaign, Round
from campaign.services.challenges import challenge_issue
from campaign.services.pairings import pairings_generate
from campaign.services.rounds import round_close, round_open
from campaign.services.scheduling import battle_schedule
from tests.battles.conftest import ALLIED_UNITS, register

pytestmark = pytest.mark.django_db


def url(name: str, campaign: Campaign, *args: object) -> str:
    return reverse(f"campaign:{name}", args=[campaign.pk, *args])


@pytest.fixture
def round_one(running_campaign, organiser) -> Round:
    return round_open(campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))


def _neutral(campaign: Campaign) -> str:
    return (
        campaign.sectors.filter(owner="", headquarters_of="").order_by("key").values_list("key", flat=True)[0]
    )


def test_it_schedules_a_battle_from_the_page(client, organiser, round_one, running_campaign, place):
    client.force_login(organiser)
    sector = _neutral(running_campaign)

    body = {"attacker": place("x1").pk, "defender": place("a1").pk, "sector": sector, "mission": ""}

    answer = client.post(url("battle_schedule", running_campaign, 1), body)

    assert answer.status_code == 302
    assert answer["Location"] == url("round", running_campaign, 1)
    battle = Battle.objects.get()
    assert (battle.attacker, battle.defender, battle.sector.key, battle.source) == (
        place("x1"), place("a1"), sector, BattleSource.SCHEDULED,
    )  # fmt: skip
    page = client.get(answer["Location"]).content.decode()
    assert f"Scheduled: {place('x1').display_name} attacks {place('a1').display_name}" in page


def test_it_shows_the_refusal_beside_the_field_and_schedules_nothing(
    client, organiser, round_one, running_campaign, place
):
    client.force_login(organiser)

    answer = client.post(url("battle_schedule", running_campaign, 1),
                         {"attacker": place("x1").pk, "defender": place("x2").pk,
                          "sector": _neutral(running_campaign)})  # fmt: skip

    assert answer.status_code == 200
    page = answer.content.decode()
    defender_field = page[page.index('id="id_defender"') :]
    assert "both fight for Axis" in defender_field[: defender_field.index("</div>")]
    assert not Battle.objects.exists()


def test_it_offers_players_by_bloc_front_line_sectors_first_and_flags_those_without_a_list(
    client, organiser, round_one, running_campaign, place
):
    register(place("a1"), ALLIED_UNITS, "Allies")
    client.force_login(organiser)

    page = client.get(url("battle_schedule", running_campaign, 1)).content.decode()

    attacker = page[page.index('id="id_attacker"') : page.index("</select>", page.index('id="id_attacker"'))]
    assert re.search(rf'<optgroup label="Allies">\s*<option value="{place("a1").pk}">A1</option>', attacker)
    assert f'<option value="{place("a2").pk}">A2 (no registered list yet)</option>' in attacker
    sector = page[page.index('id="id_sector"') :]
    assert sector.index('label="On a front line"') < sector.index('label="Not on a front line now"')
    assert "(suggests " in sector
    assert 'data-testid="schedule-without-list"' in page


def test_a_closed_round_offers_no_form(client, organiser, round_one, running_campaign):
    round_close(round=round_one, actor=organiser)
    client.force_login(organiser)

    page = client.get(url("battle_schedule", running_campaign, 1)).content.decode()

    assert 'data-testid="schedule-closed"' in page
    assert 'data-testid="schedule-form"' not in page


def test_the_round_page_links_organisers_to_the_schedule_page(
    client, organiser, round_one, running_campaign, place
):
    client.force_login(organiser)
    assert (
        url("battle_schedule", running_campaign, 1)
        in client.get(url("round", running_campaign, 1)).content.decode()
    )

    client.force_login(place("x1").player)
    assert 'data-testid="schedule-link"' not in client.get(url("round", running_campaign, 1)).content.decode()


def test_the_round_page_flags_a_scheduled_battles_side_without_a_list(
    client, organiser, round_one, running_campaign, place
):
    register(place("a1"), ALLIED_UNITS, "Allies")
    battle_schedule(campaign=running_campaign, actor=organiser, attacker=place("x1"), defender=place("a1"),
                    sector_key=_neutral(running_campaign))  # fmt: skip
    client.force_login(place("a1").player)

    page = client.get(url("round", running_campaign, 1)).content.decode()

    row = page[
        page.index('data-testid="battle-row"') : page.index("</tr>", page.index('data-testid="battle-row"'))
    ]
    attacker_cell, defender_cell = row.split("</td>")[:2]
    assert "no registered list yet" in attacker_cell
    assert "no registered list yet" not in defender_cell


def test_the_draft_flags_the_paired_players_without_a_list(client, organiser, round_one, running_campaign):
    pairings_generate(round=round_one, actor=organiser)
    client.force_login(organiser)

    page = client.get(url("round", running_campaign, 1)).content.decode()

    assert (
        page.count('data-testid="draft-no-list"') == Battle.objects.filter(status=BattleStatus.DRAFT).count()
    )


def test_the_challenge_pages_flag_a_side_without_a_list(client, round_one, running_campaign, place):
    register(place("a1"), ALLIED_UNITS, "Allies")
    challenge = challenge_issue(challenger=place("x1"), challenged=place("a1"),
                                sector_key=_neutral(running_campaign), actor=place("x1").player)  # fmt: skip
    client.force_login(place("a1").player)

    listing = client.get(url("challenges", running_campaign)).content.decode()
    detail = client.get(url("challenge", running_campaign, challenge.pk)).content.decode()

    (row,) = re.findall(r'data-testid="challenge-row".*?</tr>', listing, re.S)
    challenger_cell, challenged_cell = row.split("</td>")[:2]
    assert "no registered list yet" in challenger_cell
    assert "no registered list yet" not in challenged_cell
    challenger, challenged = detail.split("<dt>Challenged</dt>")
    assert "no registered list yet" in challenger.split("<dt>Challenger</dt>")[1]
    assert "no registered list yet" not in challenged.split("</dd>")[0]


def test_the_challenge_form_flags_opponents_without_a_list(client, round_one, running_campaign, place):
    register(place("a1"), ALLIED_UNITS, "Allies")
    client.force_login(place("x1").player)

    page = client.get(url("challenges", running_campaign)).content.decode()

    assert ">A2 (no registered list yet)</option>" in page
    assert ">A1</option>" in page
