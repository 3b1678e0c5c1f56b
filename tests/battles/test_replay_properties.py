"""The campaign's state after any sequence of confirmations, amendments, voids and sector edits equals a
replay of its history: checked against an independent model of the history kept by the test itself."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from battles.models import BattleReport
from battles.services import ReportInput, SideInput, report_enter, report_resolve
from campaign.models import Battle, BattleSource, BattleStatus, Round, Sector, sides_recorded
from campaign.services.map import sector_update
from campaign.services.results import campaign_check
from tests.battles.conftest import ALLIED_UNITS, AXIS_UNITS, register

pytestmark = pytest.mark.django_db

# (attacker, defender, sector index): several battles fight over the same two sectors.
PAIRS = [("x1", "a1", 0), ("s1", "x2", 0), ("a2", "s2", 1), ("x1", "s2", 1)]
UNITS = {"Axis": AXIS_UNITS, "Allies": ALLIED_UNITS, "SSU": ("ssu.volga-rifle-squad", "ssu.medved")}

operation = st.one_of(
    st.tuples(st.just("enter"), st.integers(0, len(PAIRS) - 1), st.sampled_from(["attacker", "defender"])),
    st.tuples(st.just("amend"), st.integers(0, len(PAIRS) - 1), st.sampled_from(["attacker", "defender"])),
    st.tuples(st.just("void"), st.integers(0, len(PAIRS) - 1), st.just("")),
    st.tuples(st.just("edit"), st.integers(0, 1), st.sampled_from(["", "Axis", "Allies", "SSU"])),
)


def _data(lists: dict[str, Any], battle: Battle, winner: str) -> ReportInput:
    loser = "defender" if winner == "attacker" else "attacker"
    sides = {winner: SideInput(), loser: SideInput(lost=("e1", "e2"))}
    return ReportInput(
        attacker_registration=lists[battle.attacker.player.username],
        defender_registration=lists[battle.defender.player.username],
        turns=6, ending="turn_limit", attacker=sides["attacker"], defender=sides["defender"],
    )  # fmt: skip


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])  # fmt: skip
@given(steps=st.lists(operation, min_size=1, max_size=8))
def test_the_map_and_the_awards_always_equal_a_replay_of_the_history(
    steps, running_campaign, organiser, place
):
    with transaction.atomic():
        first = Round.objects.create(
            campaign=running_campaign, number=1, deadline=timezone.now() + timedelta(days=7)
        )
        sectors = list(Sector.objects.filter(campaign=running_campaign, owner="", headquarters_of="")[:2])
        names = {p for a, d, _s in PAIRS for p in (a, d)}
        lists = {name: register(place(name), UNITS[place(name).bloc], place(name).bloc) for name in names}
        battles = [
            Battle.objects.create(
                campaign=running_campaign,
                round=first,
                sector=sectors[s],
                attacker=place(a),
                defender=place(d),
                **sides_recorded(attacker=place(a), defender=place(d)),
                mission="hold-the-line",
                points_limit=150,
                status=BattleStatus.SCHEDULED,
                source=BattleSource.PAIRING,
            )
            for a, d, s in PAIRS
        ]
        # The model: edits and first recordings in order, and each battle's final winner (None: not confirmed).
        history: list[tuple[str, int, str]] = []
        recorded: set[int] = set()
        winner: dict[int, str | None] = {}
        for action, index, value in steps:
            if action == "edit":
                # Ruling: an edit to the value the sector already has changes nothing and is not logged,
                # so it is no part of the history (a later void may still move the sector back).
                unchanged = Sector.objects.get(pk=sectors[index].pk).owner == value
                sector_update(campaign=running_campaign, actor=organiser, key=sectors[index].key,
                              changes={"owner": value}, reason="a test's edit")  # fmt: skip
                if not unchanged:
                    history.append(("edit", index, value))
                continue
            battle = Battle.objects.select_related("attacker__player", "defender__player").get(
                pk=battles[index].pk
            )
            report = BattleReport.objects.filter(battle=battle).first()
            if action == "enter" and battle.status == BattleStatus.SCHEDULED:
                report_enter(
                    battle=battle, actor=organiser, data=_data(lists, battle, value), reason="entered"
                )
            elif action == "amend" and report is not None:
                report_resolve(report=report, actor=organiser, decision="amended", reason="amended",
                               data=_data(lists, battle, value))  # fmt: skip
            elif action == "void" and report is not None and report.status != "void":
                report_resolve(report=report, actor=organiser, decision="voided", reason="voided")
                winner[index] = None
                continue
            else:
                continue
            winner[index] = value
            if index not in recorded:
                recorded.add(index)
                history.append(("result", index, ""))

        expected = {s.key: s.owner for s in sectors}
        for kind, index, value in history:
            if kind == "edit":
                expected[sectors[index].key] = value
            elif winner.get(index) == "attacker":
                battle = battles[index]
                expected[battle.sector.key] = battle.attacker.bloc
        actual = {s.key: s.owner for s in Sector.objects.filter(pk__in=[s.pk for s in sectors])}
        check = campaign_check(campaign=running_campaign)
        transaction.set_rollback(True)

    note(f"history {history}, winners {winner}")
    assert actual == expected
    assert check.ok, check
