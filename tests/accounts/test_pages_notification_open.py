"""Opening a notification (/notifications/<id>/) reads it and leads to what it is about, for its owner only."""

from __future__ import annotations

import pytest

from accounts.models import Notification
from tests.factories import NotificationFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def told(player, campaign):
    """The enrolled player's notification: admitted to the campaign, with a link to its page."""
    return NotificationFactory(
        user=player, kind="join-decided", message="You are admitted.", link=f"/campaigns/{campaign.pk}/"
    )


def test_it_reads_the_players_notification_and_leads_to_its_page(client, player, campaign, told):
    client.force_login(player)

    response = client.get(f"/notifications/{told.pk}/")

    assert response.status_code == 302
    assert response["Location"] == f"/campaigns/{campaign.pk}/"
    told.refresh_from_db()
    assert told.read_at is not None


def test_the_bell_counts_one_less_once_it_is_opened(client, player, told):
    NotificationFactory(user=player)
    client.force_login(player)
    before = client.get("/notifications/bell/").content.decode()

    client.get(f"/notifications/{told.pk}/")

    after = client.get("/notifications/bell/").content.decode()
    assert '<span class="badge badge-bell" data-testid="unread-count">2</span>' in before
    assert '<span class="badge badge-bell" data-testid="unread-count">1</span>' in after


def test_it_keeps_the_fragment_that_points_at_the_subject(client, organiser, campaign):
    link = f"/campaigns/{campaign.pk}/dashboard/#request-12"
    row = NotificationFactory(user=organiser, kind="join-requested", link=link)
    client.force_login(organiser)

    response = client.get(f"/notifications/{row.pk}/")

    assert response["Location"] == link


def test_a_notification_without_a_link_leads_back_to_the_list(client, player):
    row = NotificationFactory(user=player, link="")
    client.force_login(player)

    response = client.get(f"/notifications/{row.pk}/")

    assert response["Location"] == "/notifications/"
    row.refresh_from_db()
    assert row.read_at is not None


@pytest.mark.parametrize("persona", ["organiser", "stranger"])
def test_someone_elses_notification_is_not_found_and_stays_unread(client, request, told, persona):
    client.force_login(request.getfixturevalue(persona))

    response = client.get(f"/notifications/{told.pk}/")

    assert response.status_code == 404
    told.refresh_from_db()
    assert told.read_at is None


def test_an_anonymous_visitor_logs_in_first_and_reads_nothing(client, told):
    response = client.get(f"/notifications/{told.pk}/")

    assert response.status_code == 302
    assert response["Location"].startswith(f"/accounts/log-in/?next=/notifications/{told.pk}/")
    assert Notification.objects.get(pk=told.pk).read_at is None


def test_an_id_that_does_not_exist_or_is_too_long_is_not_found(client, player):
    client.force_login(player)

    assert client.get("/notifications/999999/").status_code == 404
    assert client.get(f"/notifications/{'9' * 19}/").status_code == 404


def test_it_only_answers_a_plain_visit(client, player, told):
    client.force_login(player)

    response = client.post(f"/notifications/{told.pk}/")

    assert response.status_code == 405
    told.refresh_from_db()
    assert told.read_at is None
