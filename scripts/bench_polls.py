"""Benchmark: what the campaign night's polls cost when they bring nothing new, at 500 players.

The campaign is the one scripts/bench_dashboard.py builds (500 players, an open
round of 250 battles, 100 join requests), its standings computed, and its
organiser holding 40 notifications (10 unread); a 50-player one beside it.
Each poll is first asked once as a browser would (to learn the version it
then sends back: the ETag, the standings versions, the panel's digest), then
asked again with that version, which is what a poll with nothing new is:

- the standings status line (``/campaigns/<id>/standings/status/?seen=..&results=..``, htmx),
- the standings status endpoint (``/api/campaigns/<id>/standings/status/``, ``If-None-Match``),
- the header's bell (``/notifications/bell/``, htmx, ``If-None-Match``),
- the unread count endpoint (``/api/notifications/count/``, ``If-None-Match``),
- the dashboard's panel (``/campaigns/<id>/dashboard/waits/?v=<digest>``, htmx).

Each is timed through Django's test client as the organiser, its status printed
(a 304 or 204 answers without rendering) and its queries counted at both sizes
(the same number is the point). Target: every poll with nothing new under 20 ms,
its queries constant.

The database's statistics are gathered (``ANALYZE``) once the campaigns are
written, as PostgreSQL's autovacuum does on a live site: without them both
engines count the dashboard's players without a list through the wrong index
(the unique index on ``superseded_by``, read once for each of 600 places), and
that one count costs 15-30 ms instead of 1 (``--no-analyze`` shows it).

    .venv/bin/python scripts/bench_polls.py [--repeats 100] [--postgres] [--no-analyze]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bench_dashboard  # noqa: E402
from benchenv import bench_database, django_migrated, organiser_client, time_get  # noqa: E402

TARGET_MS = 20.0
HTMX = {"HX-Request": "true"}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=100)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--no-analyze", action="store_true")
    args = parser.parse_args()
    with bench_database(args.postgres) as engine_name:
        return run(args.repeats, engine_name, analyze=not args.no_analyze)


def _notifications(campaign: Any) -> None:
    from django.utils import timezone

    from accounts.models import Notification

    Notification.objects.bulk_create(
        Notification(user=campaign.organiser, kind="bench", message=f"Something happened ({n})",
                     read_at=None if n % 4 == 0 else timezone.now())
        for n in range(40)
    )  # fmt: skip


def _versions(campaign: Any) -> str:
    from campaign.models import Campaign
    from standings.models import Standings

    results = Campaign.objects.get(pk=campaign.pk).results_version
    seen = Standings.objects.get(campaign=campaign).results_version
    return f"?seen={seen}&results={results}"


def _etag(url: str, api: bool) -> Callable[[Any], dict[str, str]]:
    """The headers of a poll sending back the ETag its first answer gave (none: an unconditional poll)."""
    tags: dict[int, dict[str, str]] = {}

    def headers(campaign: Any) -> dict[str, str]:
        if campaign.pk not in tags:
            answer = organiser_client(campaign, api).get(url.format(pk=campaign.pk), **_wsgi(HTMX))
            tags[campaign.pk] = (
                {**HTMX, "If-None-Match": answer["ETag"]} if answer.has_header("ETag") else HTMX
            )
        return tags[campaign.pk]

    return headers


def _wsgi(headers: dict[str, str]) -> dict[str, str]:
    return {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()}


def _digest(campaign: Any) -> str:
    answer = organiser_client(campaign, False).get(f"/campaigns/{campaign.pk}/dashboard/waits/")
    body: str = answer.content.decode()
    return body.split("dashboard/waits/?v=", 1)[1].split('"', 1)[0]


def run(repeats: int, engine_name: str, *, analyze: bool) -> int:
    django_migrated()

    from django.db import connection

    from standings.services import standings_recompute

    began = time.perf_counter()
    large, small = bench_dashboard.build("large", 1), bench_dashboard.build("small", 10)
    for campaign in (large, small):
        standings_recompute(campaign_id=campaign.pk)
        _notifications(campaign)
    if analyze:
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    built = time.perf_counter() - began
    # Read before timing: what the page sends back (url_of runs while the poll's queries are counted).
    digests = {campaign.pk: _digest(campaign) for campaign in (large, small)}
    versions = {campaign.pk: _versions(campaign) for campaign in (large, small)}

    status_api = "/api/campaigns/{pk}/standings/status/"
    polls: dict[str, tuple[Callable[[Any], str], bool, Callable[[Any], dict[str, str]]]] = {
        "standings status line (htmx)": (
            lambda c: f"/campaigns/{c.pk}/standings/status/{versions[c.pk]}", False, lambda _c: HTMX),
        "standings status endpoint": (lambda c: status_api.format(pk=c.pk), True, _etag(status_api, True)),
        "bell (htmx)": (lambda _c: "/notifications/bell/", False, _etag("/notifications/bell/", False)),
        "unread count endpoint": (
            lambda _c: "/api/notifications/count/", True, _etag("/api/notifications/count/", True)),
        "dashboard panel (htmx)": (
            lambda c: f"/campaigns/{c.pk}/dashboard/waits/?v={digests[c.pk]}", False, lambda _c: HTMX),
    }  # fmt: skip
    stats = "statistics gathered" if analyze else "no statistics"
    print(f"polls with nothing new: 500 players, 250 battles in the open round, {engine_name} "
          f"(set up in {built:.1f} s, {stats}), x{repeats}")  # fmt: skip
    ok = True
    for name, (url_of, api, headers_of) in polls.items():
        client = organiser_client(large, api)
        status = client.get(url_of(large), **_wsgi(headers_of(large))).status_code
        timing = time_get(url_of, api, small, large, repeats, headers_of=headers_of, status=status)
        print(f"  {name}: {status}   median {timing.median_ms:.1f} ms   p95 {timing.p95_ms:.1f} ms   "
              f"(CPU median {timing.cpu_median_ms:.1f} ms)   {timing.size_bytes} bytes   "
              f"queries {timing.queries[0]} at 50 players, {timing.queries[1]} at 500"
              f"   (target: median < {TARGET_MS:.0f} ms)")  # fmt: skip
        ok = ok and timing.queries[0] == timing.queries[1] and timing.median_ms < TARGET_MS
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
