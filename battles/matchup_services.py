"""A battle's matchup sheet as a background job: asked for once per pair of lists, worked out by a worker.

``matchup_start`` (a page's button or ``POST .../matchup/``) finds or makes the
sheet's row for the battle's two chosen lists and queues it; asking again
changes nothing, except that a sheet whose message was lost (waiting past
``QUEUED_STALE_AFTER``) or whose worker died (running past
``RUNNING_STALE_AFTER``) is queued again, up to ``MAX_ATTEMPTS`` runs.
``matchup_run`` (the task) claims a waiting row with one conditional update, so
a message delivered twice works the sheet out once; it sizes the work first
(``rules.matchup.matchup_check``: a list too big is refused with a sentence,
never worked on), tells its progress through ``core.progress``, and stores the
sheet on the row.
"""

from __future__ import annotations

import hashlib
import json
import logging
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from battles.models import MatchupSheet, MatchupStatus
from campaign.models import Battle, Registration
from core.errors import DomainError
from core.progress import progress_clear, progress_set
from core.queue import enqueue_on_commit
from rules.engine import EngineInputError, RuleSet
from rules.matchup import FORMAT_VERSION, matchup_check, matchup_sheet
from rules.matchup_cards import matchup_units

logger = logging.getLogger(__name__)

QUEUED_STALE_AFTER = timedelta(minutes=2)
RUNNING_STALE_AFTER = timedelta(minutes=10)
MAX_ATTEMPTS = 2
_PROBLEM_MAX = 300


def matchup_progress_key(sheet_id: int) -> str:
    """Where the worker tells a sheet's progress (core.progress)."""
    return f"matchup-sheet:{sheet_id}"


def matchup_key(*, attacker: Registration, defender: Registration, ruleset: dict[str, Any]) -> str:
    """Everything a sheet is worked out from: the two snapshots (frozen: their ids name their content),
    the rule set and the sheet's format. Another input is another key, so no sheet is served stale."""
    inputs = [FORMAT_VERSION, attacker.pk, defender.pk, ruleset]
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


def _check_lists(battle: Battle, attacker: Registration, defender: Registration) -> None:
    for side, registration, place_id in (
        ("attacker", attacker, battle.attacker_id),
        ("defender", defender, battle.defender_id),
    ):
        if registration.enrolment_id != place_id:
            raise DomainError(
                "not-this-battles-list",
                f"that list is not one of the {side}'s registered lists",
                f"{side}_list",
            )


def _heal(sheet: MatchupSheet) -> bool:
    """Queue again a sheet whose message was lost or whose worker died; fail it after ``MAX_ATTEMPTS`` runs.
    True when it was queued again."""
    now = timezone.now()
    since = sheet.started_at or sheet.created_at
    lost = sheet.status == MatchupStatus.QUEUED and since < now - QUEUED_STALE_AFTER
    killed = sheet.status == MatchupStatus.RUNNING and since < now - RUNNING_STALE_AFTER
    if not (lost or killed):
        return False
    unchanged = MatchupSheet.objects.filter(pk=sheet.pk, status=sheet.status, attempts=sheet.attempts)
    if sheet.attempts >= MAX_ATTEMPTS:
        problem = f"The sheet was interrupted {sheet.attempts} times; nothing was worked out."
        if unchanged.update(status=MatchupStatus.FAILED, problem=problem, finished_at=now):
            progress_clear(matchup_progress_key(sheet.pk))
        return False
    with transaction.atomic():
        again = unchanged.update(status=MatchupStatus.QUEUED, started_at=now)
        if again:
            enqueue_on_commit("battles.tasks.matchup_sheet_run", sheet.pk)
    return bool(again)


def matchup_start(
    *, battle: Battle, attacker: Registration, defender: Registration, actor: Any
) -> tuple[MatchupSheet, bool]:
    """The battle's sheet for these two lists, queued if it was not asked for before; (sheet, queued now)."""
    _check_lists(battle, attacker, defender)
    key = matchup_key(attacker=attacker, defender=defender, ruleset=battle.campaign.ruleset)
    try:
        with transaction.atomic():
            sheet, created = MatchupSheet.objects.get_or_create(
                battle=battle, key=key,
                defaults={"attacker_registration": attacker, "defender_registration": defender,
                          "requested_by": actor if getattr(actor, "is_authenticated", False) else None},
            )  # fmt: skip
            if created:
                enqueue_on_commit("battles.tasks.matchup_sheet_run", sheet.pk)
                return sheet, True
    except IntegrityError:  # two first requests at once: the other one made it
        sheet = MatchupSheet.objects.get(battle=battle, key=key)
    if sheet.is_finished:
        return sheet, False
    queued = _heal(sheet)
    sheet.refresh_from_db()
    return sheet, queued


def _finish(sheet_id: int, status: MatchupStatus, *, result: Any = None, problem: str = "") -> None:
    MatchupSheet.objects.filter(pk=sheet_id).update(
        status=status, result=result, problem=problem[:_PROBLEM_MAX], finished_at=timezone.now()
    )
    progress_clear(matchup_progress_key(sheet_id))


def matchup_run(*, sheet_id: int) -> None:
    """Work out a waiting sheet. One already taken or finished is left alone."""
    claimed = MatchupSheet.objects.filter(
        pk=sheet_id, status=MatchupStatus.QUEUED, attempts__lt=MAX_ATTEMPTS
    ).update(status=MatchupStatus.RUNNING, attempts=F("attempts") + 1, started_at=timezone.now())
    if not claimed:
        return
    sheet = MatchupSheet.objects.select_related(
        "battle__campaign", "attacker_registration", "defender_registration"
    ).get(pk=sheet_id)
    job = matchup_progress_key(sheet_id)
    progress_set(job, 0, "reading the two lists")
    shown = [-1]

    def report(done: int, total: int) -> None:
        percent = 100 * done // max(total, 1)
        if percent != shown[0]:  # a write per percent, not per pair of units
            shown[0] = percent
            progress_set(job, percent, f"{done} of {total} pairs of units worked out")

    try:
        read = {
            side: matchup_units(registration.document, registration.profiles)
            for side, registration in (
                ("attacker", sheet.attacker_registration),
                ("defender", sheet.defender_registration),
            )
        }
        sides = {side: units for side, (units, _) in read.items()}
        ruleset = RuleSet.from_dict(sheet.battle.campaign.ruleset)
        matchup_check(sides, ruleset)
        result = {**matchup_sheet(sides, ruleset, progress=report),
                  "left_out": {side: left_out for side, (_, left_out) in read.items()}}  # fmt: skip
    except EngineInputError as exc:
        _finish(sheet_id, MatchupStatus.FAILED, problem=f"The sheet cannot be worked out: {exc.reason}.")
        return
    except Exception:
        logger.exception("matchup sheet %s crashed", sheet_id)
        _finish(
            sheet_id, MatchupStatus.FAILED, problem="The sheet could not be worked out on this site's side."
        )
        return
    _finish(sheet_id, MatchupStatus.DONE, result=result)
