"""The bell and the unread count endpoint answer 304 while the reader's unread count is the same.

The version is per user: the count of their unread notifications (one query on the partial index of
unread rows). A browser keeps the answer (``private, no-cache``) and sends its ETag back; a 304 then
costs the session's two queries and the count's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Notification, User
from tests.factories import NotificationFactory

pytestmark = pytest.mark.django_db

BELL = "/notifications/bell/"
COUNT = "/api/notifications/count/"


def _queries(call: Callable[[], Any]) -> tuple[Any, int]:
    with CaptureQueriesContext(connection) as captured:
        response = call()
    return response, len(captured.captured_queries)


def test_the_bell_answers_304_to_its_etag_from_the_count_alone(client: Client, owner: User) -> None:
    NotificationFactory.create_batch(3, user=owner)
    client.force_login(owner)
    first = client.get(BELL, headers={"HX-Request": "true"})
    assert first.status_code == 200
    assert first["ETag"].startswith('W/"')
    assert first["Cache-Control"] == "private, no-cache"  # kept by the browser, asked again every time

    response, queries = _queries(lambda: client.get(BELL, headers={"If-None-Match": first["ETag"]}))

    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == first["ETag"]
    assert queries == 3  # the session, its user, the unread count


def test_the_bell_answers_in_full_once_the_count_changes(client: Client, owner: User) -> None:
    NotificationFactory.create_batch(3, user=owner)
    client.force_login(owner)
    tag = client.get(BELL)["ETag"]
    NotificationFactory(user=owner)

    response, queries = _queries(lambda: client.get(BELL, headers={"If-None-Match": tag}))

    assert response.status_code == 200
    assert '<span class="badge badge-bell" data-testid="unread-count">4</span>' in response.content.decode()
    assert response["ETag"] != tag
    assert queries == 3
    # Read one: back to three unread, and to the ETag of three.
    Notification.objects.filter(pk=Notification.objects.filter(user=owner).first().pk).update(
        read_at=timezone.now()
    )
    assert client.get(BELL, headers={"If-None-Match": tag}).status_code == 304


def test_the_bells_version_is_its_readers_own(client: Client, owner: User, other: User) -> None:
    NotificationFactory.create_batch(2, user=owner)
    NotificationFactory.create_batch(2, user=other)
    client.force_login(owner)
    owners = client.get(BELL)["ETag"]
    client.force_login(other)

    response = client.get(BELL, headers={"If-None-Match": owners})

    assert response.status_code == 200  # the same count, another reader: not the owner's answer
    assert ">2</span>" in response.content.decode()


def test_the_bell_still_stops_polling_for_a_visitor_whose_session_ended(client: Client) -> None:
    response = client.get(BELL, headers={"If-None-Match": '"anything"'})
    assert response.status_code == 286
    assert "no-store" in response["Cache-Control"]
    assert not response.has_header("ETag")


def test_the_count_endpoint_answers_304_to_its_etag_and_200_once_the_count_changes(owner: User) -> None:
    NotificationFactory.create_batch(3, user=owner)
    api = APIClient()
    api.force_authenticate(owner)
    first = api.get(COUNT)
    assert first.json() == {"unread": 3}
    assert first["Cache-Control"] == "private, no-cache"

    unchanged, queries = _queries(lambda: api.get(COUNT, HTTP_IF_NONE_MATCH=first["ETag"]))
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert queries == 1  # the count (the token's user is already known)

    NotificationFactory(user=owner)
    changed = api.get(COUNT, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert changed.json() == {"unread": 4}
    assert changed["ETag"] != first["ETag"]
    # The bell and the endpoint show the same count: one version for both.
    client = Client()
    client.force_login(owner)
    assert client.get(BELL)["ETag"] == changed["ETag"]


def test_the_count_endpoint_still_refuses_a_visitor(api_client: APIClient) -> None:
    response = api_client.get(COUNT, HTTP_IF_NONE_MATCH='"anything"')
    assert response.status_code == 403
    assert response.json()["code"] == "not_authenticated"
