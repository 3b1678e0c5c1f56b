"""The export and import endpoints, under /api/campaigns/."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from exchange import api

urlpatterns: list[URLPattern | URLResolver] = [
    path("campaigns/imports/", api.CampaignImportsApi.as_view(), name="campaign-imports"),
    path("campaigns/imports/<uuid:job_id>/", api.CampaignImportApi.as_view(), name="campaign-import"),
    path("campaigns/<id:pk>/export/", api.CampaignExportApi.as_view(), name="campaign-export"),
    path("campaigns/<id:pk>/results.csv", api.ResultsCsvApi.as_view(), name="campaign-results-csv"),
    path("campaigns/<id:pk>/standings.csv", api.StandingsCsvApi.as_view(), name="campaign-standings-csv"),
]
