"""The campaign-night pages read only the columns they show: never a registered list's document, unit cards,
costs or verdict, nor a report's sides and judgement, and the same number of queries at 8 and at 80 players.

A 500-player campaign's lists are megabytes of JSON: a page that fetched them for a table of names spent most
of its time decoding them (issue 19). The verdict may be read only to count its problems in the database.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.services import report_entries, report_submit
from campaign.models import Registration
from tests.battles.test_round_waits_queries import build

pytestmark = pytest.mark.django_db

WHOLE_DOCUMENTS = [
    '"campaign_registration"."document"',
    '"campaign_registration"."profiles"',
    '"campaign_registration"."costs"',
    '"campaign_registration"."verdict"',
    '"battles_battlereport"."sides"',
    '"battles_battlereport"."judgement"',
]
_COUNTED = re.compile(r"ARRAY_LENGTH\(", re.IGNORECASE)


def _outside_counts(sql: str) -> str:
    """The statement without its JSON array-length calls (a verdict's problems counted, not fetched)."""
    while match := _COUNTED.search(sql):
        depth, end = 1, match.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(sql[end], 0)
            end += 1
        sql = sql[: match.start()] + sql[end:]
    return sql


def _pages(campaign) -> dict[str, tuple[str, int]]:
    # Each page's address and its queries: the session, the user, the campaign and the organiser's own place,
    # then what the page lists, one query each.
    return {
        # + co-organisers, rosters (names), the sectors, the map's battles (names), the lists table (columns),
        # the organiser's places to register a list for
        "campaign page": (reverse("campaign:detail", args=[campaign.pk]), 10),
        # + co-organisers, placeholders, join requests, the five counts, factions, disputes (columns), the
        # battles being played at the table (the current round's open sessions)
        "dashboard": (reverse("campaign:dashboard", args=[campaign.pk]), 15),
        # + the join requests (for their digest), the five counts
        "dashboard panel": (reverse("campaign:dashboard_waits", args=[campaign.pk]), 10),
        # + the round, its battles, byes, the reports' statuses, the places with a list, the sectors
        "round page": (reverse("campaign:round", args=[campaign.pk, 1]), 10),
    }


@pytest.mark.parametrize("pairs", [4, 40])
def test_the_campaign_night_pages_read_no_whole_document(client, open_campaign, organiser, pairs):
    build(open_campaign, pairs)
    big = {"entries": [{"unit": f"unit-{n}", "notes": "x" * 200} for n in range(50)]}
    Registration.objects.filter(campaign=open_campaign).update(
        document=big, profiles=[big], costs=big, verdict={"ok": True, "problems": [{"code": "w"}]}
    )
    client.force_login(organiser)

    for name, (address, expected) in _pages(open_campaign).items():
        with CaptureQueriesContext(connection) as captured:
            response = client.get(address)

        assert response.status_code == 200, name
        fetched = [
            column
            for query in captured.captured_queries
            for column in WHOLE_DOCUMENTS
            if column in _outside_counts(query["sql"])
        ]
        assert fetched == [], name
        assert len(captured.captured_queries) == expected, name


def test_it_counts_a_lists_warnings_without_fetching_its_verdict(client, open_campaign, organiser):
    build(open_campaign, 2)
    Registration.objects.filter(campaign=open_campaign).update(
        verdict={"ok": True, "problems": [{"code": "a"}, {"code": "b"}]}
    )
    client.force_login(organiser)

    page = client.get(reverse("campaign:detail", args=[open_campaign.pk])).content.decode()

    assert page.count("2 warnings") == 4


def test_the_battle_page_reads_no_lists_document_or_verdict_for_its_report(
    client, battle, report_data, organiser
):
    # The report's sheets name each list's entries from its unit cards and AP paid: its document, terms and
    # verdict (read whole only to check a chosen list or to act on the report) stay in the database.
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    client.force_login(organiser)

    with CaptureQueriesContext(connection) as captured:
        page = client.get(reverse("campaign:battle", args=[battle.campaign_id, battle.pk])).content.decode()

    fetched = [
        column
        for query in captured.captured_queries
        for column in ('."document"', '."terms"', '."verdict"')
        if column in query["sql"]
    ]
    assert fetched == []
    for side in ("attacker", "defender"):
        for entry in report_entries(getattr(report, f"{side}_registration")):
            assert entry.name in page
