from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = "Battles"

    def ready(self) -> None:
        from battles.notices import register_kinds
        from battles.report_reader import register as register_report_reader
        from battles.views.home import next_battles_section
        from battles.views.sections import register
        from core.home import register_home_section

        register_kinds()
        register_report_reader()  # the dashboard's counts of reports, and the disputes that keep a round open
        register()  # the report, the dispute queue and the timeline's words on the campaign's pages
        register_home_section(
            "battles/_home_next_battles.html", next_battles_section
        )  # a player's next battles
