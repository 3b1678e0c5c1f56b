"""The standings API, under /api/campaigns/<id>/standings/."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from standings import api

_ONE = "campaigns/<id:pk>/standings/"

urlpatterns: list[URLPattern | URLResolver] = [
    path(_ONE, api.StandingsApi.as_view(), name="standings"),
    path(f"{_ONE}status/", api.StandingsStatusApi.as_view(), name="standings-status"),
    path(f"{_ONE}history/", api.HistoryApi.as_view(), name="standings-history"),
    path(f"{_ONE}adjustments/", api.AdjustmentCollectionApi.as_view(), name="standings-adjustments"),
    path(f"{_ONE}players/<id:enrolment_id>/", api.PlayerStandingApi.as_view(), name="standings-player"),
]
