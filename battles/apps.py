from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = "Battles"

    def ready(self) -> None:
        from battles.notices import register_kinds
        from battles.views.sections import register

        register_kinds()
        register()  # the report, the dispute queue and the timeline's words on the campaign's pages
