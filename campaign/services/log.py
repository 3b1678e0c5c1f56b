"""Writing the campaign log: every service records its change here, in the change's transaction."""

from __future__ import annotations

from typing import Any

from campaign.models import Campaign, LogEntry, LogKind


def log_write(
    *,
    campaign: Campaign,
    kind: LogKind,
    subject: str,
    actor: Any = None,
    field: str = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
    cause: str = "",
) -> LogEntry:
    """Append one entry. ``actor`` is the user who acted (None: the site itself, e.g. a beat job)."""
    return LogEntry.objects.create(
        campaign=campaign,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        kind=kind,
        subject=subject,
        field=field,
        before=before,
        after=after,
        reason=reason,
        round_number=campaign.current_round,
        map_version=campaign.map_version,
        cause=cause,
    )
