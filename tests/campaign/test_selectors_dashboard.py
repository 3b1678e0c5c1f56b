"""The next step ``round_waits_on`` names, through a campaign's life and a round's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.selectors.dashboard import (
    CLOSE_ROUND,
    GENERATE_PAIRINGS,
    NONE,
    OPEN_REGISTRATION,
    OPEN_ROUND,
    PUBLISH_PAIRINGS,
    START,
    round_waits_on,
)
from campaign.services.campaigns import campaign_finish
from campaign.services.pairings import pairings_generate, pairings_publish
from campaign.services.rounds import round_close, round_open

pytestmark = pytest.mark.django_db


def test_it_names_the_next_step_of_a_draft_and_of_a_campaign_open_for_registration(campaign, open_campaign):
    assert round_waits_on(campaign=open_campaign).next_step == START
    open_campaign.status = "draft"
    assert round_waits_on(campaign=open_campaign).next_step == OPEN_REGISTRATION


def test_it_walks_a_round_from_opening_to_pairing_publishing_and_closing(running_campaign, organiser):
    steps = [round_waits_on(campaign=running_campaign).next_step]
    first = round_open(
        campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7)
    )
    steps.append(round_waits_on(campaign=running_campaign).next_step)
    pairings_generate(round=first, actor=organiser)
    drafted = round_waits_on(campaign=running_campaign)
    steps.append(drafted.next_step)
    pairings_publish(round=first, actor=organiser)
    published = round_waits_on(campaign=running_campaign)
    steps.append(published.next_step)
    round_close(round=first, actor=organiser)
    steps.append(round_waits_on(campaign=running_campaign).next_step)
    campaign_finish(campaign=running_campaign, actor=organiser)
    running_campaign.refresh_from_db()
    steps.append(round_waits_on(campaign=running_campaign).next_step)

    assert steps == [OPEN_ROUND, GENERATE_PAIRINGS, PUBLISH_PAIRINGS, CLOSE_ROUND, OPEN_ROUND, NONE]
    assert (drafted.battles_drafted, drafted.battles_unreported) == (3, 0)
    assert (published.battles_drafted, published.battles_unreported, published.battles_in_round) == (0, 3, 3)
    assert published.players_without_list == 6
