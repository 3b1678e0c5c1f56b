"""The dashboard's "What the round waits on" panel: the counts of ``round_waits_on`` in words, each linked.

The panel polls itself (htmx, every 10 s) with the digest of what it shows
and that of the join requests the page lists; an answer that would show the
same is a 204, which htmx leaves alone, so a quiet campaign costs the five
counting queries, the list of requests and no swap (no lost focus). A changed
list of requests comes along out of band.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign
from campaign.options import Status
from campaign.selectors import join_requests
from campaign.selectors.dashboard import (
    CLOSE_ROUND,
    GENERATE_PAIRINGS,
    OPEN_REGISTRATION,
    OPEN_ROUND,
    PUBLISH_PAIRINGS,
    START,
    RoundWaits,
    round_waits_on,
)
from campaign.views.dashboard_requests import REQUESTS, request_rows, requests_digest
from campaign.views.sections import dashboard_sections
from core.http import HtmxHttpRequest

NEWS = "campaign/dashboard/_news.html"
MAX_NAMES_SAID = 3  # names read out when the join requests change; the rest are counted

PANEL = "campaign/dashboard/_needs_action.html"


@dataclass(frozen=True)
class Wait:
    """One line of the panel: how many, what, where to act, and a note (the soonest self-confirmation)."""

    key: str
    count: int
    text: str
    link: str
    note: str = ""
    blocks: bool = False  # holds the next step back


def plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def hours_left(when: datetime | None, now: datetime) -> str:
    if when is None:
        return ""
    seconds = (when - now).total_seconds()
    if seconds <= 0:
        return "the oldest is confirmed by itself at the next check"
    if seconds < 3600:
        return "the oldest is confirmed by itself within the hour"
    hours = math.ceil(seconds / 3600)
    return f"the oldest is confirmed by itself in {plural(hours, 'hour', 'hours')}"


def _waits(campaign: Campaign, waits: RoundWaits, now: datetime) -> list[Wait]:
    pk = campaign.pk
    battles = reverse("battles:list", args=[pk])
    dashboard = reverse("campaign:dashboard", args=[pk])
    number = waits.round_number
    rows = [
        Wait("join-requests", waits.join_requests,
             f"{plural(waits.join_requests, 'join request', 'join requests')} to decide",
             f"{dashboard}#requests-heading"),
        Wait("players-without-list", waits.players_without_list,
             f"{plural(waits.players_without_list, 'player has', 'players have')} no registered list",
             reverse("campaign:registrations", args=[pk])),
    ]  # fmt: skip
    if number is not None:
        round_page = reverse("campaign:round", args=[pk, number])
        rows += [
            Wait("battles-drafted", waits.battles_drafted,
                 f"{plural(waits.battles_drafted, 'drafted battle', 'drafted battles')} not yet published",
                 round_page, blocks=True),
            Wait("battles-unreported", waits.battles_unreported,
                 f"{plural(waits.battles_unreported, 'battle', 'battles')} of round {number} not yet reported",
                 f"{battles}?round={number}&status=scheduled"),
            Wait("challenges-open", waits.challenges_open,
                 f"{plural(waits.challenges_open, 'challenge waits', 'challenges wait')} for an answer",
                 reverse("campaign:challenges", args=[pk])),
            Wait("hidden-results", waits.hidden_results,
                 f"{plural(waits.hidden_results, 'agreed result takes', 'agreed results take')} effect at the close",
                 reverse("campaign:round_close", args=[pk, number])),
        ]  # fmt: skip
    rows += [
        Wait("reports-waiting", waits.reports_waiting,
             f"{plural(waits.reports_waiting, 'report waits', 'reports wait')} for the opponent",
             f"{battles}?status=reported", note=hours_left(waits.reports_confirm_at, now)),
        Wait("disputes", waits.disputes,
             f"{plural(waits.disputes, 'dispute', 'disputes')} to resolve",
             f"{dashboard}#disputes-heading", blocks=True),
    ]  # fmt: skip
    return rows


def _next_step(campaign: Campaign, waits: RoundWaits) -> tuple[str, str] | None:
    """The primary action: its words and its page."""
    pk, number = campaign.pk, waits.round_number
    step = waits.next_step
    if step == OPEN_REGISTRATION:
        return "Open registration…", reverse("campaign:status", args=[pk, "open-registration"])
    if step == START:
        return "Start the campaign…", reverse("campaign:status", args=[pk, "start"])
    if step == OPEN_ROUND:
        return f"Open round {campaign.current_round + 1}…", reverse("campaign:rounds", args=[pk])
    if number is None:
        return None
    if step == GENERATE_PAIRINGS:
        return f"Pair round {number}…", reverse("campaign:round", args=[pk, number])
    if step == PUBLISH_PAIRINGS:
        return f"Publish round {number}'s pairings…", reverse("campaign:round", args=[pk, number])
    if step == CLOSE_ROUND:
        return f"Close round {number}…", reverse("campaign:round_close", args=[pk, number])
    return None


def _blockers(campaign: Campaign, waits: RoundWaits) -> list[str]:
    """What stops the campaign moving on at all (read from the campaign and the counts: no query)."""
    blockers = []
    if campaign.catalogue_id is None:
        blockers.append("Choose the catalogue lists are checked against.")
    if campaign.map_document is None:
        blockers.append("Load a map.")
    if campaign.status == Status.REGISTRATION and len(waits.blocs_with_players) < 2:
        blockers.append("Admit players in at least two blocs before starting.")
    return blockers


def panel_context(campaign: Campaign) -> dict[str, Any]:
    waits = round_waits_on(campaign=campaign)
    rows = _waits(campaign, waits, timezone.now())
    return {
        "campaign": campaign,
        "waits": waits,
        "wait_rows": rows,
        "quiet": not any(row.count for row in rows),
        "next_step": _next_step(campaign, waits),
        "blockers": _blockers(campaign, waits),
        "poll_seconds": settings.DASHBOARD_POLL_SECONDS,
    }


def render_panel(request: HtmxHttpRequest, context: dict[str, Any]) -> tuple[str, str]:
    """The panel's body and its digest (what the next poll sends back)."""
    body = render_to_string("campaign/dashboard/_waits_body.html", context, request=request)
    return body, hashlib.sha256(body.encode()).hexdigest()[:16]


