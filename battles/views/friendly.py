"""A friendly game's page: two lists (one phone for both sides, or the opponent joins by code), a mission,
the rulebook or Return to Zverograd; and joining a game by its code with a list of one's own."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from battles.sessions.friendly import session_start_friendly
from battles.sessions.limits import JOIN_CODE_LENGTH
from battles.sessions.selectors import own_lists
from battles.sessions.services import session_join
from campaign.engine.missions import MISSIONS_BY_KEY
from core.errors import DomainError
from core.http import HtmxHttpRequest, acting_user, describe_error
from rules.engine.ruleset import RTZ, RULEBOOK

RULESET_WORDS = {RTZ: "Return to Zverograd (its rules on)", RULEBOOK: "The rulebook"}
_ID_DIGITS = 18


def _chosen(lists: list[Any], value: str, field: str, *, required: bool) -> Any:
    if not value and not required:
        return None
    found = next((item for item in lists if value.isascii() and value.isdigit() and len(value) <= _ID_DIGITS
                  and item.pk == int(value)), None)  # fmt: skip
    if found is None:
        raise DomainError("not-your-list", "choose one of your own lists", field)
    return found


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def friendly_new(request: HtmxHttpRequest) -> HttpResponse:
    user = acting_user(request)
    lists = own_lists(user)
    missions = sorted(MISSIONS_BY_KEY.values(), key=lambda mission: mission.name)
    context: dict[str, Any] = {
        "lists": lists,
        "missions": missions,
        "rulesets": RULESET_WORDS,
        "posted": request.POST,
    }
    if request.method != "POST":
        return render(request, "battles/friendly.html", context)
    try:
        attacker = _chosen(lists, request.POST.get("attacker_list", ""), "attacker_list", required=True)
        defender = _chosen(lists, request.POST.get("defender_list", ""), "defender_list", required=False)
        mission = request.POST.get("mission", "")
        if mission not in MISSIONS_BY_KEY:
            raise DomainError("unknown-mission", "choose a mission from the list", "mission")
        ruleset = request.POST.get("ruleset", RTZ)
        if ruleset not in RULESET_WORDS:
            raise DomainError("unknown-ruleset", "choose the rulebook or Return to Zverograd", "ruleset")
        session = session_start_friendly(
            actor=user, attacker_list=attacker, defender_list=defender, mission=mission, ruleset=ruleset
        )
    except DomainError as exc:
        return render(
            request, "battles/friendly.html", {**context, "refusal": describe_error(exc)}, status=400
        )
    return redirect("battles:session", session_id=session.pk)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def session_join_view(request: HtmxHttpRequest) -> HttpResponse:
    """Open a session by its short code (any case), or by the link ``?code=``; a friendly game's free side is
    taken with one of the joiner's lists."""
    user = acting_user(request)
    code = (request.POST.get("code") or request.GET.get("code") or "").strip()
    lists = own_lists(user)
    context: dict[str, Any] = {
        "code": code[:JOIN_CODE_LENGTH],
        "code_length": JOIN_CODE_LENGTH,
        "lists": lists,
    }
    if request.method != "POST":
        return render(request, "battles/session_join.html", context)
    try:
        if len(code) != JOIN_CODE_LENGTH:
            raise DomainError(
                "unknown-code", f"a battle's code has {JOIN_CODE_LENGTH} letters and digits", "code"
            )
        army_list = _chosen(lists, request.POST.get("list", ""), "list", required=False)
        session = session_join(code=code, actor=user, army_list=army_list)
    except DomainError as exc:
        return render(
            request, "battles/session_join.html", {**context, "refusal": describe_error(exc)}, status=400
        )
    return redirect("battles:session", session_id=session.pk)
