"""A battle session's pages (issue 20): the battle at the table, phone-first.

The page shows both forces as cards and offers the viewer's legal steps on them: tap a card, then a step
(two taps). A step is a plain form post (a full page back: nothing to lose on a phone that slept), and the
page polls the cheap version address every two seconds by htmx: a 204 while nothing changed, the
session's body when it did. A stale step (the other phone moved first) shows the battle as it stands now
with a sentence; nothing was played. Who may see and do what is ``battles.permissions``; the writes are
``battles.sessions.services``, the reads its ``selectors``.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from battles.models import ReportStatus
from battles.permissions import (
    can_answer,
    can_correct_session,
    can_enter_result,
    can_report,
    can_set_session_public,
    can_start_session,
    session_may_be_public,
    session_sides,
)
from battles.session_dice import Posted, annotate, dice_words, posted_from, sent
from battles.session_presenters import (
    allocation_form,
    cards,
    concessions,
    general_choices,
    log_words,
    turn_words,
)
from battles.sessions.limits import JOIN_CODE_LENGTH, MAX_STEPS, MAX_VERSION
from battles.sessions.models import BattleSession, SessionStatus
from battles.sessions.selectors import (
    is_ready,
    last_step_side,
    session_first_rolls,
    session_for,
    session_odds,
    session_replay,
    session_tag,
    session_version,
    session_view,
)
from battles.sessions.services import (
    StaleStepError,
    session_abandon,
    session_set_public,
    session_start,
    session_step,
    session_undo,
    session_undo_agree,
    session_undo_ask,
    session_undo_refuse,
)
from battles.views.common import battle_in_campaign
from campaign.models import BattleStatus
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user, describe_error
from core.numbers import whole_number
from core.parsers import form_json
from rules.engine.battle import DiceWanted
from rules.engine.battle.rolls import DiceShort
from rules.engine.battle.steps import MAX_FACES_TEXT, MAX_HITS, MAX_RIDERS

POLL_SECONDS = 2
STEP_MAX_BYTES = 4000  # a legal step's JSON as the page sends it back (a few hundred characters)
FACES_MAX_CHARS = MAX_FACES_TEXT  # the engine reads the faces as typed (``steps._faces``)
HEIGHTS = {
    "level": "Level",
    "attacker_higher": "The attacker is higher",
    "target_higher": "The target is higher",
}
MAX_DISTANCE = 36
STALE = "The other player moved first, so nothing you sent was played: here is the battle as it stands now."


def _session_or_404(request: HtmxHttpRequest, session_id: int) -> BattleSession:
    session = session_for(user=request.user, session_id=session_id)
    if session is None:
        raise Http404("no such battle session")
    return session


def _next_steps(request: HtmxHttpRequest, session: BattleSession) -> dict[str, Any]:
    """What a stopped (or ended, unreported) battle offers instead of steps: the report form by hand, the
    start of a new session, or a new friendly game."""
    battle = session.battle
    if session.status == SessionStatus.OPEN:
        return {}
    if battle is None:
        return {
            "friendly_url": reverse("battles:session-friendly") if request.user.is_authenticated else None
        }
    scheduled = battle.status == BattleStatus.SCHEDULED
    reports = scheduled and (can_report(request.user, battle) or can_enter_result(request.user, battle))
    return {
        "report_url": reverse("battles:report", args=[battle.campaign_id, battle.pk]) if reports else None,
        "restart_url": reverse("battles:session-start", args=[battle.campaign_id, battle.pk])
        if scheduled and session.status == SessionStatus.ABANDONED and can_start_session(request.user, battle)
        else None,
    }


def _undo_words(view: dict[str, Any], state: dict[str, Any] | None) -> list[str]:
    """The steps an undo asked for would take back, each as the log tells it, oldest first."""
    if view["undo"] is None or state is None:
        return []
    back_to = view["undo"]["back_to"]
    return [str(entry.get("text", "")) for entry in state["log"] if int(entry.get("step", 0)) > back_to]


def _context(
    request: HtmxHttpRequest, session: BattleSession, posted: Posted | None = None, **extra: Any
) -> dict[str, Any]:
    view = session_view(session=session, user=request.user)
    state, legal = view["state"], view["legal_steps"]
    names = view["players"]
    last_side = last_step_side(session)
    report = session.report if session.report_id is not None else None
    if report is not None and session.battle is not None:
        report.battle = session.battle  # already read with the session: no second query
    context: dict[str, Any] = {
        "session": session,
        "take_back": last_side is not None and (last_side in view["your_sides"] or view["may_correct"]),
        "may_confirm": report is not None
        and report.status == ReportStatus.SUBMITTED
        and can_answer(request.user, report),
        "view": view,
        "tag": session_tag(session),
        "poll_seconds": POLL_SECONDS,
        "players": names,
        "plays": bool(view["your_sides"]),
        "sets_public": session.status == SessionStatus.OPEN and can_set_session_public(request.user, session),
        "may_be_public": session_may_be_public(session),
        "heights": HEIGHTS,
        "max_distance": MAX_DISTANCE,
        "battle_url": None
        if session.battle is None
        else reverse("campaign:battle", args=[session.campaign_id, session.battle_id]),
        "in_play": session.status == SessionStatus.OPEN,
        "faces_max": FACES_MAX_CHARS,
        "undo_steps": _undo_words(view, state),
        "undo_asker": names.get(view["undo"]["asked_by"]) if view["undo"] else None,
        "undo_refused": view["undo_refused"] in view["your_sides"] and len(view["your_sides"]) == 1,
        **_next_steps(request, session),
        **extra,
    }
    if state is not None:
        forces = cards(state, legal, setup=session.setup)
        general, conceding = general_choices(state, legal), concessions(state, legal)
        split = allocation_form(state, legal)
        rolling = legal + ([json.loads(split["step"])] if split else [])
        wanted = session_first_rolls(session=session, steps=rolling) if legal else {}
        placed = annotate(forces, general + conceding, wanted, state, session.setup, posted)
        if split is not None:
            found = wanted.get(split["step"], ())
            split["dice"] = dice_words(found, json.loads(split["step"]), state, session.setup)
            if sent(posted, split["step"]):
                assert posted is not None
                split["typed"], split["refusal"], placed = posted.typed, posted.refusal, True
                for rider in split["riders"]:
                    for line in rider["inputs"]:
                        line["value"] = posted.typed.get(line["name"], "0")
        context.update(
            state=state,
            general=general,
            split=split,
            concessions=conceding,
            refusal_placed=placed,
            **({"refusal": posted.refusal} if posted is not None and posted.refusal else {}),
            turn=turn_words(state),
            log=log_words(state),
            sides=[
                {"side": side, "player": names[side], "cards": forces[side], **state["sides"][side]}
                for side in ("attacker", "defender")
            ],
        )
    return context


def _page(request: HtmxHttpRequest, session: BattleSession, status: int = 200, **extra: Any) -> HttpResponse:
    return render(request, "battles/session.html", _context(request, session, **extra), status=status)


@require_GET
def session_page(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    return _page(request, _session_or_404(request, session_id))


@require_GET
def session_replay_view(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """The battle step by step, as it stood after each step (``?step=k``; 0: the setup)."""
    session = _session_or_404(request, session_id)
    value = request.GET.get("step", "0")
    digits = value.isascii() and value.isdigit()
    wanted = 0 if not digits else MAX_STEPS if len(value) > len(str(MAX_STEPS)) else int(value)
    if not is_ready(session):
        raise Http404("this battle has not started yet")
    replayed = session_replay(session=session, step=min(wanted, MAX_STEPS))
    state, step = replayed["state"], replayed["step"]
    forces = cards(state, [], setup=session.setup)
    names = {side: state["sides"][side]["player"] for side in ("attacker", "defender")}
    context = {
        "session": session,
        "step": step,
        "last": replayed["steps"],
        "state": state,
        "turn": turn_words(state),
        "log": log_words(state)[:1],
        "players": names,
        "sides": [
            {"side": side, "player": names[side], "cards": forces[side], **state["sides"][side]}
            for side in ("attacker", "defender")
        ],
    }
    return render(request, "battles/session_replay.html", context)


@require_GET
def session_poll(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """The page's poll: 204 while the session's tag is the one the page shows, else the page's live part."""
    light = session_version(user=request.user, session_id=session_id)
    if light is None:
        raise Http404("no such battle session")
    if request.GET.get("tag", "")[:64] == session_tag(light):
        return HttpResponse(status=204)
    session = _session_or_404(request, session_id)
    return render(request, "battles/_session_live.html", _context(request, session))


