"""Site-level periodic tasks. Tasks stay thin: they call one service."""

from __future__ import annotations

import socket

from celery import shared_task

from core.services import worker_heartbeat_stamp


@shared_task(name="core.tasks.worker_heartbeat", ignore_result=True)
def worker_heartbeat() -> None:
    worker_heartbeat_stamp(hostname=socket.gethostname())


@shared_task(name="core.tasks.ping")
def ping(token: str) -> dict[str, str]:
    """Round-trip check: the worker echoes the token and says who it is."""
    beat = worker_heartbeat_stamp(hostname=socket.gethostname())
    return {"token": token, "hostname": beat.hostname}
