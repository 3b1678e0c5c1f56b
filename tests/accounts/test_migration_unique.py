"""Migrations 0003 and 0004 on data that already breaks the new rules: they say what they did, and finish."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("accounts", "0002_notifications")]
AFTER = [("accounts", "0004_unique_skeleton_and_email")]


def _migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


@pytest.fixture
def before_0003(transactional_db: None) -> Iterator[MigrationExecutor]:
    """The database as it was before 0003; put back to the latest state whatever the test does."""
    executor = _migrate(BEFORE)
    try:
        yield executor
    finally:
        _migrate(executor.loader.graph.leaf_nodes())


def test_it_keeps_the_oldest_owner_of_an_email_and_reports_the_ones_it_cleared(before_0003, capsys):
    old_user = before_0003.loader.project_state(BEFORE).apps.get_model("accounts", "User")
    now = timezone.now()
    old_user.objects.create(username="first", email="Vera@example.test", date_joined=now - timedelta(days=2))
    old_user.objects.create(username="second", email="vera@EXAMPLE.test", date_joined=now - timedelta(days=1))
    old_user.objects.create(username="mailless-1", email="", date_joined=now)
    old_user.objects.create(username="mailless-2", email="", date_joined=now)

    new_user = _migrate(AFTER).loader.project_state(AFTER).apps.get_model("accounts", "User")

    emails = dict(new_user.objects.values_list("username", "email"))
    assert emails == {"first": "Vera@example.test", "second": "", "mailless-1": "", "mailless-2": ""}
    assert "e-mail 'vera@EXAMPLE.test' cleared on 'second'; 'first' keeps it" in capsys.readouterr().out


def test_it_keeps_every_lookalike_name_and_gives_the_oldest_the_skeleton(before_0003, capsys):
    old_user = before_0003.loader.project_state(BEFORE).apps.get_model("accounts", "User")
    now = timezone.now()
    anna = old_user.objects.create(
        username="anna", email="a@example.test", date_joined=now - timedelta(days=2)
    )
    cyrillic = old_user.objects.create(username="\u0430nna", email="b@example.test", date_joined=now)

    new_user = _migrate(AFTER).loader.project_state(AFTER).apps.get_model("accounts", "User")

    skeletons = dict(new_user.objects.values_list("pk", "username_skeleton"))
    assert skeletons == {anna.pk: "anna", cyrillic.pk: f"anna#{cyrillic.pk}"}
    assert "'\u0430nna' looks like the older 'anna'; both kept" in capsys.readouterr().out
