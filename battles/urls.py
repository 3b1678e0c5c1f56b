"""The battle report pages (the battle's own page, where a report shows, is ``campaign:battle``)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from battles.views import friendly, listing, matchup, report_actions, report_form, session

app_name = "battles"

BATTLE = "campaigns/<id:pk>/battles/<id:battle_id>/report"

urlpatterns: list[URLPattern | URLResolver] = [
    path("campaigns/<id:pk>/battles/", listing.battle_list, name="list"),
    path(f"{BATTLE}/", report_form.report_new, name="report"),
    path(f"{BATTLE}/preview/", report_form.report_preview_view, name="preview"),
    path(f"{BATTLE}/amend/", report_form.report_amend, name="amend"),
    path(f"{BATTLE}/confirm/", report_actions.report_confirm_view, name="confirm"),
    path(f"{BATTLE}/dispute/", report_actions.report_dispute_view, name="dispute"),
    path(f"{BATTLE}/resolve/<slug:decision>/", report_actions.report_resolve_view, name="resolve"),
    path("campaigns/<id:pk>/battles/<id:battle_id>/matchup/", matchup.matchup_view, name="matchup"),
    path(
        "campaigns/<id:pk>/battles/<id:battle_id>/session/", session.session_start_view, name="session-start"
    ),
    path("battle-sessions/join/", friendly.session_join_view, name="session-join"),
    path("battle-sessions/new/", friendly.friendly_new, name="session-friendly"),
    path("battle-sessions/<id:session_id>/", session.session_page, name="session"),
    path("battle-sessions/<id:session_id>/replay/", session.session_replay_view, name="session-replay"),
    path("battle-sessions/<id:session_id>/poll/", session.session_poll, name="session-poll"),
    path("battle-sessions/<id:session_id>/step/", session.session_step_view, name="session-step"),
    path("battle-sessions/<id:session_id>/undo/", session.session_undo_view, name="session-undo"),
    path("battle-sessions/<id:session_id>/abandon/", session.session_abandon_view, name="session-abandon"),
    path("battle-sessions/<id:session_id>/odds/", session.session_odds_view, name="session-odds"),
    path("battle-sessions/<id:session_id>/public/", session.session_public_view, name="session-public"),
]
