"""The writes of a battle session: start, join, step, undo (alone or agreed), abandon, who may watch; its end.

Every step is taken under a row lock on the session (``select_for_update``; SQLite's transactions
begin IMMEDIATE), so two phones sending at once are served one after the other: the second finds
the version moved and gets the 409 ``step-stale`` with the state as it now stands. When a step ends
the battle, its report (``report_from_state``) is submitted through the report flow
(``battles.services.report_submit``) for the side that sent that step; the opponent confirms or
disputes it as any report. Ruling: a report the flow refuses (the round closed, a report typed by
hand first) leaves the session ended with the refusal in ``report_problem``; the step stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from battles.notices import SESSION_STARTED
from battles.permissions import (
    can_correct_session,
    can_set_session_public,
    can_view_session,
    session_may_be_public,
    session_sides,
)
from battles.services import ReportInput, SideInput, report_submit
from battles.sessions import live
from battles.sessions.codes import create_session
from battles.sessions.dice import session_roll
from battles.sessions.friendly import session_join_friendly
from battles.sessions.limits import (
    JOIN_RATE,
    MAX_STEPS,
    MAX_VERSION,
    PROBLEM_MAX_LENGTH,
)
from battles.sessions.models import BattleSession, SessionStatus, SessionStep
from battles.sessions.selectors import live_state
from battles.sessions.setup import build_setup, fielded_fortification, snapshot_units
from campaign.battle_terms import battle_mission
from campaign.models import Battle, BattleStatus
from campaign.services import notices
from core.errors import ConflictError, DomainError
from core.ratelimit import rate_limit_hit
from rules.engine.battle import (
    BattleSetup,
    BattleState,
    Phase,
    apply,
    report_from_state,
    step_from_dict,
    step_to_dict,
)


class StaleStepError(ConflictError):
    """The step was sent for an older version: nothing was done (409, with the state as it stands)."""

    def __init__(self, session: BattleSession) -> None:
        super().__init__(
            "step-stale",
            f"the battle moved on (step {session.step_count} is the last one): look again before you act",
            "expected",
        )
        self.session = session


@dataclass(frozen=True)
class Played:
    session: BattleSession
    setup: BattleSetup
    state: BattleState


def _locked(session_id: int) -> BattleSession:
    # Only the session row is locked: its battle and campaign are nullable, an outer join PostgreSQL
    # will not lock (and the report flow locks the campaign itself).
    rows = BattleSession.objects.select_for_update(of=("self",))
    return rows.select_related("battle__campaign", "campaign").get(pk=session_id)


NOT_OPEN = {
    SessionStatus.ENDED: "This battle is over, so nothing more is played at the table.",
    SessionStatus.ABANDONED: "This battle was stopped before its end, so nothing more is played at the table. "
    "Report it by hand, or start it again from the battle's page.",
}


def not_open(session: BattleSession) -> ConflictError:
    """The refusal of anything sent to a session no longer in play, as a sentence for the players (no field:
    the session's state refuses it, so the API's ``detail`` is the sentence alone)."""
    said = NOT_OPEN.get(SessionStatus(session.status), "This battle is no longer played at the table.")
    return ConflictError("session-not-open", said)


def _open(session: BattleSession, expected: int) -> None:
    if session.status != SessionStatus.OPEN:
        raise not_open(session)
    if session.version != expected:
        raise StaleStepError(session)
    if session.version >= MAX_VERSION:
        raise ConflictError(
            "session-full", f"a battle session takes at most {MAX_VERSION} steps and undos in all", "expected"
        )


# --- start and join -----------------------------------------------------------------------------------


def session_start(*, battle: Battle, actor: Any) -> tuple[BattleSession, bool]:
    """The open session of a scheduled battle, started now if it has none: (session, started now).

    The setup is frozen from each side's current registered list (the newest, as the matchup sheet
    takes it), the mission, the sector's fortification and the campaign's rule set.
    """
    from battles.matchup_selectors import matchup_lists

    found = BattleSession.objects.filter(battle=battle, status=SessionStatus.OPEN).first()
    if found is not None:
        return found, False
    if battle.status != BattleStatus.SCHEDULED:
        raise ConflictError(
            "battle-not-scheduled",
            f"this battle is {battle.get_status_display().lower()}: only a scheduled battle is played here",
            "battle",
        )
    lists = matchup_lists(battle=battle, attacker_list=None, defender_list=None)
    for side in ("attacker", "defender"):
        if lists.chosen[side] is None:
            raise ConflictError(
                "no-registered-list", f"the {side} has no registered list yet", f"{side}_list"
            )
    mission = battle_mission(battle)
    players = {side: getattr(battle, side).display_name for side in ("attacker", "defender")}
    units = {side: snapshot_units(side, lists.chosen[side]) for side in ("attacker", "defender")}
    setup = build_setup(ruleset=battle.campaign.ruleset, mission=mission, players=players, units=units)
    held = battle.sector.fortification if battle.sector is not None else "none"
    campaign = battle.campaign
    try:
        session = create_session(
            battle=battle, campaign=campaign, setup=setup,
            attacker_registration=lists.chosen["attacker"], defender_registration=lists.chosen["defender"],
            fortification=fielded_fortification(mission, held),
            attacker_player_id=battle.attacker.player_id, defender_player_id=battle.defender.player_id,
            public=campaign.is_public and not campaign.hide_results_until_close, created_by=actor,
        )  # fmt: skip
    except ConflictError as exc:
        # Both phones pressed Start at once: the other one's session is the battle's session.
        found = BattleSession.objects.filter(battle=battle, status=SessionStatus.OPEN).first()
        if exc.code != "session-open" or found is None:
            raise
        return found, False
    _tell_opponent(session, battle, actor)
    return session, True


def _tell_opponent(session: BattleSession, battle: Battle, actor: Any) -> None:
    """The battle's players but the starter (an organiser's start tells both; a placeholder has nobody)."""
    over = f" over {battle.sector.name}" if battle.sector is not None else ""
    message = (
        f"{actor.public_name} started your battle at the table: {battle.attacker.display_name} attacks "
        f"{battle.defender.display_name}{over} in {battle.campaign.name}. Open it to join and play."
    )
    notices.tell(
        enrolments=[battle.attacker, battle.defender], kind=SESSION_STARTED, message=message, actor=actor,
        link=reverse("battles:session", args=[session.pk]),
    )  # fmt: skip


def session_join(*, code: str, actor: Any, army_list: Any = None) -> BattleSession:
    """The open session a code names, for a caller who may see it; a friendly game's free side is taken
    by the caller with ``army_list`` (one of theirs). Attempts are counted per account (``JOIN_RATE``),
    so codes cannot be tried in bulk."""
    if not rate_limit_hit("battle-session-join", str(actor.pk), JOIN_RATE):
        raise DomainError("too-many-attempts", "too many join codes tried: wait an hour", "code")
    wrong = DomainError("unknown-code", "no battle in play has that code", "code")
    session = (
        BattleSession.objects.select_related("battle__campaign", "campaign")
        .filter(code=code.strip().upper(), status=SessionStatus.OPEN)
        .first()
    )
    if session is None:
        raise wrong
    free = session.battle is None and session.defender_player_id is None
    if free and session.attacker_player_id != actor.pk:
        session = session_join_friendly(session=session, actor=actor, army_list=army_list)
    if not can_view_session(actor, session):
        raise wrong
    return session


# --- steps --------------------------------------------------------------------------------------------


def _may_act(session: BattleSession, actor: Any, side: str) -> None:
    if side not in session_sides(actor, session):
        raise DomainError("not-your-side", f"you do not play the {side} in this battle", "by")


def _refuse_seed(step: Any) -> None:
    """A seed sent with a step would choose the site's dice: the site rolls, or the player enters faces."""
    if isinstance(step, dict) and step.get("seed") is not None:
        raise DomainError(
            "seed-not-accepted",
            "the site rolls its own dice: send the faces your dice showed, or nothing for the site to roll",
            "step.seed",
        )


