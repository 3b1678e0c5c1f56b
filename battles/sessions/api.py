"""Battle sessions through the API (docs/battle-sessions.md).

``POST /api/campaigns/<id>/battles/<id>/session/`` starts (or finds) a scheduled battle's session;
everything else is under ``/api/battle-sessions/``: ``join/`` by code, ``<id>/`` the state for the
caller (ETag, 304 while nothing changed), ``<id>/version/`` the cheap poll, ``<id>/steps/``,
``<id>/undo/`` (the last step), ``<id>/undo/ask/``, ``<id>/undo/agree/`` and ``<id>/undo/refuse/`` (older
ones, both sides),
``<id>/concede/``, ``<id>/abandon/``, ``<id>/public/`` (who may watch) and ``<id>/replay/?step=k``.
A step names the version it follows (``expected``); a stale one is a 409 ``step-stale`` whose body
also holds the session as it stands. Whoever may not see a session gets a 404, anonymous callers too.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle

from armies.models import ArmyList
from battles.permissions import can_correct_session, can_start_session, session_sides
from battles.sessions import services
from battles.sessions.friendly import session_start_friendly
from battles.sessions.limits import JOIN_CODE_LENGTH, MAX_STEP_NUMBER, MAX_VERSION
from battles.sessions.models import BattleSession, SessionStatus
from battles.sessions.selectors import (
    session_for,
    session_odds,
    session_replay,
    session_tag,
    session_version,
    session_view,
)
from campaign.api.campaigns import CampaignApi
from campaign.api.common import StrictInput, find_campaign, query, refusals
from campaign.api.round_shapes import campaign_battle
from campaign.engine.missions import MISSIONS_BY_KEY
from core.api import domain_error_response
from core.errors import DomainError
from core.openapi import MAX_ID
from rules.api import AttackOddsDoc, RefereeThrottle
from rules.engine.ruleset import NAMES

TAGS = ["battle sessions"]
NOT_SEEN = (
    "not_found: no such session, or one you may not see (its players, organisers, public: any account)."
)
NOT_PLAYER = "not-a-player: you watch this session but play no side in it."


def _expected() -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=0, max_value=MAX_VERSION, help_text="The session's version the caller saw."
    )


class SessionJoinInput(StrictInput):
    code = serializers.CharField(max_length=JOIN_CODE_LENGTH, min_length=JOIN_CODE_LENGTH)
    list = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False,
        help_text="A list of yours (its id), to take a friendly game's free side.",
    )  # fmt: skip


class FriendlyStartInput(StrictInput):
    attacker_list = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="A list of yours.")
    defender_list = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False,
        help_text="A second list of yours: one phone plays both sides. Without it the opponent joins by code.",
    )  # fmt: skip
    mission = serializers.ChoiceField(choices=sorted(MISSIONS_BY_KEY))
    ruleset = serializers.ChoiceField(choices=list(NAMES), default="rtz")


class SessionStepInput(StrictInput):
    expected = _expected()
    step = serializers.DictField(help_text="A step as docs/battle-engine.md writes it (``kind``, ``by``...).")


class SessionExpectedInput(StrictInput):
    expected = _expected()


class SessionUndoAskInput(StrictInput):
    expected = _expected()
    to = serializers.IntegerField(min_value=0, max_value=MAX_STEP_NUMBER, help_text="Steps to keep.")


class SessionConcedeInput(StrictInput):
    expected = _expected()
    side = serializers.ChoiceField(choices=["attacker", "defender"], help_text="The side that concedes.")


class SessionPublicInput(StrictInput):
    public = serializers.BooleanField(
        help_text="true: any account may watch live; false: players and organisers."
    )


class SessionOddsInput(StrictInput):
    step = serializers.DictField(help_text="An attack step as it would be sent (without dice).")


class SessionReplayQuery(StrictInput):
    step = serializers.IntegerField(min_value=0, max_value=MAX_STEP_NUMBER)


class SessionVersionOutput(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=SessionStatus.choices)
    tag = serializers.CharField(
        help_text="The ETag's value: version, status, any undo asked for, who may watch."
    )


class SessionOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=SessionStatus.choices)
    version = serializers.IntegerField(
        help_text="Changes so far (steps, undos, undos asked; it only grows): send it as ``expected``."
    )
    steps = serializers.IntegerField(help_text="The number of live steps (an undo's ``to`` counts these).")
    code = serializers.CharField(allow_null=True, help_text="The join code (to the players and organisers).")
    battle = serializers.IntegerField(allow_null=True)
    campaign = serializers.IntegerField(allow_null=True)
    fortification = serializers.CharField()
    public = serializers.BooleanField(help_text="Any account may watch (read only).")
    players = serializers.DictField(child=serializers.CharField(allow_null=True))
    waiting_for_opponent = serializers.BooleanField(
        help_text="A friendly game whose opponent has not joined."
    )
    your_sides = serializers.ListField(child=serializers.CharField(), help_text="Sides the caller plays.")
    may_correct = serializers.BooleanField(help_text="An organiser: undoes and abandons alone.")
    undo = serializers.DictField(allow_null=True, help_text="An undo asked for: ``asked_by``, ``back_to``.")
    undo_refused = serializers.CharField(
        allow_null=True,
        help_text="The side whose last undo asked for was refused (until the next step or request).",
    )
    report = serializers.IntegerField(allow_null=True, help_text="The report filed at the end.")
    report_problem = serializers.CharField(allow_blank=True, help_text="Why no report was filed at the end.")
    state = serializers.DictField(
        allow_null=True,
        help_text="rules.engine.battle.state_to_dict: the cards, VP, log (null while waiting).",
    )
    legal_steps = serializers.ListField(child=serializers.DictField(), help_text="The caller's steps now.")


class SessionReplayOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    step = serializers.IntegerField()
    version = serializers.IntegerField()
    steps = serializers.IntegerField()
    state = serializers.DictField()


def _session(request: Request, session_id: int) -> BattleSession:
    session = session_for(user=request.user, session_id=session_id)
    if session is None:
        raise NotFound("no such battle session")
    return session


def _acting(request: Request, session_id: int) -> BattleSession:
    session = _session(request, session_id)
    if not session_sides(request.user, session) and not can_correct_session(request.user, session):
        raise PermissionDenied("you play no side in this battle", code="not-a-player")
    return session


def _answer(request: Request, session: BattleSession, code: int = status.HTTP_200_OK) -> Response:
    response = Response(SessionOutput(session_view(session=session, user=request.user)).data, status=code)
    response["ETag"] = f'"{session_tag(session)}"'
    return response


def _body(serializer: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    body = serializer(data=request.data)
    body.is_valid(raise_exception=True)
    return dict(body.validated_data)


def _played(request: Request, session_id: int, write: Any) -> Response:
    """Run a write; a stale step is the 409 with the session as it stands beside the error."""
    try:
        played = write()
    except services.StaleStepError as exc:
        response = domain_error_response(exc)
        response.data["session"] = SessionOutput(session_view(session=exc.session, user=request.user)).data
        return response
    return _answer(request, played.session)


_PLAYED = {200: SessionOutput, **refusals(
    s400="invalid, unknown-field; the engine's codes (docs/battle-engine.md, Refusals); not-your-side",
    s403=NOT_PLAYER, s404=NOT_SEEN,
    s409="step-stale (with ``session``: the state as it stands); session-not-open; session-waiting (the "
         "opponent has not joined with a list yet)",
)}  # fmt: skip


class SessionStartApi(CampaignApi):
    @extend_schema(
        request=None, responses={200: SessionOutput, 201: SessionOutput, **refusals(
            s403="not-a-player: only the battle's players and the organisers start its session",
            s404="not_found: no such campaign or battle, or one you may not see.",
            s409="battle-not-scheduled; no-registered-list; session-open",
        )}, operation_id="battle_session_start", tags=TAGS,
        description="Start the battle's session at the table (201), or find the one in play (200).",
    )  # fmt: skip
    def post(self, request: Request, pk: int, battle_id: int) -> Response:
        campaign = find_campaign(request, pk)
        battle = campaign_battle(request.user, campaign, battle_id)
        if not request.user.is_authenticated:
            raise NotFound("no such battle in this campaign")
        if not can_start_session(request.user, battle):
            raise PermissionDenied("you play no side in this battle", code="not-a-player")
        session, started = services.session_start(battle=battle, actor=request.user)
        found = session_for(user=request.user, session_id=session.pk)
        assert found is not None
        return _answer(request, found, status.HTTP_201_CREATED if started else status.HTTP_200_OK)


class SessionJoinApi(CampaignApi):
    @extend_schema(
        request=SessionJoinInput, responses={200: SessionOutput, **refusals(
            s400="invalid; unknown-code; too-many-attempts", s404="not_found: anonymous callers")},
        operation_id="battle_session_join", tags=TAGS,
        description="Open a session by its join code; a friendly game's free side is taken by the caller.",
    )  # fmt: skip
    def post(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotFound("no such battle session")
        body = _body(SessionJoinInput, request)
        chosen = _own_list(request, body["list"], "list") if "list" in body else None
        session = services.session_join(code=body["code"], actor=request.user, army_list=chosen)
        return _answer(request, _session(request, session.pk))


def _own_list(request: Request, pk: int, field: str) -> ArmyList:
    found = ArmyList.objects.filter(pk=pk, owner_id=request.user.pk).select_related("catalogue").first()
    if found is None:
        raise DomainError("not-your-list", "a friendly game is played with lists of your own", field)
    return found


class FriendlyStartApi(CampaignApi):
    @extend_schema(
        request=FriendlyStartInput, responses={201: SessionOutput, **refusals(
            s400="invalid, unknown-field; not-your-list; setup-refused, unit-unreadable",
            s404="not_found: anonymous callers")},
        operation_id="battle_session_start_friendly", tags=TAGS,
        description="A friendly game outside any campaign: your list attacks; a second list of yours makes "
        "one phone play both sides, else the opponent joins by the code with a list of theirs.",
    )  # fmt: skip
    def post(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotFound("no such battle session")
        body = _body(FriendlyStartInput, request)
        attacker = _own_list(request, body["attacker_list"], "attacker_list")
        defender = (
            _own_list(request, body["defender_list"], "defender_list") if "defender_list" in body else None
        )
        session = session_start_friendly(
            actor=request.user, attacker_list=attacker, defender_list=defender, mission=body["mission"],
            ruleset=body["ruleset"],
        )  # fmt: skip
        return _answer(request, _session(request, session.pk), status.HTTP_201_CREATED)


class SessionApi(CampaignApi):
    @extend_schema(
        responses={200: SessionOutput, 304: None, **refusals(s404=NOT_SEEN)},
        operation_id="battle_session_retrieve", tags=TAGS,
        description="The session for the caller: cards, log, VP and the caller's legal steps. Send the last "
        "ETag as If-None-Match: 304 while nothing changed.",
    )  # fmt: skip
    def get(self, request: Request, session_id: int) -> Response:
        polled = session_version(user=request.user, session_id=session_id)
        if polled is None:
            raise NotFound("no such battle session")
        if request.headers.get("If-None-Match") == f'"{session_tag(polled)}"':
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": f'"{session_tag(polled)}"'})
        return _answer(request, _session(request, session_id))


class SessionVersionApi(CampaignApi):
    @extend_schema(
        responses={200: SessionVersionOutput, 304: None, **refusals(s404=NOT_SEEN)},
        operation_id="battle_session_version", tags=TAGS,
        description="The cheap poll: the version and status (one narrow query); 304 to If-None-Match while "
        "nothing changed. A phone polls it every two seconds and reads the session when it moved.",
    )  # fmt: skip
    def get(self, request: Request, session_id: int) -> Response:
        polled = session_version(user=request.user, session_id=session_id)
        if polled is None:
            raise NotFound("no such battle session")
        tag = f'"{session_tag(polled)}"'
        if request.headers.get("If-None-Match") == tag:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": tag})
        data = {"version": polled.version, "status": polled.status, "tag": session_tag(polled)}
        return Response(SessionVersionOutput(data).data, headers={"ETag": tag})


class SessionStepApi(CampaignApi):
    @extend_schema(request=SessionStepInput, responses=_PLAYED, operation_id="battle_session_step", tags=TAGS,
                   description="Send one step for the version seen; the site rolls unless dice are given.")  # fmt: skip
    def post(self, request: Request, session_id: int) -> Response:
        session = _acting(request, session_id)
        body = _body(SessionStepInput, request)
        return _played(request, session_id, lambda: services.session_step(
            session_id=session.pk, actor=request.user, expected=body["expected"], step=body["step"]))  # fmt: skip


class SessionUndoApi(CampaignApi):
    @extend_schema(request=SessionExpectedInput, responses=_PLAYED, operation_id="battle_session_undo", tags=TAGS,
                   description="Take back the last step: its side may until the opponent acts.")  # fmt: skip
    def post(self, request: Request, session_id: int) -> Response:
        session = _acting(request, session_id)
        body = _body(SessionExpectedInput, request)
        return _played(request, session_id, lambda: services.session_undo(
            session_id=session.pk, actor=request.user, expected=body["expected"]))  # fmt: skip


class SessionUndoAskApi(CampaignApi):
    @extend_schema(request=SessionUndoAskInput, responses=_PLAYED, operation_id="battle_session_undo_ask", tags=TAGS,
                   description="Ask to go back to ``to`` steps; the other side agrees (undo/agree/).")  # fmt: skip
    def post(self, request: Request, session_id: int) -> Response:
        session = _acting(request, session_id)
        body = _body(SessionUndoAskInput, request)
        return _played(request, session_id, lambda: services.session_undo_ask(
            session_id=session.pk, actor=request.user, expected=body["expected"], to=body["to"]))  # fmt: skip


class SessionUndoAgreeApi(CampaignApi):
    @extend_schema(request=SessionExpectedInput, responses=_PLAYED, operation_id="battle_session_undo_agree", tags=TAGS,
                   description="Agree to the undo the other side asked for.")  # fmt: skip
    def post(self, request: Request, session_id: int) -> Response:
        session = _acting(request, session_id)
        body = _body(SessionExpectedInput, request)
        return _played(request, session_id, lambda: services.session_undo_agree(
            session_id=session.pk, actor=request.user, expected=body["expected"]))  # fmt: skip


class SessionUndoRefuseApi(CampaignApi):
    @extend_schema(request=SessionExpectedInput, responses=_PLAYED, tags=TAGS,
                   operation_id="battle_session_undo_refuse",
                   description="Refuse the undo the other side asked for: nothing is taken back.")  # fmt: skip
    def post(self, request: Request, session_id: int) -> Response:
        session = _acting(request, session_id)
        body = _body(SessionExpectedInput, request)
        return _played(request, session_id, lambda: services.session_undo_refuse(
            session_id=session.pk, actor=request.user, expected=body["expected"]))  # fmt: skip


class SessionConcedeApi(CampaignApi):
    @extend_schema(request=SessionConcedeInput, responses=_PLAYED, operation_id="battle_session_concede", tags=TAGS,
                   description="Concede for a side: the battle ends and its report is filed.")  # fmt: skip
    def post(self, request: Request, session_id: int) -> Response:
        session = _acting(request, session_id)
        body = _body(SessionConcedeInput, request)
        step = {"kind": "concede", "by": body["side"]}
        return _played(request, session_id, lambda: services.session_step(
            session_id=session.pk, actor=request.user, expected=body["expected"], step=step))  # fmt: skip


class SessionAbandonApi(CampaignApi):
    @extend_schema(request=None, responses=_PLAYED, operation_id="battle_session_abandon", tags=TAGS,
                   description="Stop playing; the battle may then be reported by hand.")  # fmt: skip
    def post(self, request: Request, session_id: int) -> Response:
        session = _acting(request, session_id)
        services.session_abandon(session_id=session.pk, actor=request.user)
        return _answer(request, _session(request, session_id))


class SessionPublicApi(CampaignApi):
    @extend_schema(
        request=SessionPublicInput, responses={200: SessionOutput, **refusals(
            s400="invalid, unknown-field; not-watchable: a private campaign's battle, or one whose "
            "campaign hides results until the round closes", s403=NOT_PLAYER, s404=NOT_SEEN,
            s409="session-not-open")},
        operation_id="battle_session_public", tags=TAGS,
        description="Let any account watch the session live, or only its players and organisers again: "
        "either player, or an organiser of the campaign. Not a step: the version stays.",
    )  # fmt: skip
    def post(self, request: Request, session_id: int) -> Response:
        session = _acting(request, session_id)
        body = _body(SessionPublicInput, request)
        services.session_set_public(session_id=session.pk, actor=request.user, public=body["public"])
        return _answer(request, _session(request, session_id))


class SessionReplayApi(CampaignApi):
    @extend_schema(
        parameters=[OpenApiParameter("step", int, required=True, description="Steps to replay (0: the setup).")],
        responses={200: SessionReplayOutput, **refusals(
            s400="invalid", s404=NOT_SEEN, s409="session-waiting: the opponent has not joined with a list yet.",
        )},
        operation_id="battle_session_replay", tags=TAGS, description="The state after the first ``step`` steps.",
    )  # fmt: skip
    def get(self, request: Request, session_id: int) -> Response:
        session = _session(request, session_id)
        step = query(SessionReplayQuery, request)["step"]
        return Response(SessionReplayOutput(session_replay(session=session, step=step)).data)


class RefereeUserThrottle(UserRateThrottle):
    """The referee's rate per account (the anonymous one, per address, cannot reach a session)."""

    scope = "referee"


class SessionOddsApi(CampaignApi):
    throttle_classes = [RefereeThrottle, RefereeUserThrottle]

    @extend_schema(
        request=SessionOddsInput, responses={200: AttackOddsDoc, **refusals(
            s400="invalid; not-an-attack; the engine's refusals of the attack; too-large", s404=NOT_SEEN,
            s409="session-waiting")},
        operation_id="battle_session_odds", tags=TAGS,
        description="The exact odds of an attack step before it is rolled, as the referee's calculator gives "
        "them (against a combined unit, against its squad). Reads only: anyone who sees the session.",
    )  # fmt: skip
    def post(self, request: Request, session_id: int) -> Response:
        session = _session(request, session_id)
        return Response(session_odds(session=session, step=_body(SessionOddsInput, request)["step"]))
