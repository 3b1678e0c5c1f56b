"""Retiring a platoon chart on the charts page: staff only, shown as retired, and no longer offered."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from armies import selectors
from armies.models import PlatoonChart
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

RECON = "ssu.taiga-recon-platoon"  # a chart of the demo catalogue


@pytest.fixture
def staff(db: None) -> Any:
    return UserFactory(username="stella", is_staff=True)


@pytest.fixture
def recon(open_campaign: Any) -> PlatoonChart:
    return PlatoonChart.objects.get(catalogue=open_campaign.catalogue, key=RECON)


def retire(chart: PlatoonChart) -> str:
    return reverse("armies:catalogue_platoon_chart_retire", args=[chart.catalogue_id, chart.pk])


def page(chart: PlatoonChart) -> str:
    return reverse("armies:catalogue_platoon_charts", args=[chart.catalogue_id])


@pytest.mark.parametrize(
    ("who", "status"),
    [("staff", 302), ("organiser", 403), ("player", 403), ("stranger", 403), ("anonymous", 403)],
)
def test_it_lets_only_staff_retire_a_chart_on_the_page(
    client, recon, staff, organiser, player, stranger, who, status
):
    users = {"staff": staff, "organiser": organiser, "player": player, "stranger": stranger}
    if who in users:
        client.force_login(users[who])

    answer = client.post(retire(recon))

    assert answer.status_code == status
    recon.refresh_from_db()
    assert recon.retired == (status == 302)


def test_it_offers_the_retire_button_to_staff_only(client, recon, staff, organiser):
    client.force_login(organiser)
    for_organiser = client.get(page(recon)).content.decode()
    client.force_login(staff)
    for_staff = client.get(page(recon)).content.decode()

    assert "Retire this chart" not in for_organiser
    assert "Enter a platoon chart" in for_organiser
    assert (
        for_staff.count("Retire this chart") == PlatoonChart.objects.filter(catalogue=recon.catalogue).count()
    )


def test_it_shows_a_retired_chart_as_retired_and_the_builder_stops_offering_it(client, recon, staff):
    client.force_login(staff)

    answer = client.post(retire(recon), follow=True)

    text = answer.content.decode()
    assert "Retired the platoon chart Taiga Recon Platoon." in text
    assert "Retired on" in text
    assert (
        text.count("Retire this chart") == PlatoonChart.objects.filter(catalogue=recon.catalogue).count() - 1
    )
    recon.catalogue.refresh_from_db()
    assert RECON not in selectors.catalogue_for_validation(catalogue=recon.catalogue).chart_by_key


def test_it_refuses_a_chart_entered_too_often_with_a_sentence(client, open_campaign, organiser, settings):
    settings.PLATOON_CHART_RATE = "1/minute"
    client.force_login(organiser)
    url = reverse("armies:catalogue_platoon_charts_import", args=[open_campaign.catalogue_id])
    empty = b'{"format": "zverograd-catalogue", "version": 1, "name": "x", "units": []}'
    client.post(url, {"file": SimpleUploadedFile("c.json", empty)})
    answer = client.post(url, {"file": SimpleUploadedFile("c.json", empty)})

    assert answer.status_code == 400
    assert "at most 1 time a minute: try again later" in answer.content.decode()
