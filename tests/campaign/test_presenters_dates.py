"""``day_and_time`` writes a moment as the template's date filter does, in the active time zone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.template.defaultfilters import date
from django.utils import timezone

from campaign.views.presenters import day_and_time, days_and_times

MOMENTS = [
    datetime(2026, 1, 5, 0, 7, tzinfo=UTC),
    datetime(2026, 3, 29, 1, 30, tzinfo=UTC),  # the night the clocks go forward in Europe
    datetime(2026, 9, 30, 23, 59, tzinfo=UTC),
    datetime(2026, 12, 31, 22, 15, tzinfo=UTC),
]


@pytest.mark.parametrize("zone", ["UTC", "Europe/Moscow", "America/New_York"])
def test_it_writes_a_moment_as_the_date_filter_does(zone):
    with timezone.override(zone):
        written = [day_and_time(moment) for moment in MOMENTS]
        together = days_and_times(MOMENTS)
        expected = [date(timezone.localtime(moment), "j M Y, H:i") for moment in MOMENTS]

    assert written == expected
    assert together == expected
    assert written[0] == {"UTC": "5 Jan 2026, 00:07", "Europe/Moscow": "5 Jan 2026, 03:07",
                          "America/New_York": "4 Jan 2026, 19:07"}[zone]  # fmt: skip
