"""The battle reports API, under a campaign's battles (/api/campaigns/<id>/battles/<id>/report/) and its
reports (/api/campaigns/<id>/reports/), and a battle's matchup sheet (.../battles/<id>/matchup/)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from battles.api import matchup, reports

_ONE = "campaigns/<id:pk>/"
_REPORT = f"{_ONE}battles/<id:battle_id>/report/"

urlpatterns: list[URLPattern | URLResolver] = [
    path(_REPORT, reports.ReportApi.as_view(), name="battle-report"),
    path(f"{_REPORT}preview/", reports.ReportPreviewApi.as_view(), name="battle-report-preview"),
    path(f"{_REPORT}confirm/", reports.ReportConfirmApi.as_view(), name="battle-report-confirm"),
    path(f"{_REPORT}dispute/", reports.ReportDisputeApi.as_view(), name="battle-report-dispute"),
    path(f"{_REPORT}resolve/", reports.ReportResolveApi.as_view(), name="battle-report-resolve"),
    path(f"{_REPORT}enter/", reports.ReportEnterApi.as_view(), name="battle-report-enter"),
    path(f"{_ONE}battles/<id:battle_id>/matchup/", matchup.MatchupApi.as_view(), name="battle-matchup"),
    path(f"{_ONE}reports/", reports.ReportCollectionApi.as_view(), name="campaign-reports"),
    path(f"{_ONE}reports/disputes/", reports.DisputeQueueApi.as_view(), name="campaign-disputes"),
]
