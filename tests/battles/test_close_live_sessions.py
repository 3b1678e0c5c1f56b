"""A battle being played at the table is known to the organisers' dashboard and to the round's close page:
closing asks whether to wait for it or settle it now, and settling it tells both players (issue 26)."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from accounts.models import Notification
from battles.models import BattleReport, ReportStatus
from battles.sessions.models import BattleSession, SessionStatus
from campaign.models import Battle, BattleStatus, Campaign, Round, RoundStatus
from tests.demo_pages import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(db) -> tuple[Campaign, Battle]:
    """The demo: the open round's first battle still to be played is twelve steps into its session."""
    call_command("seed_demo", verbosity=0)
    # The demo's dispute is settled (a disputed report keeps a round from closing, whatever else it holds).
    BattleReport.objects.filter(status=ReportStatus.DISPUTED).update(status=ReportStatus.SUBMITTED)
    session = BattleSession.objects.get(status=SessionStatus.OPEN, battle__isnull=False)
    assert session.battle is not None
    return Campaign.objects.get(), session.battle


def _label(battle: Battle) -> str:
    return f"{battle.attacker.display_name} attacks {battle.defender.display_name} over {battle.sector.name}"


def _text(page: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.decode()))


def test_the_dashboard_lists_the_battles_being_played_at_the_table(demo):
    campaign, battle = demo

    page = _text(client_for("organiser").get(reverse("campaign:dashboard", args=[campaign.pk])).content)

    assert re.search(rf"{re.escape(_label(battle))} : being played at the table \(turn \d of \d\)", page)


def test_the_close_page_says_the_battle_is_at_the_table_not_that_it_will_be_settled_unseen(demo):
    campaign, battle = demo
    address = reverse("campaign:round_close", args=[campaign.pk, campaign.current_round])

    page = client_for("organiser").get(address).content.decode()

    live = page[page.index('data-testid="close-live"') : page.index('data-testid="closing-effects"')]
    assert _label(battle) in live
    assert "being played at the table (turn" in live
    unreported = page[page.index('data-testid="closing-effects"') :]
    assert (
        f'/battles/{battle.pk}/"' not in unreported.split("</details>")[0]
    )  # not among those nobody reported
    assert 'name="at_the_table"' in page


def test_closing_asks_first_then_waits_or_settles_and_tells_both_players(demo):
    campaign, battle = demo
    client = client_for("organiser")
    address = reverse("campaign:round_close", args=[campaign.pk, campaign.current_round])
    round = Round.objects.get(campaign=campaign, number=campaign.current_round)

    unsaid = client.post(address)
    waited = client.post(address, {"at_the_table": "wait"})

    assert "Say what to do with the battles being played at the table" in unsaid.content.decode()
    assert waited.status_code == 302
    round.refresh_from_db()
    assert round.status == RoundStatus.OPEN

    settled = client.post(address, {"at_the_table": "settle"})

    assert settled.status_code == 302
    round.refresh_from_db()
    battle.refresh_from_db()
    assert round.status == RoundStatus.CLOSED
    assert battle.status in (BattleStatus.UNPLAYED, BattleStatus.FORFEITED)
    for side in (battle.attacker, battle.defender):
        told = Notification.objects.filter(user=side.player, message__contains="being played at the table")
        assert told.count() == 1, side
        assert _label(battle) in told.get().message
