"""The polled panel brings the dashboard's disputes along when its counts change, so "1 dispute to resolve"
never links to a section still saying that none is disputed."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def digest_of(page: str) -> str:
    found = re.search(r'dashboard/waits/\?v=([0-9a-f]+)"', page)
    assert found is not None
    return found.group(1)


def test_it_swaps_the_disputes_section_out_of_band_once_a_report_is_disputed(client, report_world):
    world = report_world
    client.force_login(world.creator)
    page = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).content.decode()
    assert "No report is disputed." in page

    world.disputed()
    answer = client.get(reverse("campaign:dashboard_waits", args=[world.campaign.pk]), {"v": digest_of(page)})

    assert answer.status_code == 200
    html = answer.content.decode()
    section = html[html.index('<section id="disputes"') :]
    assert section.startswith('<section id="disputes" aria-labelledby="disputes-heading"')
    assert 'hx-swap-oob="true"' in section[: section.index(">")]
    assert "I kept the squad" in section
    assert "No report is disputed." not in section


def test_it_sends_the_panel_alone_to_a_caller_without_a_page(client, report_world):
    world = report_world
    client.force_login(world.creator)
    world.disputed()

    answer = client.get(reverse("campaign:dashboard_waits", args=[world.campaign.pk]))

    assert "1 dispute to resolve" in answer.content.decode()
    assert 'id="disputes"' not in answer.content.decode()
