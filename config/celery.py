"""The one Celery application. Configuration comes from Django settings (CELERY_*)."""

from __future__ import annotations

import os
from pathlib import Path

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("zverograd")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def ensure_embedded_broker_folders() -> None:
    """The filesystem transport needs its folders to exist before anyone publishes."""
    from django.conf import settings

    if not getattr(settings, "BROKER_IS_EMBEDDED", False):
        return
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        Path(str(options[key])).mkdir(parents=True, exist_ok=True)
    results = settings.CELERY_RESULT_BACKEND
    if results.startswith("file://"):
        Path(results.removeprefix("file://")).mkdir(parents=True, exist_ok=True)


@worker_init.connect
def _prepare_worker(**_: object) -> None:
    ensure_embedded_broker_folders()
