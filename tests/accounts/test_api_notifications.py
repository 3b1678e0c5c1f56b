"""The notification API: each user reads and changes only their own; anonymous callers get 403."""

from __future__ import annotations

import pytest

from accounts.models import Notification, NotificationPreference
from accounts.notifications import MAX_READ_IDS, notification_kinds
from tests.factories import NotificationFactory

pytestmark = pytest.mark.django_db

ENDPOINTS = [
    ("get", "/api/notifications/"),
    ("get", "/api/notifications/count/"),
    ("post", "/api/notifications/read/"),
    ("get", "/api/notifications/preferences/"),
    ("put", "/api/notifications/preferences/"),
]


@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
def test_it_refuses_an_anonymous_caller(api_client, method, path):
    response = getattr(api_client, method)(path, {}, format="json")

    assert response.status_code == 403
    assert response.json()["code"] == "not_authenticated"


def test_it_lists_the_callers_notifications_newest_first(api_as, owner, other, kind):
    older = NotificationFactory(
        user=owner, kind=kind, created_at="2026-03-01T10:00:00Z", link="/campaigns/2/"
    )
    newer = NotificationFactory(user=owner, kind=kind, created_at="2026-03-02T10:00:00Z",
                                read_at="2026-03-03T10:00:00Z")  # fmt: skip
    NotificationFactory(user=other, kind=kind)

    body = api_as(owner).get("/api/notifications/").json()

    assert body["count"] == 2
    assert [row["id"] for row in body["results"]] == [newer.pk, older.pk]
    assert body["results"][1] == {
        "id": older.pk,
        "kind": kind,
        "message": older.message,
        "link": "/campaigns/2/",
        "created_at": "2026-03-01T10:00:00Z",
        "read_at": None,
    }
    assert body["results"][0]["read_at"] == "2026-03-03T10:00:00Z"


def test_it_lists_only_the_unread_ones_when_asked(api_as, owner):
    unread = NotificationFactory(user=owner)
    NotificationFactory(user=owner, read_at="2026-03-03T10:00:00Z")

    body = api_as(owner).get("/api/notifications/?unread=true").json()

    assert [row["id"] for row in body["results"]] == [unread.pk]


def test_it_refuses_a_filter_that_is_not_a_boolean(api_as, owner):
    response = api_as(owner).get("/api/notifications/?unread=perhaps")

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "unread"


def test_it_counts_the_callers_unread_notifications(api_as, owner, other):
    NotificationFactory.create_batch(2, user=owner)
    NotificationFactory(user=owner, read_at="2026-03-03T10:00:00Z")
    NotificationFactory.create_batch(3, user=other)

    assert api_as(owner).get("/api/notifications/count/").json() == {"unread": 2}
    assert api_as(other).get("/api/notifications/count/").json() == {"unread": 3}


def test_it_marks_the_named_notifications_read_and_ignores_another_users(api_as, owner, other):
    mine = NotificationFactory.create_batch(2, user=owner)
    theirs = NotificationFactory(user=other)

    response = api_as(owner).post("/api/notifications/read/", {"ids": [mine[0].pk, theirs.pk]}, format="json")

    assert response.status_code == 200
    assert response.json() == {"marked": 1, "unread": 1}
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_it_marks_all_read_when_no_ids_are_named(api_as, owner, other):
    NotificationFactory.create_batch(3, user=owner)
    NotificationFactory(user=other)

    response = api_as(owner).post("/api/notifications/read/", {}, format="json")

    assert response.json() == {"marked": 3, "unread": 0}
    assert Notification.objects.filter(read_at__isnull=True).count() == 1


