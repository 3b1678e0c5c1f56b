"""What the campaign endpoints share: finding a campaign as the caller may see it, refusals, pages.

The order of the checks is the same everywhere, so nothing leaks:

1. a campaign the caller may not see answers 404, exactly as one that does not
   exist (``campaign.permissions.can_view_campaign``);
2. an anonymous caller who must log in for the action gets 403 ``not_authenticated``;
3. a caller who sees the campaign but may not do the action gets 403 with a code
   saying why;
4. what the campaign's state refuses is the service's to say (400, or 409 for a
   conflict), mapped by ``core.api``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from accounts.models import User
from campaign.models import Campaign, Enrolment
from campaign.permissions import can_manage_campaign, can_view_with_invite
from core.db import one_or_none

NOT_FOUND = "no such campaign"


class CampaignPagination(PageNumberPagination):
    """The site's page size (``PAGE_SIZE``); named so the schema documents the ``page`` parameter."""


def find_campaign(
    request: Request, pk: int, *, invite_token: str = "", campaign: Campaign | None = None
) -> Campaign:
    """The campaign if the caller may see it (or holds its invitation), else 404 as if it did not exist."""
    found = campaign if campaign is not None else one_or_none(Campaign.objects.filter(pk=pk))
    if found is None:
        raise NotFound(NOT_FOUND)
    # Without a token this is can_view_campaign: an empty token never matches.
    if not can_view_with_invite(request.user, found, invite_token):
        raise NotFound(NOT_FOUND)
    return found


def logged_in(request: Request) -> User:
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    assert isinstance(request.user, User)
    return request.user


def refuse(message: str, code: str) -> PermissionDenied:
    return PermissionDenied(message, code=code)


def managed_campaign(request: Request, pk: int) -> tuple[Campaign, User]:
    """The campaign and its organiser calling: 404 if unseen, 403 if seen but not run by the caller."""
    campaign = find_campaign(request, pk)
    user = logged_in(request)
    if not can_manage_campaign(user, campaign):
        raise refuse("only the campaign's organisers may do this", "not-organiser")
    return campaign, user


def campaign_enrolment(campaign: Campaign, enrolment_id: int) -> Enrolment:
    """A place of this campaign (404 for another campaign's), carrying the campaign already loaded."""
    enrolment = Enrolment.objects.select_related("player").filter(campaign=campaign, pk=enrolment_id).first()
    if enrolment is None:
        raise NotFound("no such place in this campaign")
    enrolment.campaign = campaign
    return enrolment


def attach(enrolments: Iterable[Enrolment], campaign: Campaign) -> list[Enrolment]:
    """Give each row the campaign object, so permission questions about it cost no query."""
    rows = list(enrolments)
    for row in rows:
        row.campaign = campaign
    return rows


def query(serializer_class: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    """The query parameters, checked by ``serializer_class`` (400 naming the parameter at fault)."""
    checked = serializer_class(data=request.query_params)
    if not checked.is_valid():
        raise ValidationError(checked.errors)
    return dict(checked.validated_data)


class StrictInput(serializers.Serializer[Any]):
    """An input that refuses fields it does not know, so a misspelt setting is an error, not a no-op."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise ValidationError(
                    {name: [serializers.ErrorDetail("is not a field of this request", "unknown-field")]
                     for name in unknown}
                )  # fmt: skip
        return super().to_internal_value(data)


class UserBriefOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField(source="public_name")


def imported_name_field() -> serializers.CharField:
    """``actor_name``: who acted, as an imported campaign's file names them (no account of this site)."""
    return serializers.CharField(
        allow_blank=True,
        help_text="In an imported campaign, who acted as the imported file names them (no account of this "
        "site); empty otherwise.",
    )


class ProblemOutput(serializers.Serializer[Any]):
    field = serializers.CharField(help_text='The path of the input at fault ("" for the whole request).')
    code = serializers.CharField(help_text="Stable: match on it.")
    message = serializers.CharField()


# Every refusal of the API (core.api.exception_handler). Inline: a field named "errors" would shadow
# the serializer's own ``errors``.
ERROR_OUTPUT = inline_serializer(
    "ErrorOutput",
    {
        "code": serializers.CharField(help_text="Stable: match on it."),
        "detail": serializers.CharField(),
        "errors": ProblemOutput(many=True, help_text="Every input at fault; empty when none is."),
    },
)


def refusals(**by_status: str) -> dict[int, OpenApiResponse]:
    """Error responses for the schema: ``refusals(s404="...", s409="...")``."""
    return {
        int(key.removeprefix("s")): OpenApiResponse(ERROR_OUTPUT, description=text)
        for key, text in by_status.items()
    }


UNSEEN = "not_found: no such campaign, or a private one you may not see."
NOT_ORGANISER = "not_authenticated; not-organiser: you see the campaign but do not run it."
SEE = refusals(s404=UNSEEN)
MANAGE = refusals(s403=NOT_ORGANISER, s404=UNSEEN)
