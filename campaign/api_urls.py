"""The campaign API: one endpoint per action, under /api/campaigns/."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from campaign.api import campaigns, maps, players, registrations

_ONE = "campaigns/<id:pk>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("campaigns/", campaigns.CampaignCollectionApi.as_view(), name="campaigns"),
    path("campaigns/claims/", players.ClaimApi.as_view(), name="campaign-claim"),
    path(_ONE, campaigns.CampaignDetailApi.as_view(), name="campaign"),
    path(f"{_ONE}open-registration/", campaigns.CampaignOpenRegistrationApi.as_view(), name="campaign-open"),
    path(f"{_ONE}start/", campaigns.CampaignStartApi.as_view(), name="campaign-start"),
    path(f"{_ONE}finish/", campaigns.CampaignFinishApi.as_view(), name="campaign-finish"),
    path(f"{_ONE}invite/", campaigns.CampaignInviteApi.as_view(), name="campaign-invite"),
    path(
        f"{_ONE}co-organisers/", campaigns.CoOrganiserCollectionApi.as_view(), name="campaign-co-organisers"
    ),
    path(
        f"{_ONE}co-organisers/<key:username>/",
        campaigns.CoOrganiserApi.as_view(),
        name="campaign-co-organiser",
    ),
    path(f"{_ONE}log/", maps.CampaignLogApi.as_view(), name="campaign-log"),
    # Players
    path(f"{_ONE}enrolments/", players.EnrolmentCollectionApi.as_view(), name="campaign-enrolments"),
    path(f"{_ONE}enrolments/<id:enrolment_id>/admit/", players.AdmitApi.as_view(), name="campaign-admit"),
    path(f"{_ONE}enrolments/<id:enrolment_id>/refuse/", players.RefuseApi.as_view(), name="campaign-refuse"),
    path(
        f"{_ONE}enrolments/<id:enrolment_id>/claim-link/",
        players.ClaimLinkApi.as_view(),
        name="campaign-claim-link",
    ),
    path(f"{_ONE}withdraw/", players.WithdrawApi.as_view(), name="campaign-withdraw"),
    path(f"{_ONE}leave/", players.LeaveApi.as_view(), name="campaign-leave"),
    path(f"{_ONE}placeholders/", players.PlaceholderCollectionApi.as_view(), name="campaign-placeholders"),
    # Registered lists
    path(
        f"{_ONE}registrations/",
        registrations.RegistrationCollectionApi.as_view(),
        name="campaign-registrations",
    ),
    path(
        f"{_ONE}registrations/<id:registration_id>/",
        registrations.RegistrationApi.as_view(),
        name="campaign-registration",
    ),
    # The map
    path(f"{_ONE}sectors/", maps.SectorCollectionApi.as_view(), name="campaign-sectors"),
    path(f"{_ONE}sectors/<key:key>/", maps.SectorApi.as_view(), name="campaign-sector"),
    path(
        f"{_ONE}sectors/<key:key>/history/", maps.SectorHistoryApi.as_view(), name="campaign-sector-history"
    ),
    path(f"{_ONE}map/", maps.MapApi.as_view(), name="campaign-map"),
    path(f"{_ONE}map/default/", maps.MapDefaultApi.as_view(), name="campaign-map-default"),
    path(f"{_ONE}map.svg", maps.MapSvgApi.as_view(), name="campaign-map-svg"),
]
