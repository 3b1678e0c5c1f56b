"""The export and import pages."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from exchange import views

app_name = "exchange"

urlpatterns: list[URLPattern | URLResolver] = [
    path("campaigns/import/", views.campaign_import_view, name="import"),
    path("campaigns/imports/<uuid:job_id>/", views.campaign_import_job_view, name="import_job"),
    path("campaigns/<id:pk>/export/", views.campaign_export_view, name="export"),
    path("campaigns/<id:pk>/results.csv", views.results_csv_view, name="results_csv"),
    path("campaigns/<id:pk>/standings.csv", views.standings_csv_view, name="standings_csv"),
]
