"""The notification pages: the list, marking read, the header's bell and the e-mail preferences."""

from __future__ import annotations

import re

import pytest

from accounts.models import Notification, NotificationPreference
from accounts.notifications import notification_kinds, register_kind
from accounts.views.notifications import NOTIFICATIONS_PER_PAGE
from tests.factories import NotificationFactory

pytestmark = pytest.mark.django_db


def test_it_lists_the_users_own_notifications_newest_first(client, owner, other, kind):
    older = NotificationFactory(user=owner, kind=kind, message="Older news", link="/campaigns/1/",
                                created_at="2026-03-01T10:00:00Z")  # fmt: skip
    NotificationFactory(
        user=owner, kind=kind, message="Newer news", link="", created_at="2026-03-02T10:00:00Z"
    )
    NotificationFactory(user=other, kind=kind, message="Oleg's news")
    client.force_login(owner)

    response = client.get("/notifications/")

    assert response.status_code == 200
    body = response.content.decode()
    assert body.index("Newer news") < body.index("Older news")
    assert (
        f'<a href="/notifications/{older.pk}/">Older news</a>' in body
    )  # opened through the page that reads it
    assert "Oleg&#x27;s news" not in body
    assert body.count('data-testid="notification"') == 2
    assert "Test news" in body  # the kind's label, from the registry
    assert body.count("notification-unread") == 2


def test_it_sends_an_anonymous_visitor_to_log_in(client):
    for path in ("/notifications/", "/notifications/settings/"):
        response = client.get(path)

        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/log-in/")
    assert client.post("/notifications/read/")["Location"].startswith("/accounts/log-in/")


def test_it_pages_the_list(client, owner):
    NotificationFactory.create_batch(NOTIFICATIONS_PER_PAGE + 2, user=owner)
    client.force_login(owner)

    first = client.get("/notifications/")
    second = client.get("/notifications/?page=2")

    assert first.content.decode().count('data-testid="notification"') == NOTIFICATIONS_PER_PAGE
    assert second.content.decode().count('data-testid="notification"') == 2
    assert "Page 2 of 2" in second.content.decode()


def test_it_marks_all_read_and_comes_back_to_the_list(client, owner, other):
    NotificationFactory.create_batch(3, user=owner)
    theirs = NotificationFactory(user=other)
    client.force_login(owner)

    response = client.post("/notifications/read/")

    assert response.status_code == 302
    assert response["Location"] == "/notifications/"
    assert not Notification.objects.filter(user=owner, read_at__isnull=True).exists()
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_it_marks_one_read(client, owner):
    first, second = NotificationFactory.create_batch(2, user=owner)
    client.force_login(owner)

    response = client.post("/notifications/read/?page=1", {"id": first.pk})

    assert response["Location"] == "/notifications/?page=1"
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.read_at is not None, second.read_at is None) == (True, True)


def test_it_does_not_mark_another_users_notification(client, owner, other):
    theirs = NotificationFactory(user=other)
    client.force_login(owner)

    client.post("/notifications/read/", {"id": theirs.pk})

    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_it_refuses_an_id_that_is_not_a_number(client, owner):
    mine = NotificationFactory(user=owner)
    client.force_login(owner)

    response = client.post("/notifications/read/", {"id": "all"}, follow=True)

    assert "That is not one of your notifications." in response.content.decode()
    mine.refresh_from_db()
    assert mine.read_at is None


