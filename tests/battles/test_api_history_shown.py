"""A report's history is written by battles.api.shapes.history_step_shown through HistoryOutput's own fields,
without building the serializer for every step: it must be what HistoryOutput writes, byte for byte, for
every kind of step (made, disputed, resolved by an organiser, confirmed by the clock with no actor)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from battles import selectors
from battles.api.shapes import HistoryOutput, _step, history_step_shown
from battles.models import BattleReport
from battles.services import report_confirm, report_resolve

pytestmark = pytest.mark.django_db


def both(report: BattleReport) -> tuple[str, str]:
    steps = [_step(entry, report) for entry in selectors.report_history(report=report)]
    serialized = json.dumps(HistoryOutput(steps, many=True).data)
    written = json.dumps([history_step_shown(step) for step in steps])
    return serialized, written


def test_it_writes_a_disputed_and_resolved_history_as_the_serializer_does(report_world: Any):
    report = report_world.disputed()
    report_resolve(
        report=report, actor=report_world.creator, decision="accepted", reason="Agreed at the club"
    )
    report.refresh_from_db()

    serialized, written = both(report)

    assert written == serialized
    assert len(json.loads(written)) == 3
    assert json.loads(written)[2]["actor"]["username"] == report_world.creator.username


def test_it_writes_a_step_taken_by_the_clock_as_the_serializer_does(report_world: Any):
    report = report_confirm(report=report_world.submitted(), actor=None, automatic=True)

    serialized, written = both(report)

    assert written == serialized
    steps = json.loads(written)
    assert steps[1]["actor"] is None
    assert steps[1]["result"]["winner"] == "attacker"
