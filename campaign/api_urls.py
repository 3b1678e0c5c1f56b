"""The campaign API: one endpoint per action, under /api/campaigns/."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from campaign.api import (
    battles,
    campaigns,
    challenges,
    dashboard,
    economy,
    maps,
    missions,
    players,
    registrations,
    rounds,
    scheduling,
)

_ONE = "campaigns/<id:pk>/"
_ROUND = f"{_ONE}rounds/<id:number>/"

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
    path(f"{_ONE}dashboard/", dashboard.DashboardApi.as_view(), name="campaign-dashboard"),
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
    # Rounds and pairings
    path(f"{_ONE}rounds/", rounds.RoundCollectionApi.as_view(), name="campaign-rounds"),
    path(_ROUND, rounds.RoundApi.as_view(), name="campaign-round"),
    path(f"{_ROUND}close/", rounds.RoundCloseApi.as_view(), name="campaign-round-close"),
    path(f"{_ROUND}reopen/", rounds.RoundReopenApi.as_view(), name="campaign-round-reopen"),
    path(f"{_ROUND}pairings/", rounds.PairingsGenerateApi.as_view(), name="campaign-pairings"),
    path(f"{_ROUND}pairings/swap/", rounds.PairingsSwapApi.as_view(), name="campaign-pairings-swap"),
    path(f"{_ROUND}pairings/sector/", rounds.PairingsSetSectorApi.as_view(), name="campaign-pairings-sector"),
    path(f"{_ROUND}pairings/publish/", rounds.PairingsPublishApi.as_view(), name="campaign-pairings-publish"),
    path(f"{_ROUND}battles/", scheduling.RoundBattleScheduleApi.as_view(), name="campaign-round-battles"),
    # Battles
    path(f"{_ONE}battles/", battles.BattleCollectionApi.as_view(), name="campaign-battles"),
    path(f"{_ONE}battles/<id:battle_id>/", battles.BattleApi.as_view(), name="campaign-battle"),
    path(
        f"{_ONE}battles/<id:battle_id>/list-check/",
        battles.BattleListCheckApi.as_view(),
        name="campaign-battle-list-check",
    ),
    # Challenges
    path(f"{_ONE}challenges/", challenges.ChallengeCollectionApi.as_view(), name="campaign-challenges"),
    path(
        f"{_ONE}challenges/<id:challenge_id>/", challenges.ChallengeApi.as_view(), name="campaign-challenge"
    ),
    path(
        f"{_ONE}challenges/<id:challenge_id>/accept/",
        challenges.ChallengeAcceptApi.as_view(),
        name="campaign-challenge-accept",
    ),
    path(
        f"{_ONE}challenges/<id:challenge_id>/decline/",
        challenges.ChallengeDeclineApi.as_view(),
        name="campaign-challenge-decline",
    ),
    path(
        f"{_ONE}challenges/<id:challenge_id>/withdraw/",
        challenges.ChallengeWithdrawApi.as_view(),
        name="campaign-challenge-withdraw",
    ),
    # The war economy
    path(f"{_ONE}balances/", economy.BalanceCollectionApi.as_view(), name="campaign-balances"),
    path(f"{_ONE}ledger/", economy.LedgerApi.as_view(), name="campaign-ledger"),
    path(f"{_ONE}purchases/", economy.PurchaseCollectionApi.as_view(), name="campaign-purchases"),
    # The mission library (the same for every campaign)
    path("missions/", missions.MissionLibraryApi.as_view(), name="missions"),
]
