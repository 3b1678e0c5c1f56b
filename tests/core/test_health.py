from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from core.models import WorkerHeartbeat

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