def _conditions(post: Any) -> dict[str, Any]:
    height = post.get("height", "level")
    if height not in HEIGHTS:
        raise DomainError("invalid-height", "choose the height from the list", "height")
    distance_text = post.get("distance", "").strip()
    distance = None
    if distance_text:
        distance = whole_number(distance_text, digits=len(str(MAX_DISTANCE)))
        if distance is None or not 1 <= distance <= MAX_DISTANCE:
            raise DomainError(
                "invalid-distance", f"the range is a whole number from 1 to {MAX_DISTANCE}", "distance"
            )
    return {"cover": post.get("cover") == "on", "height": height, "distance": distance}


def _split(post: Any, rows: list[Any]) -> list[list[int]]:
    """The allocation form's numbers (``hits-<rider>-<line>``) in the shape its step carries; the engine
    checks them against the unsaved hits."""
    split = []
    for r, row in enumerate(rows[:MAX_RIDERS]):
        numbers = []
        for i in range(len(row) if isinstance(row, list) else 0):
            text = post.get(f"hits-{r}-{i}", "0").strip() or "0"
            hits = whole_number(text, digits=len(str(MAX_HITS)))
            if hits is None or hits > MAX_HITS:
                raise DomainError(
                    "invalid-hits", f"give each a whole number of hits from 0 to {MAX_HITS}", "hits"
                )
            numbers.append(hits)
        split.append(numbers)
    return split


