"""Admin for the standings: for looking only. They are written by the recompute, adjustments by a service
that logs them; an edit here would skip both."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from campaign.admin import ReadOnlyAdmin
from standings.models import Adjustment, Standings


@admin.register(Standings)
class StandingsAdmin(ReadOnlyAdmin[Standings]):
    list_display = ["campaign", "results_version", "computed_at", "reports_counted", "took_ms"]
    # Deleting standings is safe: the beat job finds the campaign without them and recomputes.
    exclude = ["history"]


@admin.register(Adjustment)
class AdjustmentAdmin(ReadOnlyAdmin[Adjustment]):
    list_display = ["campaign", "enrolment", "points", "reason", "round_number", "actor", "created_at"]
    list_select_related = ["campaign", "enrolment__player", "actor"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
