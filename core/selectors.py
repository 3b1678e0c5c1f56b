"""Reads for the site pages: the health report."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from config.celery import app as celery_app
from core.models import WorkerHeartbeat


@dataclass
class Check:
    ok: bool
    detail: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "detail": self.detail, **self.data}


def _check_database() -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means the database is not usable
        return Check(False, f"database unreachable: {exc.__class__.__name__}")
    return Check(True, f"{connection.vendor} reachable")


def _broker_kind() -> str:
    return "embedded (filesystem)" if settings.BROKER_IS_EMBEDDED else "redis"


def _check_broker() -> Check:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=3)
    except Exception as exc:  # kombu raises transport-specific errors
        return Check(False, f"broker unreachable: {exc.__class__.__name__}", {"kind": _broker_kind()})
    return Check(True, "broker reachable", {"kind": _broker_kind()})


def _check_worker() -> Check:
    beat = WorkerHeartbeat.objects.filter(name="default").first()
    if beat is None:
        return Check(False, "no worker heartbeat yet", {"age_seconds": None})
    age = (timezone.now() - beat.stamped_at).total_seconds()
    stale_after = settings.WORKER_HEARTBEAT_STALE_AFTER
    data = {
        "age_seconds": round(age, 1),
        "stamped_at": beat.stamped_at.isoformat(),
        "hostname": beat.hostname,
        "stale_after_seconds": stale_after,
    }
    if age > stale_after:
        return Check(False, f"last heartbeat {age:.0f}s ago", data)
    return Check(True, f"last heartbeat {age:.0f}s ago", data)


def _check_round_trip(timeout: float) -> Check:
    from core.tasks import ping

    token = uuid.uuid4().hex
    started = time.monotonic()
    try:
        result = ping.delay(token).get(timeout=timeout)
    except Exception as exc:  # TimeoutError, or a broker/backend failure
        return Check(False, f"no answer within {timeout:.0f}s: {exc.__class__.__name__}")
    elapsed = time.monotonic() - started
    if result.get("token") != token:
        return Check(False, "worker answered with the wrong token")
    return Check(True, f"answered in {elapsed:.2f}s", {"seconds": round(elapsed, 3)})


def health_report(*, round_trip: bool = False, timeout: float = 5.0) -> dict[str, Any]:
    checks = {"database": _check_database(), "broker": _check_broker(), "worker": _check_worker()}
    if round_trip:
        checks["round_trip"] = _check_round_trip(timeout)
    return {
        "status": "ok" if all(check.ok for check in checks.values()) else "degraded",
        "checks": {name: check.to_dict() for name, check in checks.items()},
    }
