from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from core.models import WorkerHeartbeat
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_it_reports_a_degraded_site_before_any_worker_heartbeat(api_client):
    response = api_client.get("/health/")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["broker"]["ok"] is True
    assert body["checks"]["worker"] == {"ok": False, "detail": "no worker heartbeat yet", "age_seconds": None}


def test_it_reports_how_old_a_fresh_heartbeat_is(api_client):
    WorkerHeartbeat.objects.create(hostname="w1", stamped_at=timezone.now() - timedelta(seconds=12))

    response = api_client.get("/api/health/")

    assert response.status_code == 200
    worker = response.json()["checks"]["worker"]
    assert worker["ok"] is True
    assert 11 <= worker["age_seconds"] <= 20
    assert worker["hostname"] == "w1"


def test_it_calls_a_stale_heartbeat_a_problem(api_client, settings):
    settings.WORKER_HEARTBEAT_STALE_AFTER = 60
    WorkerHeartbeat.objects.create(hostname="w1", stamped_at=timezone.now() - timedelta(minutes=5))

    response = api_client.get("/health/")

    assert response.status_code == 503
    assert response.json()["checks"]["worker"]["ok"] is False
    assert response.json()["checks"]["worker"]["age_seconds"] >= 300


def test_it_needs_no_login(client):
    WorkerHeartbeat.objects.create(hostname="w1", stamped_at=timezone.now())

    assert client.get("/health/", HTTP_ACCEPT="application/json").status_code == 200


# --- the round trip: staff or the health token only ------------------------------------------------

TOKEN = "a-health-token-for-the-tests-0123456789"


@pytest.fixture
def health_token(settings):
    settings.HEALTH_TOKEN = TOKEN
    # Nothing answers the ping here: the round trip gives up quickly and says so.
    settings.HEALTH_ROUND_TRIP_TIMEOUT = 0.2
    return TOKEN


def _asked_for_a_round_trip(response) -> bool:
    return "round_trip" in response.json().get("checks", {})


def test_it_refuses_a_round_trip_to_an_anonymous_caller_but_keeps_the_plain_check(api_client, health_token):
    WorkerHeartbeat.objects.create(hostname="w1", stamped_at=timezone.now())

    refused = api_client.get("/health/?round_trip=1")
    plain = api_client.get("/health/")

    assert refused.status_code == 403
    assert refused.json()["code"] == "round-trip-forbidden"
    assert plain.status_code == 200
    assert not _asked_for_a_round_trip(plain)


def test_it_refuses_a_round_trip_to_a_player(api_as, player, health_token):
    response = api_as(player).get("/api/health/?round_trip=1")

    assert response.status_code == 403
    assert response.json()["code"] == "round-trip-forbidden"


def test_it_sends_the_round_trip_for_staff(client, health_token):
    client.force_login(UserFactory(username="olga-staff", is_staff=True))

    response = client.get("/health/?round_trip=1")

    assert response.status_code == 503
    assert response.json()["checks"]["round_trip"]["ok"] is False
    assert response.json()["checks"]["round_trip"]["detail"].startswith("no answer within")


@pytest.mark.parametrize("header", ["HTTP_AUTHORIZATION", "HTTP_X_HEALTH_TOKEN"])
def test_it_sends_the_round_trip_for_a_monitor_with_the_token(api_client, health_token, header):
    value = f"Bearer {TOKEN}" if header == "HTTP_AUTHORIZATION" else TOKEN

    response = api_client.get("/health/?round_trip=1", **{header: value})

    assert _asked_for_a_round_trip(response)


@pytest.mark.parametrize("configured", ["", TOKEN])
def test_it_refuses_a_wrong_or_unconfigured_token(api_client, settings, configured):
    settings.HEALTH_TOKEN = configured

    response = api_client.get("/health/?round_trip=1", HTTP_AUTHORIZATION="Bearer not-the-token")
    empty = api_client.get("/health/?round_trip=1", HTTP_X_HEALTH_TOKEN="")

    assert (response.status_code, empty.status_code) == (403, 403)


@pytest.mark.services
def test_a_monitor_with_the_token_gets_the_workers_answer(api_client, celery_worker_process, settings):
    settings.HEALTH_TOKEN = TOKEN
    settings.HEALTH_ROUND_TRIP_TIMEOUT = 90  # the worker process starts first
    WorkerHeartbeat.objects.create(hostname="w1", stamped_at=timezone.now())

    response = api_client.get("/health/?round_trip=1", HTTP_X_HEALTH_TOKEN=TOKEN)

    assert response.status_code == 200, response.json()
    assert response.json()["checks"]["round_trip"]["ok"] is True
