from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        from armies.permissions import register_chart_campaigns
        from campaign.permissions import (
            campaigns_joined_anywhere,
            campaigns_joined_on,
            campaigns_organised_on,
        )
        from campaign.services.notices import register_kinds

        register_kinds()
        register_chart_campaigns(campaigns_organised_on, campaigns_joined_on, campaigns_joined_anywhere)
