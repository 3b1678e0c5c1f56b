"""The reads of a battle session: the state for a viewer, a replay, and the version the phones poll."""

from __future__ import annotations

import json
from typing import Any

from armies.models import ArmyList
from battles.permissions import can_correct_session, can_view_session, session_may_be_public, session_sides
from battles.sessions import live
from battles.sessions.models import BattleSession, SessionStatus, SessionStep
from campaign.models import BattleStatus
from core.errors import ConflictError, DomainError
from rules.engine import attack_odds
from rules.engine.battle import (
    Attack,
    BattleSetup,
    BattleState,
    DiceWanted,
    attack_request,
    first_roll,
    legal_steps,
    replay,
    state_to_dict,
    step_from_dict,
    step_to_dict,
)

# What the poll reads of a session: the columns ``can_view_session`` needs and the version, nothing wide.
_POLL_COLUMNS = ("id", "version", "status", "undo_to", "public", "attacker_player_id", "defender_player_id",
                 "battle_id", "campaign_id", "campaign__is_public",
                 "campaign__hide_results_until_close")  # fmt: skip


def is_ready(session: BattleSession) -> bool:
    """Both sides are known (a friendly game waits for its opponent's list until they join)."""
    return "defender" in session.setup


def live_state(session: BattleSession) -> tuple[BattleSetup, BattleState]:
    """The setup and the state after the session's live steps (kept per process, else replayed)."""
    if not is_ready(session):
        raise ConflictError("session-waiting", "the opponent has not joined with a list yet", "session")
    key = live.key_of(session)
    setup = live.setup_of(key, session.setup)
    state = live.state_of(key, session.version, setup, None)  # the version only grows: never another state's
    if state is None:
        steps = SessionStep.objects.filter(session=session, undone_at__isnull=True).order_by("number")
        state = live.state_of(key, session.version, setup, list(steps.values_list("data", flat=True)))
    assert state is not None
    return setup, state


def session_for(*, user: Any, session_id: int) -> BattleSession | None:
    """The session, if the user may see it (None: as if it did not exist)."""
    session = (
        BattleSession.objects.select_related(
            "battle__campaign", "battle__attacker", "battle__defender", "campaign"
        )
        .filter(pk=session_id)
        .first()
    )
    return session if session is not None and can_view_session(user, session) else None


def open_session_of(battle_id: int) -> BattleSession | None:
    """The battle's open session (at most one), for its page's link."""
    rows = BattleSession.objects.select_related(
        "battle__campaign", "battle__attacker", "battle__defender", "campaign"
    )
    return rows.filter(battle_id=battle_id, status=SessionStatus.OPEN).first()


def open_session_ids(*, battle_ids: list[int]) -> dict[int, int]:
    """Each of these battles' open session (at most one a battle), by battle: one query of two columns."""
    rows = BattleSession.objects.filter(battle_id__in=battle_ids, status=SessionStatus.OPEN)
    return dict(rows.values_list("battle_id", "pk"))


def own_lists(user: Any) -> list[Any]:
    """The user's army lists, newest first, for a friendly game's choice of forces."""
    return list(ArmyList.objects.filter(owner_id=user.pk).order_by("-updated_at", "-pk").only("id", "name"))


def last_step_side(session: BattleSession) -> str | None:
    """The side the last live step was made for (None before the first): its author may take it back."""
    if session.step_count == 0:
        return None
    rows = SessionStep.objects.filter(session=session, undone_at__isnull=True, number=session.step_count)
    return rows.values_list("side", flat=True).first()


def session_tag(session: BattleSession) -> str:
    """What a phone compares: the version (which only grows), the status, a waiting undo and whether club
    members may watch (changing it is no step)."""
    undo = "-" if session.undo_to is None else session.undo_to
    return f"{session.version}.{session.status}.{undo}.{'public' if watchable(session) else 'private'}"


def watchable(session: BattleSession) -> bool:
    """Any account may watch: let in by its players or organisers, and still allowed by the campaign (a
    campaign made private, or hiding its results, since shuts the spectators out)."""
    return session.public and session_may_be_public(session)


def session_version(*, user: Any, session_id: int) -> BattleSession | None:
    """The session's version, status and waiting undo for the poll, from one narrow query while the viewer
    is a player or the session is public; None when the user may not see it."""
    rows = BattleSession.objects.select_related("campaign").only(*_POLL_COLUMNS)
    session = rows.filter(pk=session_id).first()
    if session is None or not can_view_session(user, session):
        return None
    return session