def test_it_answers_htmx_with_the_list_and_tells_the_bell(client, owner):
    NotificationFactory.create_batch(2, user=owner)
    client.force_login(owner)

    response = client.post("/notifications/read/", headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert response["HX-Trigger"] == "notifications-changed"
    assert response.content.decode().count("notification-unread") == 0
    assert 'id="notifications"' in response.content.decode()


def test_it_shows_the_unread_count_in_the_bell(client, owner, other):
    NotificationFactory.create_batch(3, user=owner)
    NotificationFactory(user=owner, read_at="2026-01-01T00:00:00Z")
    NotificationFactory.create_batch(2, user=other)
    client.force_login(owner)

    response = client.get("/notifications/bell/")

    assert response.status_code == 200
    assert '<span class="badge badge-bell" data-testid="unread-count">3</span>' in response.content.decode()
    assert "no-cache" in response["Cache-Control"]


def test_it_shows_an_empty_bell_when_all_is_read(client, owner):
    NotificationFactory(user=owner, read_at="2026-01-01T00:00:00Z")
    client.force_login(owner)

    assert client.get("/notifications/bell/").content.decode().strip() == ""


def test_it_caps_the_bells_number(client, owner):
    NotificationFactory.create_batch(100, user=owner)
    client.force_login(owner)

    assert ">99+</span>" in client.get("/notifications/bell/").content.decode()


def test_it_stops_the_bell_polling_for_a_visitor_whose_session_ended(client):
    response = client.get("/notifications/bell/")

    assert response.status_code == 286  # htmx stops an "every 60s" trigger on this status
    assert response.content == b""


def test_it_puts_the_bell_in_the_header_for_logged_in_users_only(client, owner):
    anonymous = client.get("/").content.decode()
    client.force_login(owner)
    logged_in = client.get("/").content.decode()

    assert 'data-testid="nav-bell"' not in anonymous
    assert 'data-testid="nav-bell"' in logged_in
    assert 'hx-get="/notifications/bell/"' in logged_in
    assert 'hx-trigger="load, every 60s, notifications-changed from:body"' in logged_in


def test_it_lists_the_list_page_in_a_fixed_number_of_queries(client, owner, django_assert_num_queries):
    NotificationFactory.create_batch(3, user=owner)
    client.force_login(owner)

    # 1 the session, 2 the user, 3 the paginator's count, 4 the page of notifications
    with django_assert_num_queries(4):
        client.get("/notifications/")
    NotificationFactory.create_batch(30, user=owner)
    with django_assert_num_queries(4):
        response = client.get("/notifications/")

    assert response.content.decode().count('data-testid="notification"') == NOTIFICATIONS_PER_PAGE


def test_it_counts_for_the_bell_in_one_query(client, owner, django_assert_num_queries):
    NotificationFactory.create_batch(40, user=owner)
    client.force_login(owner)

    # 1 the session, 2 the user, 3 the unread count
    with django_assert_num_queries(3):
        client.get("/notifications/bell/")


def test_it_renders_a_page_with_the_bell_at_no_extra_query(client, owner, django_assert_num_queries):
    NotificationFactory.create_batch(5, user=owner)
    client.force_login(owner)

    # 1 the session, 2 the user: the bell's count is fetched by htmx afterwards.
    with django_assert_num_queries(2):
        response = client.get("/accounts/profile/")

    assert 'data-testid="nav-bell"' in response.content.decode()


def test_it_shows_one_email_box_per_registered_kind_ticked_unless_turned_off(client, owner, kind):
    register_kind("test-quiet", "Quiet news", "Rarely worth a mail.")
    NotificationPreference.objects.create(user=owner, kind="test-quiet", email=False)
    client.force_login(owner)

    body = client.get("/notifications/settings/").content.decode()

    boxes = dict(re.findall(r'<input type="checkbox" name="([^"]+)"([^>]*)>', body))
    # One box per registered kind: these tests' and the campaign's own.
    assert set(boxes) == {k.code for k in notification_kinds()}
    assert {"test-news", "test-quiet"} <= set(boxes)
    assert "checked" in boxes["test-news"]
    assert "checked" not in boxes["test-quiet"]
    assert "Rarely worth a mail." in body


def test_it_saves_the_email_choices(client, owner, other, kind):
    client.force_login(owner)

    response = client.post("/notifications/settings/", {}, follow=True)  # every box left empty

    assert "Your e-mail choices were saved." in response.content.decode()
    assert set(NotificationPreference.objects.values_list("user_id", "kind", "email")) == {
        (owner.pk, k.code, False) for k in notification_kinds()
    }
    client.post("/notifications/settings/", {kind: "on"})
    assert NotificationPreference.objects.get(user=owner, kind=kind).email is True
    assert not NotificationPreference.objects.filter(user=other).exists()


@pytest.mark.parametrize("model", ["notification", "notificationpreference"])
def test_it_shows_notifications_and_preferences_in_the_admin(admin_client, owner, kind, model):
    NotificationFactory(user=owner, kind=kind, message="Seen by the staff")
    NotificationPreference.objects.create(user=owner, kind=kind, email=False)

    response = admin_client.get(f"/admin/accounts/{model}/")

    assert response.status_code == 200
    assert "Nina" in response.content.decode()