def _read_step(request: HtmxHttpRequest) -> dict[str, Any] | None:
    try:
        step = form_json(request.POST.get("step", ""), max_bytes=STEP_MAX_BYTES)
    except ValueError:  # too long, too deep, not JSON: the API's parser refuses what it refuses there
        step = None
    return step if isinstance(step, dict) and isinstance(step.get("kind"), str) else None


def _posted_step(request: HtmxHttpRequest) -> dict[str, Any]:
    """The step the page's button carries, with what the table shows (an attack's conditions) and any dice
    entered by hand."""
    step = _read_step(request)
    if step is None:
        raise DomainError("invalid-step", "That step could not be read: choose it again.", "step")
    if step["kind"] == "attack":
        sent = step.get("conditions")
        step["conditions"] = {**(sent if isinstance(sent, dict) else {}), **_conditions(request.POST)}
    if step["kind"] == "allocate" and isinstance(step.get("rider_hits"), list):
        step["rider_hits"] = _split(request.POST, step["rider_hits"])
    fields = ("attacker_faces", "defender_faces") if step["kind"] == "initiative" else ("faces",)
    for field in fields:
        faces = request.POST.get(field, "").strip()[: FACES_MAX_CHARS + 1]
        if len(faces) > FACES_MAX_CHARS:
            raise DomainError("faces-too-long", "That is more dice than any roll takes.", field)
        if faces:
            step[field] = faces  # read by the engine, as the API's are (``steps._faces``)
    return step


def _expected(request: HtmxHttpRequest) -> int:
    value = request.POST.get("expected", "")
    if (
        not value.isascii()
        or not value.isdigit()
        or len(value) > len(str(MAX_VERSION))
        or int(value) > MAX_VERSION
    ):
        raise DomainError(
            "invalid-expected", "the page is out of date: look again before you act", "expected"
        )
    return int(value)


def _write(request: HtmxHttpRequest, session_id: int, write: Any) -> HttpResponse:
    session = _session_or_404(request, session_id)
    if not session_sides(request.user, session) and not can_correct_session(request.user, session):
        raise PermissionDenied("you watch this battle but play no side in it")
    try:
        write(session, acting_user(request))
    except StaleStepError:
        session = _session_or_404(request, session_id)
        return _page(request, session, status=409, refusal=STALE)
    except DomainError as exc:
        session = _session_or_404(request, session_id)
        status = 409 if exc.code.startswith(("session-", "undo-", "nothing-", "battle-")) else 400
        refusal = describe_error(exc)
        short = DiceWanted(exc.wanted, exc.purpose, exc.success) if isinstance(exc, DiceShort) else None
        posted = posted_from(request.POST, refusal, FACES_MAX_CHARS, short)  # the form comes back as sent
        return _page(request, session, status=status, refusal=refusal, posted=posted)
    return redirect("battles:session", session_id=session_id)


