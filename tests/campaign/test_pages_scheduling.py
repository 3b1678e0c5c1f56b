"""The schedule-a-battle page: players by name grouped by bloc, front-line sectors first, refusals beside the
field; and a player without a registered list flagged wherever they are paired, challenged or scheduled."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from armies.blocs import Bloc
from campaign.models import Battle, BattleSource, BattleStatus, Campaign, Round
from campaign.services.challenges import challenge_issue
from campaign.services.pairings import fronts, pairings_generate
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
    # The form offers X1 no more once X1 has a battle; a form sent from an older page is still refused.
    battle_schedule(campaign=running_campaign, actor=organiser, attacker=place("x1"), defender=place("a1"),
                    sector_key=_neutral(running_campaign))  # fmt: skip
    client.force_login(organiser)

    answer = client.post(url("battle_schedule", running_campaign, 1),
                         {"attacker": place("x1").pk, "defender": place("s1").pk,
                          "sector": _sector_for(running_campaign, place("x1"), place("s1"))})  # fmt: skip

    assert answer.status_code == 200
    page = answer.content.decode()
    attacker_field = page[page.index('id="id_attacker"') :]
    assert "X1 already has a battle this round" in attacker_field[: attacker_field.index("</div>")]
    assert Battle.objects.count() == 1


def test_it_offers_players_by_bloc_front_line_sectors_first_and_flags_those_without_a_list(
    client, organiser, round_one, running_campaign, place
):
    register(place("a1"), ALLIED_UNITS, "Allies")
    client.force_login(organiser)

    first = client.get(url("battle_schedule", running_campaign, 1)).content.decode()

    attacker = first[
        first.index('id="id_attacker"') : first.index("</select>", first.index('id="id_attacker"'))
    ]
    assert re.search(rf'<optgroup label="Allies">\s*<option value="{place("a1").pk}">A1</option>', attacker)
    assert f'<option value="{place("a2").pk}">A2 (no registered list yet)</option>' in attacker
    assert 'id="id_sector"' not in first  # the sectors come with the attacker
    assert 'data-testid="schedule-without-list"' in first

    second = client.get(
        url("battle_schedule", running_campaign, 1), {"attacker": place("x1").pk}
    ).content.decode()

    defender = second[
        second.index('id="id_defender"') : second.index("</select>", second.index('id="id_defender"'))
    ]
    assert f'value="{place("a1").pk}"' in defender
    assert f'value="{place("x2").pk}"' not in defender  # of the attacker's own bloc
    sector = second[
        second.index('id="id_sector"') : second.index("</select>", second.index('id="id_sector"'))
    ]
    offered = set(re.findall(r'<option value="([^"]+)"', sector))
    may_attack = {
        key
        for (att, _dfn), keys in fronts(campaign=running_campaign).items()
        if att == "Axis"
        for key in keys
    }
    assert offered == may_attack
    assert "(suggests " in sector


def test_it_offers_only_the_players_without_a_battle_this_round_and_says_why(
    client, organiser, round_one, running_campaign, place
):
    battle_schedule(campaign=running_campaign, actor=organiser, attacker=place("x1"), defender=place("a1"),
                    sector_key=_neutral(running_campaign))  # fmt: skip
    client.force_login(organiser)

    first = client.get(url("battle_schedule", running_campaign, 1)).content.decode()
    second = client.get(
        url("battle_schedule", running_campaign, 1), {"attacker": place("x2").pk}
    ).content.decode()

    assert f'value="{place("x1").pk}"' not in first
    assert f'value="{place("a1").pk}"' not in second
    assert f'value="{place("a2").pk}"' in second
    assert "A1, X1 already have a battle this round, so are not offered" in first.replace("\n", " ")


def test_it_says_when_nobody_is_left_to_schedule(client, organiser, round_one, running_campaign, place):
    for attacker, defender in (("x1", "a1"), ("x2", "s1"), ("a2", "s2")):
        first, second = place(attacker), place(defender)
        sector = _sector_for(running_campaign, first, second)
        battle_schedule(
            campaign=running_campaign, actor=organiser, attacker=first, defender=second, sector_key=sector
        )
    client.force_login(organiser)

    page = client.get(url("battle_schedule", running_campaign, 1)).content.decode()

    assert 'data-testid="schedule-nobody"' in page
    assert 'data-testid="schedule-attacker-form"' not in page


def _sector_for(campaign: Campaign, attacker, defender) -> str:
    held = fronts(campaign=campaign)[(Bloc(attacker.bloc), Bloc(defender.bloc))]
    return campaign.sectors.filter(key__in=held, owner__in=("", defender.bloc)).values_list("key", flat=True)[
        0
    ]


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


def test_a_sector_the_attacker_may_not_attack_is_refused_in_words(
    client, organiser, round_one, running_campaign, place
):
    own = running_campaign.sectors.filter(owner="Axis").values_list("key", flat=True)[0]
    client.force_login(organiser)

    answer = client.post(url("battle_schedule", running_campaign, 1),
                         {"attacker": place("x1").pk, "defender": place("a1").pk, "sector": own})  # fmt: skip

    page = answer.content.decode()
    assert "Choose a sector the attacker&#x27;s bloc may attack now." in page
    assert f"{own} is not one of" not in page
    assert not Battle.objects.exists()


@pytest.mark.parametrize("attacker", ["²", "9" * 5000, "-1", "abc"])
def test_an_attacker_that_is_no_player_s_number_asks_for_the_attacker_again(
    client, organiser, round_one, running_campaign, attacker
):
    client.force_login(organiser)

    answer = client.get(url("battle_schedule", running_campaign, 1), {"attacker": attacker})

    assert answer.status_code == 200
    assert 'data-testid="schedule-attacker-form"' in answer.content.decode()