def panel(request: HtmxHttpRequest, campaign: Campaign, *, requests_digest: str) -> dict[str, Any]:
    """The panel's context with its rendered body and digest, for the dashboard and its out-of-band swap.

    ``requests_digest`` is that of the join requests the page lists: the poll sends it back with the panel's.
    """
    context = panel_context(campaign)
    body, digest = render_panel(request, context)
    return {**context, "panel_body": body, "panel_digest": digest, "requests_digest": requests_digest}


def panel_poll(request: HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """The panel, and out of band what changed of the sections it links to; a 204 when nothing changed.

    ``v`` is the digest of the panel the page shows and ``r`` that of its join requests (both absent when
    no page polls).
    """
    waiting = list(join_requests(campaign=campaign))
    listed = requests_digest(waiting)
    context = panel(request, campaign, requests_digest=listed)
    seen, seen_list = request.GET.get("v"), request.GET.get("r")
    panel_changed = seen != context["panel_digest"]
    list_changed = bool(seen_list) and seen_list != listed
    if not panel_changed and not list_changed:
        return HttpResponse(status=204)
    html = [render_to_string(PANEL, context, request)]
    if seen and panel_changed:
        # A page polled: the sections its counts link to (the disputes) come along out of band, or a count's link
        # would lead to a section still saying "No report is disputed." (none holds a form a swap could wipe).
        sections = dashboard_sections(request, campaign)
        html += [
            render_to_string(template, {**context, **sections, "oob": True}, request)
            for template in sections["dashboard_sections"]
        ]
    if list_changed:
        # The join requests the players changed: the page's script holds this back while the organiser is in
        # the list (a typed reason, the focus), and applies it once they leave it.
        rows = {"join_rows": request_rows(waiting), "stale_errors": [], "oob": True}
        html.append(render_to_string(REQUESTS, {**context, **rows}, request))
        # Said once to a screen reader (the page's status line), whether or not the list is held back.
        news = {"sentence": requests_news([enrolment.display_name for enrolment in waiting])}
        html.append(render_to_string(NEWS, news, request))
    return HttpResponse("".join(html))


def requests_news(names: list[str]) -> str:
    """The sentence announcing that the join requests changed, naming who waits (the first few)."""
    if not names:
        return "The join requests changed: nobody waits for an answer now."
    shown = names[:MAX_NAMES_SAID]
    if len(names) > len(shown):
        shown.append(f"{len(names) - len(shown)} more")
    who = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"
    count = "1 request waits" if len(names) == 1 else f"{len(names)} requests wait"
    return f"The join requests changed: {count} for an answer, from {who}."
