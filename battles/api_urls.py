"""The battle reports API, under a campaign's battles (/api/campaigns/<id>/battles/<id>/report/) and its
reports (/api/campaigns/<id>/reports/), and a battle's matchup sheet (.../battles/<id>/matchup/)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from battles.api import matchup, reports
from battles.sessions import api as sessions

_ONE = "campaigns/<id:pk>/"
_REPORT = f"{_ONE}battles/<id:battle_id>/report/"
_SESSION = "battle-sessions/<id:session_id>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path(_REPORT, reports.ReportApi.as_view(), name="battle-report"),
    path(f"{_REPORT}preview/", reports.ReportPreviewApi.as_view(), name="battle-report-preview"),
    path(f"{_REPORT}confirm/", reports.ReportConfirmApi.as_view(), name="battle-report-confirm"),
    path(f"{_REPORT}dispute/", reports.ReportDisputeApi.as_view(), name="battle-report-dispute"),
    path(f"{_REPORT}resolve/", reports.ReportResolveApi.as_view(), name="battle-report-resolve"),
    path(f"{_REPORT}enter/", reports.ReportEnterApi.as_view(), name="battle-report-enter"),
    path(f"{_ONE}battles/<id:battle_id>/matchup/", matchup.MatchupApi.as_view(), name="battle-matchup"),
    path(
        f"{_ONE}battles/<id:battle_id>/session/",
        sessions.SessionStartApi.as_view(),
        name="battle-session-start",
    ),
    path("battle-sessions/", sessions.FriendlyStartApi.as_view(), name="battle-session-friendly"),
    path("battle-sessions/join/", sessions.SessionJoinApi.as_view(), name="battle-session-join"),
    path(_SESSION, sessions.SessionApi.as_view(), name="battle-session"),
    path(f"{_SESSION}version/", sessions.SessionVersionApi.as_view(), name="battle-session-version"),
    path(f"{_SESSION}steps/", sessions.SessionStepApi.as_view(), name="battle-session-step"),
    path(f"{_SESSION}undo/", sessions.SessionUndoApi.as_view(), name="battle-session-undo"),
    path(f"{_SESSION}undo/ask/", sessions.SessionUndoAskApi.as_view(), name="battle-session-undo-ask"),
    path(f"{_SESSION}undo/agree/", sessions.SessionUndoAgreeApi.as_view(), name="battle-session-undo-agree"),
    path(
        f"{_SESSION}undo/refuse/", sessions.SessionUndoRefuseApi.as_view(), name="battle-session-undo-refuse"
    ),
    path(f"{_SESSION}concede/", sessions.SessionConcedeApi.as_view(), name="battle-session-concede"),
    path(f"{_SESSION}abandon/", sessions.SessionAbandonApi.as_view(), name="battle-session-abandon"),
    path(f"{_SESSION}odds/", sessions.SessionOddsApi.as_view(), name="battle-session-odds"),
    path(f"{_SESSION}public/", sessions.SessionPublicApi.as_view(), name="battle-session-public"),
    path(f"{_SESSION}replay/", sessions.SessionReplayApi.as_view(), name="battle-session-replay"),
    path(f"{_ONE}reports/", reports.ReportCollectionApi.as_view(), name="campaign-reports"),
    path(f"{_ONE}reports/disputes/", reports.DisputeQueueApi.as_view(), name="campaign-disputes"),
]
