"""A battle's page is the same bytes for each viewer whatever the process drew before it.

The page keeps per process what is the same for everyone: the map drawn for the sectors as they stand (the
battle's sector outlined as a layer of its own) and the empty forms' fields (core/formhtml.py). Each viewer's
page drawn with nothing kept must equal the one drawn after every viewer saw another battle, in another sector,
with other forms; and what was typed into a refused form never reaches another page.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from battles.models import BattleReport
from battles.services import report_submit
from campaign.models import Battle, BattleSource, BattleStatus, sides_recorded
from campaign.services.map import sector_update
from campaign.views import page_rows
from core import formhtml
from tests.battles.conftest import page_url

pytestmark = pytest.mark.django_db

# The CSRF token is masked afresh for every request (in each form and in htmx's headers).
_TOKENS = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'), 'name="csrfmiddlewaretoken" value=""'),
    (re.compile(r'"X-CSRFToken": "[^"]*"'), '"X-CSRFToken": ""'),
]


def _steady(page: bytes) -> str:
    text = page.decode()
    for pattern, replacement in _TOKENS:
        text = pattern.sub(replacement, text)
    return text


def _forget_what_was_drawn() -> None:
    page_rows._drawn.cache_clear()
    formhtml.unbound_form_html.cache_clear()


@pytest.fixture
def submitted(battle, report_data) -> BattleReport:
    return report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())


@pytest.fixture
def elsewhere(battle, place) -> Battle:
    """s1 (SSU) attacks a2 (Allies) over another sector of the same round."""
    sector = battle.campaign.sectors.exclude(pk=battle.sector_id).filter(headquarters_of="").first()
    return Battle.objects.create(
        campaign=battle.campaign, round=battle.round, sector=sector, attacker=place("s1"), defender=place("a2"),
        **sides_recorded(attacker=place("s1"), defender=place("a2")),
        mission="hold-the-line", points_limit=150, status=BattleStatus.SCHEDULED, source=BattleSource.PAIRING,
    )  # fmt: skip


def _viewers(battle: Battle, organiser, place) -> dict[str, Client]:
    users = {
        "organiser": organiser,
        "attacker": battle.attacker.player,
        "defender": battle.defender.player,
        "another player": place("x2").player,
        "visitor": None,
    }
    made = {}
    for name, user in users.items():
        made[name] = Client()
        if user is not None:
            made[name].force_login(user)
    return made


def test_it_shows_each_viewer_the_same_page_whatever_was_drawn_before(
    battle, submitted, elsewhere, organiser, place
):
    viewers = _viewers(battle, organiser, place)
    cold = {}
    for name, client in viewers.items():
        _forget_what_was_drawn()
        cold[name] = _steady(client.get(page_url("battle", battle)).content)
    for client in viewers.values():
        client.get(page_url("battle", elsewhere))
        client.get(page_url("battle", elsewhere), {"attacker-list": "x"})  # a bound choice, refused
    warm = {name: _steady(client.get(page_url("battle", battle)).content) for name, client in viewers.items()}

    assert warm == cold
    # What each is shown of the report's actions differs, and so does the page.
    assert 'data-testid="dispute-form"' in cold["defender"]
    assert 'data-testid="accept-form"' in cold["organiser"]
    assert 'data-testid="dispute-form"' not in cold["organiser"] + cold["attacker"] + cold["another player"]
    assert len({cold["organiser"], cold["attacker"], cold["defender"], cold["another player"]}) == 4
    for page in cold.values():
        if 'data-testid="battle-map"' not in page:
            continue  # a visitor of a private campaign gets its 404
        assert re.findall(r'class="sector highlight" data-sector="([^"]+)"', page) == [battle.sector.key]
        assert page.count('class="highlight-outline"') == 1


def test_it_outlines_each_battles_own_sector_on_one_drawing(client, battle, elsewhere, organiser):
    client.force_login(organiser)
    _forget_what_was_drawn()

    pages = [_steady(client.get(page_url("battle", b)).content) for b in (battle, elsewhere, battle)]

    assert page_rows._drawn.cache_info().misses == 1
    for page, shown in zip(pages, (battle, elsewhere, battle), strict=True):
        assert re.findall(r'class="sector highlight" data-sector="([^"]+)"', page) == [shown.sector.key]
    assert pages[0] == pages[2]


def test_it_shows_the_sector_as_it_stands_after_it_changes_hands(client, battle, organiser, place):
    client.force_login(organiser)
    before = client.get(page_url("battle", battle)).content.decode()
    sector_update(
        campaign=battle.campaign, actor=organiser, key=battle.sector.key,
        changes={"owner": "Axis", "held_by": place("x1").pk}, reason="taken",
    )  # fmt: skip

    after = client.get(page_url("battle", battle)).content.decode()

    held = rf'data-sector="{battle.sector.key}" data-owner="([^"]+)"'
    assert re.search(held, before).group(1) == "neutral"
    assert re.search(held, after).group(1) == "Axis"


def test_it_never_shows_a_refused_forms_words_on_the_next_page(client, battle, submitted):
    client.force_login(battle.defender.player)
    typed = "x" * 5000  # past the reason's bound: refused, and put back with why

    refused = client.post(page_url("dispute", battle), {"dispute-reason": typed}).content.decode()
    again = client.get(page_url("battle", battle)).content.decode()

    assert typed in refused
    assert "field-error" in re.search(r'data-testid="dispute-form".*?</form>', refused, re.S).group(0)
    form = re.search(r'data-testid="dispute-form".*?</form>', again, re.S).group(0)
    assert typed not in again
    assert "field-error" not in form
