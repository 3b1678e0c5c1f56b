"""The campaign pages."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from campaign.views import dashboard, listing, mapping, organisers, pages, players, settings

app_name = "campaign"

urlpatterns: list[URLPattern | URLResolver] = [
    path("campaigns/", listing.campaign_list, name="list"),
    path("campaigns/new/", listing.campaign_new, name="create"),
    path("campaigns/claim/<str:token>/", players.placeholder_claim_page, name="claim"),
    path("campaigns/<int:pk>/", pages.campaign_detail, name="detail"),
    path("campaigns/<int:pk>/timeline/", pages.campaign_timeline, name="timeline"),
    path("campaigns/<int:pk>/settings/", settings.campaign_settings, name="settings"),
    path("campaigns/<int:pk>/join/", players.campaign_join, name="join"),
    path("campaigns/<int:pk>/join/<str:token>/", players.campaign_join_invite, name="join_invite"),
    path("campaigns/<int:pk>/withdraw/", players.campaign_withdraw, name="withdraw"),
    path("campaigns/<int:pk>/leave/", players.campaign_leave, name="leave"),
    path("campaigns/<int:pk>/dashboard/", dashboard.campaign_dashboard, name="dashboard"),
    path(
        "campaigns/<int:pk>/requests/<int:enrolment_id>/admit/",
        dashboard.enrolment_admit_view,
        name="admit",
    ),
    path(
        "campaigns/<int:pk>/requests/<int:enrolment_id>/refuse/",
        dashboard.enrolment_refuse_view,
        name="refuse",
    ),
    path("campaigns/<int:pk>/status/<slug:action>/", dashboard.campaign_status, name="status"),
    path("campaigns/<int:pk>/invite/regenerate/", organisers.invite_regenerate, name="invite_regenerate"),
    path("campaigns/<int:pk>/organisers/add/", organisers.co_organiser_add_view, name="co_organiser_add"),
    path(
        "campaigns/<int:pk>/organisers/<int:user_id>/remove/",
        organisers.co_organiser_remove_view,
        name="co_organiser_remove",
    ),
    path("campaigns/<int:pk>/placeholders/add/", organisers.placeholder_add_view, name="placeholder_add"),
    path(
        "campaigns/<int:pk>/placeholders/<int:enrolment_id>/claim-link/",
        organisers.claim_link_view,
        name="claim_link",
    ),
    path("campaigns/<int:pk>/map/", mapping.map_manage, name="map"),
    path("campaigns/<int:pk>/map/default/", mapping.map_load_default, name="map_default"),
    path("campaigns/<int:pk>/map/upload/", mapping.map_upload, name="map_upload"),
    path("campaigns/<int:pk>/sectors/<str:key>/", mapping.sector_page, name="sector"),
]
