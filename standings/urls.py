"""The standings pages, under a campaign's address."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from standings import views

app_name = "standings"

urlpatterns: list[URLPattern | URLResolver] = [
    path("campaigns/<id:pk>/standings/", views.standings_page, name="standings"),
    path("campaigns/<id:pk>/standings/status/", views.standings_status_fragment, name="status"),
    path("campaigns/<id:pk>/standings/print/", views.standings_print, name="print"),
    path("campaigns/<id:pk>/standings/adjust/", views.adjustment_add_view, name="adjust"),
    path("campaigns/<id:pk>/standings/players/<id:enrolment_id>/", views.player_page, name="player"),
]
