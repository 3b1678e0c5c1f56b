"""The campaign pages."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from campaign.views import (
    battles,
    challenges,
    dashboard,
    economy,
    listing,
    mapping,
    organisers,
    pages,
    pairings,
    players,
    registrations,
    rounds,
    scheduling,
    settings,
)

app_name = "campaign"

urlpatterns: list[URLPattern | URLResolver] = [
    path("campaigns/", listing.campaign_list, name="list"),
    path("campaigns/new/", listing.campaign_new, name="create"),
    path("campaigns/claim/<key:token>/", players.placeholder_claim_page, name="claim"),
    path("campaigns/<id:pk>/", pages.campaign_detail, name="detail"),
    path("campaigns/<id:pk>/timeline/", pages.campaign_timeline, name="timeline"),
    path("campaigns/<id:pk>/settings/", settings.campaign_settings, name="settings"),
    path("campaigns/<id:pk>/join/", players.campaign_join, name="join"),
    path("campaigns/<id:pk>/join/<key:token>/", players.campaign_join_invite, name="join_invite"),
    path("campaigns/<id:pk>/withdraw/", players.campaign_withdraw, name="withdraw"),
    path("campaigns/<id:pk>/leave/", players.campaign_leave, name="leave"),
    path("campaigns/<id:pk>/dashboard/", dashboard.campaign_dashboard, name="dashboard"),
    path("campaigns/<id:pk>/dashboard/waits/", dashboard.dashboard_waits, name="dashboard_waits"),
    path(
        "campaigns/<id:pk>/requests/<id:enrolment_id>/admit/",
        dashboard.enrolment_admit_view,
        name="admit",
    ),
    path(
        "campaigns/<id:pk>/requests/<id:enrolment_id>/refuse/",
        dashboard.enrolment_refuse_view,
        name="refuse",
    ),
    path("campaigns/<id:pk>/status/<slug:action>/", dashboard.campaign_status, name="status"),
    path("campaigns/<id:pk>/invite/regenerate/", organisers.invite_regenerate, name="invite_regenerate"),
    path("campaigns/<id:pk>/organisers/add/", organisers.co_organiser_add_view, name="co_organiser_add"),
    path(
        "campaigns/<id:pk>/organisers/<id:user_id>/remove/",
        organisers.co_organiser_remove_view,
        name="co_organiser_remove",
    ),
    path("campaigns/<id:pk>/placeholders/add/", organisers.placeholder_add_view, name="placeholder_add"),
    path(
        "campaigns/<id:pk>/placeholders/<id:enrolment_id>/claim-link/",
        organisers.claim_link_view,
        name="claim_link",
    ),
    path("campaigns/<id:pk>/lists/", registrations.registration_list, name="registrations"),
    path(
        "campaigns/<id:pk>/lists/<id:registration_id>/",
        registrations.registration_detail,
        name="registration",
    ),
    path("campaigns/<id:pk>/rounds/", rounds.round_list, name="rounds"),
    path("campaigns/<id:pk>/rounds/open/", rounds.round_open_view, name="round_open"),
    path("campaigns/<id:pk>/rounds/<id:number>/", pairings.round_detail, name="round"),
    path(
        "campaigns/<id:pk>/rounds/<id:number>/schedule/",
        scheduling.battle_schedule_view,
        name="battle_schedule",
    ),
    path("campaigns/<id:pk>/rounds/<id:number>/close/", rounds.round_close_view, name="round_close"),
    path("campaigns/<id:pk>/rounds/<id:number>/reopen/", rounds.round_reopen_view, name="round_reopen"),
    path(
        "campaigns/<id:pk>/rounds/<id:number>/pairings/generate/",
        pairings.pairings_generate_view,
        name="pairings_generate",
    ),
    path(
        "campaigns/<id:pk>/rounds/<id:number>/pairings/swap/",
        pairings.pairings_swap_view,
        name="pairings_swap",
    ),
    path(
        "campaigns/<id:pk>/rounds/<id:number>/pairings/publish/",
        pairings.pairings_publish_view,
        name="pairings_publish",
    ),
    path(
        "campaigns/<id:pk>/rounds/<id:number>/battles/<id:battle_id>/sector/",
        pairings.battle_sector_view,
        name="battle_sector",
    ),
    path("campaigns/<id:pk>/battles/<id:battle_id>/", battles.battle_detail, name="battle"),
    path("campaigns/<id:pk>/battles/<id:battle_id>/terms/", battles.battle_terms_view, name="battle_terms"),
    path("campaigns/<id:pk>/challenges/", challenges.challenge_list, name="challenges"),
    path("campaigns/<id:pk>/challenges/new/", challenges.challenge_issue_view, name="challenge_issue"),
    path("campaigns/<id:pk>/challenges/<id:challenge_id>/", challenges.challenge_detail, name="challenge"),
    path(
        "campaigns/<id:pk>/challenges/<id:challenge_id>/<slug:answer>/",
        challenges.challenge_answer_view,
        name="challenge_answer",
    ),
    path("campaigns/<id:pk>/economy/", economy.economy_page, name="economy"),
    path("campaigns/<id:pk>/economy/buy/", economy.fortification_buy_view, name="fortification_buy"),
    path("campaigns/<id:pk>/economy/adjust/", economy.ledger_adjust_view, name="ledger_adjust"),
    path("campaigns/<id:pk>/map/", mapping.map_manage, name="map"),
    path("campaigns/<id:pk>/map/default/", mapping.map_load_default, name="map_default"),
    path("campaigns/<id:pk>/map/upload/", mapping.map_upload, name="map_upload"),
    path("campaigns/<id:pk>/sectors/<key:key>/", mapping.sector_page, name="sector"),
]