@pytest.mark.parametrize(
    ("ids", "field"),
    [
        (list(range(1, MAX_READ_IDS + 2)), "ids"),
        ([], "ids"),
        ([0], "ids[0]"),
        ([2**63], "ids[0]"),
        (["one"], "ids[0]"),
        ("all", "ids"),
    ],
)
def test_it_refuses_ids_out_of_bounds_and_marks_nothing(api_as, owner, ids, field):
    NotificationFactory(user=owner)

    response = api_as(owner).post("/api/notifications/read/", {"ids": ids}, format="json")

    assert response.status_code == 400
    assert {error["field"] for error in response.json()["errors"]} == {field}
    assert Notification.objects.filter(read_at__isnull=True).count() == 1


def test_it_refuses_a_body_that_is_not_json(api_as, owner):
    response = api_as(owner).post(
        "/api/notifications/read/", "ids=1", content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 415


def test_it_shows_the_email_preference_of_every_registered_kind(api_as, owner, other, kind):
    NotificationPreference.objects.create(user=other, kind=kind, email=False)

    mine = api_as(owner).get("/api/notifications/preferences/").json()
    theirs = api_as(other).get("/api/notifications/preferences/").json()

    # Every registered kind is listed (the campaign registers its own), each with its e-mail choice.
    assert [row["kind"] for row in mine] == [k.code for k in notification_kinds()]
    assert {
        "kind": kind,
        "name": "Test news",
        "description": "Something a test made happen.",
        "email": True,
    } in mine
    assert {row["kind"]: row["email"] for row in theirs}[kind] is False
    assert all(row["email"] for row in theirs if row["kind"] != kind)


def test_it_sets_email_preferences(api_as, owner, other, kind):
    response = api_as(owner).put(
        "/api/notifications/preferences/", {"preferences": [{"kind": kind, "email": False}]}, format="json"
    )

    assert response.status_code == 200
    assert {row["kind"]: row["email"] for row in response.json()}[kind] is False
    assert list(NotificationPreference.objects.values_list("user_id", "kind", "email")) == [
        (owner.pk, kind, False)
    ]
    theirs = api_as(other).get("/api/notifications/preferences/").json()
    assert {row["kind"]: row["email"] for row in theirs}[kind] is True


def test_it_refuses_an_unknown_kind_and_changes_nothing(api_as, owner, kind):
    response = api_as(owner).put(
        "/api/notifications/preferences/",
        {"preferences": [{"kind": kind, "email": False}, {"kind": "no-such-kind", "email": False}]},
        format="json",
    )

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "unknown-notification-kind"
    assert body["errors"][0]["field"] == "preferences[1].kind"
    assert not NotificationPreference.objects.exists()


@pytest.mark.parametrize(
    "document",
    [
        {"preferences": []},
        {"preferences": [{"kind": "Not A Slug", "email": False}]},
        {"preferences": [{"kind": "k" * 41, "email": False}]},
        {"preferences": [{"kind": "test-news", "email": "sometimes"}]},
        {"preferences": [{"kind": "test-news", "email": True}, {"kind": "test-news", "email": False}]},
        {"preferences": [{"kind": f"kind-{n}", "email": True} for n in range(51)]},
        {},
    ],
)
def test_it_refuses_preferences_outside_their_shape(api_as, owner, kind, document):
    response = api_as(owner).put("/api/notifications/preferences/", document, format="json")

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"].startswith("preferences")
    assert not NotificationPreference.objects.exists()


def test_it_lists_notifications_in_a_fixed_number_of_queries(api_as, owner, django_assert_num_queries):
    NotificationFactory.create_batch(3, user=owner)
    client = api_as(owner)

    # 1 the count of the caller's notifications, 2 their page
    with django_assert_num_queries(2):
        client.get("/api/notifications/")
    NotificationFactory.create_batch(60, user=owner)
    with django_assert_num_queries(2):
        response = client.get("/api/notifications/")

    assert len(response.json()["results"]) == 50


def test_it_counts_in_one_query(api_as, owner, django_assert_num_queries):
    NotificationFactory.create_batch(30, user=owner)
    client = api_as(owner)

    # 1 the unread count
    with django_assert_num_queries(1):
        response = client.get("/api/notifications/count/")

    assert response.json() == {"unread": 30}