@transaction.atomic
def session_step(*, session_id: int, actor: Any, expected: int, step: Any, seeded: bool = False) -> Played:
    """Apply one step sent for version ``expected``: stored as the next live step or refused whole.

    A seed in ``step`` is refused unless ``seeded`` (the demo and tests, which fix their dice): the phones
    never choose the site's dice."""
    if not seeded:
        _refuse_seed(step)
    session = _locked(session_id)
    _open(session, expected)
    if session.battle is not None and session.battle.status != BattleStatus.SCHEDULED:
        raise ConflictError(
            "battle-reported",
            f"this battle is {session.battle.get_status_display().lower()} already: its session is over",
            "session",
        )
    if session.step_count >= MAX_STEPS:
        raise ConflictError("session-full", f"a battle session holds at most {MAX_STEPS} steps", "step")
    parsed = step_from_dict(step)
    _may_act(session, actor, parsed.by)
    parsed, seed = session_roll(
        session, parsed
    )  # before applying, stored with the step: the replay rolls the same
    setup, state = live_state(session)
    state = apply(setup, state, parsed)
    session.version += 1
    session.step_count += 1
    SessionStep.objects.create(
        session=session,
        number=session.step_count,
        data=step_to_dict(parsed),
        side=parsed.by,
        sent_by=actor,
        seed=seed,
    )
    session.undo_asked_by, session.undo_to = "", None
    changed = ["version", "step_count", "undo_asked_by", "undo_to", "updated_at"]
    if state.phase is Phase.ENDED:
        session.status = SessionStatus.ENDED
        changed.append("status")
        _file_report(session, setup, state, actor, parsed.by)
        changed += ["report", "report_problem"]
    session.save(update_fields=changed)
    live.remember(live.key_of(session), session.version, state)
    return Played(session, setup, state)


