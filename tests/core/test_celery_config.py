"""The effective Celery configuration, so that a misspelt setting is caught."""

from __future__ import annotations

from celery.app.defaults import NAMESPACES, flatten
from django.conf import settings

from config.celery import app

KNOWN_CELERY_SETTINGS = {key for key, _ in flatten(NAMESPACES)}


def test_it_only_uses_setting_names_celery_knows():
    ours = [name for name in dir(settings) if name.startswith("CELERY_")]
    unknown = [name for name in ours if name.removeprefix("CELERY_").lower() not in KNOWN_CELERY_SETTINGS]

    assert ours, "no CELERY_ settings were found at all"
    assert unknown == []


def test_it_delivers_tasks_at_least_once():
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1


def test_it_speaks_json_only():
    assert app.conf.task_serializer == "json"
    assert app.conf.result_serializer == "json"
    assert list(app.conf.accept_content) == ["json"]


def test_it_is_not_in_eager_mode():
    assert app.conf.task_always_eager is False


def test_it_uses_the_configured_broker():
    assert app.conf.broker_url == settings.CELERY_BROKER_URL
    if settings.BROKER_IS_EMBEDDED:
        assert app.conf.broker_url == "filesystem://"
        assert set(app.conf.broker_transport_options) >= {
            "data_folder_in",
            "data_folder_out",
            "control_folder",
        }
    else:
        assert app.conf.broker_url.startswith("redis://")


def test_it_schedules_the_worker_heartbeat_from_the_database_scheduler():
    assert app.conf.beat_scheduler == "django_celery_beat.schedulers:DatabaseScheduler"
    beat = app.conf.beat_schedule["worker-heartbeat"]
    assert beat["task"] == "core.tasks.worker_heartbeat"
    assert beat["schedule"] == float(settings.WORKER_HEARTBEAT_INTERVAL)


def test_it_registers_the_site_tasks():
    app.loader.import_default_modules()

    assert {"core.tasks.worker_heartbeat", "core.tasks.ping"} <= set(app.tasks)


def test_it_heals_lost_catalogue_imports_on_a_schedule():
    app.loader.import_default_modules()

    beat = app.conf.beat_schedule["catalogue-imports-heal"]
    assert beat["task"] in app.tasks


def test_every_beat_entry_names_a_registered_task():
    app.loader.import_default_modules()

    unknown = {
        key: entry["task"] for key, entry in app.conf.beat_schedule.items() if entry["task"] not in app.tasks
    }
    assert app.conf.beat_schedule
    assert unknown == {}
