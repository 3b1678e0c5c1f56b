from __future__ import annotations

from django.db import models


class WorkerHeartbeat(models.Model):
    """The last time a Celery worker ran the periodic heartbeat task.

    One row per beat name; the health endpoint reports how old the stamp is.
    """

    name = models.CharField(max_length=40, unique=True, default="default")
    hostname = models.CharField(max_length=255, blank=True)
    stamped_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.stamped_at:%Y-%m-%d %H:%M:%S}"