# --- undo -----------------------------------------------------------------------------------------------


def _take_back(session: BattleSession, to: int, actor: Any) -> None:
    SessionStep.objects.filter(session=session, undone_at__isnull=True, number__gt=to).update(
        undone_at=timezone.now(), undone_by=actor
    )
    session.version += 1
    session.step_count = to
    session.undo_asked_by, session.undo_to = "", None
    session.save(update_fields=["version", "step_count", "undo_asked_by", "undo_to", "updated_at"])


def _played(session: BattleSession) -> Played:
    setup, state = live_state(session)
    return Played(session, setup, state)


@transaction.atomic
def session_undo(*, session_id: int, actor: Any, expected: int) -> Played:
    """Take back the last step: its sender's side may, until the opponent acts (an organiser may too)."""
    session = _locked(session_id)
    _open(session, expected)
    last = SessionStep.objects.filter(
        session=session, undone_at__isnull=True, number=session.step_count
    ).first()
    if last is None:
        raise ConflictError("nothing-to-undo", "no step has been made yet", "expected")
    if last.side not in session_sides(actor, session) and not can_correct_session(actor, session):
        raise ConflictError(
            "undo-needs-agreement", "the last step is your opponent's: ask them to take it back", "expected"
        )
    _take_back(session, session.step_count - 1, actor)
    return _played(session)


@transaction.atomic
def session_undo_ask(*, session_id: int, actor: Any, expected: int, to: int) -> Played:
    """Ask to take the battle back to ``to`` live steps; the other side agrees (``session_undo_agree``).

    Asking is a new version: an agreement names the version it saw, so it agrees to this request and no
    other (asking again for more steps makes an agreement sent for the first one stale)."""
    session = _locked(session_id)
    _open(session, expected)
    sides, correcting = session_sides(actor, session), can_correct_session(actor, session)
    if not sides and not correcting:
        raise DomainError("not-your-side", "you play no side in this battle", "to")
    if not 0 <= to < session.step_count:
        raise DomainError("out-of-range", f"from 0 to {session.step_count - 1} steps", "to")
    if correcting or len(sides) == 2:  # an organiser corrects; one phone for both has nobody to ask
        _take_back(session, to, actor)
    else:
        session.undo_asked_by, session.undo_to = sides[0], to
        session.version += 1
        session.save(update_fields=["version", "undo_asked_by", "undo_to", "updated_at"])
    return _played(session)


