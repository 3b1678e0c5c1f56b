from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Site"

    def ready(self) -> None:
        from config.celery import ensure_embedded_broker_folders
        from core.converters import register

        register()

        ensure_embedded_broker_folders()
