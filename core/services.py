from __future__ import annotations

from django.utils import timezone

from core.models import WorkerHeartbeat


def worker_heartbeat_stamp(*, hostname: str, name: str = "default") -> WorkerHeartbeat:
    beat, _ = WorkerHeartbeat.objects.update_or_create(
        name=name, defaults={"hostname": hostname, "stamped_at": timezone.now()}
    )
    return beat