@transaction.atomic
def session_undo_agree(*, session_id: int, actor: Any, expected: int) -> Played:
    """The other side agrees to the undo asked for: the steps after it are taken back."""
    session = _locked(session_id)
    _open(session, expected)
    if session.undo_to is None:
        raise ConflictError("no-undo-asked", "nobody asked to take steps back", "expected")
    other = "defender" if session.undo_asked_by == "attacker" else "attacker"
    if other not in session_sides(actor, session) and not can_correct_session(actor, session):
        raise DomainError("not-your-side", "only the other side agrees to take steps back", "expected")
    _take_back(session, session.undo_to, actor)
    return _played(session)


@transaction.atomic
def session_undo_refuse(*, session_id: int, actor: Any, expected: int) -> Played:
    """The other side refuses the undo asked for: nothing is taken back, and the request is dropped.

    ``undo_asked_by`` keeps who asked while ``undo_to`` is cleared, so the asker's page says it was
    refused until the next step or request. A new version: an agreement sent for it is stale."""
    session = _locked(session_id)
    _open(session, expected)
    if session.undo_to is None:
        raise ConflictError("no-undo-asked", "Nobody asked to take steps back.", "expected")
    other = "defender" if session.undo_asked_by == "attacker" else "attacker"
    if other not in session_sides(actor, session) and not can_correct_session(actor, session):
        raise DomainError("not-your-side", "Only the other side refuses to take steps back.", "expected")
    session.undo_to = None
    session.version += 1
    session.save(update_fields=["version", "undo_to", "updated_at"])
    return _played(session)


@transaction.atomic
def session_abandon(*, session_id: int, actor: Any) -> BattleSession:
    """Stop playing: the session is kept for its replay and the battle may be reported by hand."""
    session = _locked(session_id)
    if session.status != SessionStatus.OPEN:
        raise not_open(session)
    if not session_sides(actor, session) and not can_correct_session(actor, session):
        raise DomainError("not-your-side", "you play no side in this battle", "session")
    session.status = SessionStatus.ABANDONED
    session.save(update_fields=["status", "updated_at"])
    return session


@transaction.atomic
def session_set_public(*, session_id: int, actor: Any, public: bool) -> BattleSession:
    """Let any account watch the session live (``public``), or only its players and organisers again.

    Not a step: the battle's version is unchanged, so nothing a phone sent goes stale; the poll's tag
    holds the flag, so the other phone's page shows the change within a poll."""
    session = _locked(session_id)
    if session.status != SessionStatus.OPEN:
        raise not_open(session)
    if not can_set_session_public(actor, session):
        raise DomainError("not-your-side", "you play no side in this battle", "public")
    if public and not session_may_be_public(session):
        raise DomainError(
            "not-watchable",
            "only a public campaign's battles may be watched, and not while it hides results until the round closes",
            "public",
        )
    if session.public != public:
        session.public = public
        session.save(update_fields=["public", "updated_at"])
    return session


# --- the end: the report writes itself ---------------------------------------------------------------


def report_input(session: BattleSession, setup: BattleSetup, state: BattleState) -> ReportInput:
    """The report of an ended session, in the report flow's own input."""
    report = report_from_state(setup, state)

    def side(name: str) -> SideInput:
        part = report[name]
        return SideInput(
            tuple(part["lost"]), tuple(part["reserves"]), bool(part["objective"]), int(part["scenario_vp"])
        )

    assert session.attacker_registration is not None
    assert session.defender_registration is not None
    return ReportInput(
        attacker_registration=session.attacker_registration, defender_registration=session.defender_registration,
        turns=int(report["turns"]), ending=str(report["ending"]), attacker=side("attacker"),
        defender=side("defender"), fortification=session.fortification, conceded_by=report["conceded_by"],
    )  # fmt: skip


def _file_report(
    session: BattleSession, setup: BattleSetup, state: BattleState, actor: Any, side: str
) -> None:
    if session.battle is None:
        return  # a friendly game has no report to file
    try:
        with transaction.atomic():
            session.report = report_submit(
                battle=session.battle, actor=actor, side=side, data=report_input(session, setup, state)
            )
    except DomainError as exc:
        session.report_problem = f"The report was not filed: {exc.message}."[:PROBLEM_MAX_LENGTH]