def session_view(*, session: BattleSession, user: Any) -> dict[str, Any]:
    """The session as the viewer sees it: the cards and log (``state_to_dict``), the steps the viewer's
    sides may make now (``legal_steps``, the rolling ones without dice), and where the session stands."""
    sides = session_sides(user, session)
    waiting = not is_ready(session)
    if waiting:
        players, state, legal = {"attacker": session.setup["attacker"]["player"], "defender": None}, None, []
    else:
        setup, kept = live_state(session)
        players = {side: setup.side(side).player for side in ("attacker", "defender")}
        state = state_to_dict(setup, kept)
        legal = [step_to_dict(step) for step in legal_steps(setup, kept) if step.by in sides]
        if session.status != SessionStatus.OPEN:
            legal = []  # ended or stopped: a step would be refused (an abandoned battle is not over)
        if session.battle is not None and session.battle.status != BattleStatus.SCHEDULED:
            legal = []  # reported by hand meanwhile: the session's steps would be refused
    return {
        "id": session.pk,
        "status": session.status,
        "version": session.version,
        "steps": session.step_count,
        # The code joins a session in play: once it ended or stopped it opens nothing more worth sharing.
        "code": session.code
        if session.status == SessionStatus.OPEN and (sides or can_correct_session(user, session))
        else None,
        "battle": session.battle_id,
        "campaign": session.campaign_id,
        "fortification": session.fortification,
        "public": watchable(session),
        "players": players,
        "waiting_for_opponent": waiting,
        "your_sides": list(sides),
        "may_correct": can_correct_session(user, session),
        "undo": None
        if session.undo_to is None
        else {"asked_by": session.undo_asked_by, "back_to": session.undo_to},
        # The last undo asked for was refused (``session_undo_refuse``): its asker's page says so.
        "undo_refused": session.undo_asked_by if session.undo_to is None and session.undo_asked_by else None,
        "report": session.report_id,
        "report_problem": session.report_problem,
        "state": state,
        "legal_steps": legal,
    }


ATTACK_ROLLS_AHEAD = 4  # an attack's first roll and the hit rolls of up to three more weapon lines
ROLLING_KINDS = frozenset(
    {"initiative", "attack", "reactive", "allocate", "escape", "special", "third-action"}
)


def session_first_rolls(
    *, session: BattleSession, steps: list[dict[str, Any]]
) -> dict[str, tuple[DiceWanted, ...]]:
    """For each rolling step (its JSON as a page carries it), the dice its first roll wants (``first_roll``;
    an attack's with the hit rolls of its later weapon lines, a reactive attempt's after a rally), kept per
    process with the live state."""
    rolling = [step for step in steps if step.get("kind") in ROLLING_KINDS]
    if not rolling or not is_ready(session):
        return {}
    setup, state = live_state(session)
    kept: dict[str, tuple[DiceWanted, ...]] = live.rolls_of(live.key_of(session), session.version)
    found = {}
    for step in rolling:
        key = json.dumps(step, separators=(",", ":"))
        if key not in kept:
            kind = step.get("kind")
            ahead = ATTACK_ROLLS_AHEAD if kind == "attack" else 2 if kind == "reactive" else 1
            kept[key] = first_roll(setup, state, step_from_dict(step), ahead, succeed=kind == "reactive")
        found[key] = kept[key]
    return found


def session_replay(*, session: BattleSession, step: int) -> dict[str, Any]:
    """The state after the first ``step`` live steps (0: the setup; past the last: the live state)."""
    if not is_ready(session):
        raise ConflictError("session-waiting", "the opponent has not joined with a list yet", "session")
    setup = live.setup_of(live.key_of(session), session.setup)
    upto = min(step, session.step_count)
    rows = SessionStep.objects.filter(session=session, undone_at__isnull=True, number__lte=upto).order_by(
        "number"
    )
    state = replay(setup, [step_from_dict(data) for data in rows.values_list("data", flat=True)])
    return {
        "id": session.pk, "step": upto, "version": session.version, "steps": session.step_count,
        "state": state_to_dict(setup, state),
    }  # fmt: skip


def session_odds(*, session: BattleSession, step: Any) -> dict[str, Any]:
    """The exact odds of an attack step before it is rolled (``attack_request``, refused as ``apply``
    would refuse the step); against a combined unit, the odds against its squad."""
    parsed = step_from_dict(step)
    if not isinstance(parsed, Attack):
        raise DomainError("not-an-attack", "the odds are those of an attack step", "step")
    setup, state = live_state(session)
    odds = attack_odds(request=attack_request(setup, state, parsed), ruleset=setup.ruleset)
    return {"version": session.version, **odds.to_dict()}
