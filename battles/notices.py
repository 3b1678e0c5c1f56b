"""What the battle reports and sessions tell players: the kinds of notification, registered when the app loads."""

from __future__ import annotations

from django.urls import reverse

from accounts.notifications import register_kind
from battles.models import BattleReport
from campaign.services.notices import ends_with_round

REPORT_WAITING = "report-waiting"
REPORT_CONFIRMED = "report-confirmed"
REPORT_DISPUTED = "report-disputed"
REPORT_RESOLVED = "report-resolved"
SESSION_STARTED = "session-started"


def register_kinds() -> None:
    register_kind(
        REPORT_WAITING, "Reports to confirm", "Your opponent reported your battle: confirm or dispute it."
    )
    register_kind(REPORT_CONFIRMED, "Confirmed results", "The result of your battle is confirmed.")
    register_kind(REPORT_DISPUTED, "Disputes", "A battle report you are part of (or run) is disputed.")
    register_kind(REPORT_RESOLVED, "Resolved reports", "An organiser resolved, changed or entered a report.")
    register_kind(
        SESSION_STARTED,
        "Battles at the table",
        "Your battle's session at the table started: join it to play.",
    )
    ends_with_round(REPORT_WAITING)  # a closed round's report is settled by an organiser, not its players


def report_link(report: BattleReport) -> str:
    return reverse("campaign:battle", args=[report.campaign_id, report.battle_id])