def _confirming(request: HtmxHttpRequest, session: BattleSession, what: str) -> HttpResponse | None:
    """A concession or a stop asks first: the page again with a confirmation (a second post, ``confirm=1``),
    nothing done; None once confirmed (or when the session is no longer in play: its refusal says so)."""
    if request.POST.get("confirm") == "1" or session.status != SessionStatus.OPEN:
        return None
    if not session_sides(request.user, session) and not can_correct_session(request.user, session):
        raise PermissionDenied("you watch this battle but play no side in it")
    confirm = {"what": what, "expected": request.POST.get("expected", "")[:12], "step": ""}
    if what == "concede":
        confirm["step"] = request.POST.get("step", "")[:STEP_MAX_BYTES]
        by = str((_read_step(request) or {}).get("by"))
        if by not in ("attacker", "defender") or "defender" not in session.setup:
            return None  # not a concession the rules would take: the step's refusal says why
        other = "defender" if by == "attacker" else "attacker"
        confirm["who"], confirm["winner"] = session.setup[by]["player"], session.setup[other]["player"]
    return _page(request, session, confirm=confirm)


@require_POST
@login_required
def session_step_view(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    if (_read_step(request) or {}).get("kind") == "concede":
        asked = _confirming(request, _session_or_404(request, session_id), "concede")
        if asked is not None:
            return asked

    def write(session: BattleSession, actor: Any) -> None:
        session_step(
            session_id=session.pk, actor=actor, expected=_expected(request), step=_posted_step(request)
        )

    return _write(request, session_id, write)


@require_POST
@login_required
def session_undo_view(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """Take back the last step (one's own); ``ask`` asks the other player to take back older ones,
    ``agree`` agrees to what they asked, ``refuse`` refuses it."""
    how = request.POST.get("how", "")

    def write(session: BattleSession, actor: Any) -> None:
        expected = _expected(request)
        if how == "agree":
            session_undo_agree(session_id=session.pk, actor=actor, expected=expected)
        elif how == "refuse":
            session_undo_refuse(session_id=session.pk, actor=actor, expected=expected)
        elif how == "ask":
            to = max(session.step_count - 2, 0)
            session_undo_ask(session_id=session.pk, actor=actor, expected=expected, to=to)
        else:
            session_undo(session_id=session.pk, actor=actor, expected=expected)

    return _write(request, session_id, write)


@require_POST
@login_required
def session_abandon_view(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """Stop playing: the battle stays scheduled, to be reported by hand (the session keeps its replay).
    Asked first (``confirm=1`` stops)."""
    asked = _confirming(request, _session_or_404(request, session_id), "stop")
    if asked is not None:
        return asked

    def write(session: BattleSession, actor: Any) -> None:
        session_abandon(session_id=session.pk, actor=actor)

    return _write(request, session_id, write)


@require_POST
@login_required
def session_public_view(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """Let club members watch the battle live (``public=1``), or stop them (``public=0``)."""

    def write(session: BattleSession, actor: Any) -> None:
        session_set_public(session_id=session.pk, actor=actor, public=request.POST.get("public") == "1")

    return _write(request, session_id, write)


@require_POST
def session_odds_view(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """The exact odds of the attack the form describes, before its roll (a fragment for the form)."""
    session = _session_or_404(request, session_id)
    try:
        step = _posted_step(request)
        step.pop("faces", None)
        odds = session_odds(session=session, step=step)
    except DomainError as exc:
        return render(request, "battles/_session_odds.html", {"refusal": describe_error(exc)})
    damage = odds.get("damage") or {}
    models = odds.get("models_removed") or {}
    return render(
        request,
        "battles/_session_odds.html",
        {
            "destroyed": round(100 * float(odds.get("p_destroyed", 0)), 1),
            "damage": round(float(damage.get("expected", 0)), 2),
            "models": round(float(models.get("expected", 0)), 2),
        },
    )


@require_POST
@login_required
def session_start_view(request: HtmxHttpRequest, pk: int, battle_id: int) -> HttpResponse:
    """Start (or find) the session of a scheduled campaign battle, from the battle's page."""
    _campaign, battle = battle_in_campaign(request, pk, battle_id)
    if not can_start_session(request.user, battle):
        raise PermissionDenied("only the battle's players and the campaign's organisers start its session")
    try:
        session, _ = session_start(battle=battle, actor=acting_user(request))
    except DomainError as exc:
        return render(
            request, "battles/session_join.html", {"refusal": describe_error(exc), "code_length": JOIN_CODE_LENGTH},
            status=409 if exc.code.startswith("session-") else 400,
        )  # fmt: skip
    return redirect("battles:session", session_id=session.pk)
