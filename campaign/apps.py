from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        from armies.permissions import register_chart_editor_check
        from campaign.permissions import organises_a_campaign_on
        from campaign.services.notices import register_kinds

        register_kinds()
        register_chart_editor_check(organises_a_campaign_on)
