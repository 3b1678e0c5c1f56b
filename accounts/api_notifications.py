"""The notification API, under /api/notifications/: each user reads and changes only their own."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponseBase
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from accounts.notifications import (
    KIND_MAX_LENGTH,
    KIND_PATTERN,
    LINK_MAX_LENGTH,
    MAX_PREFERENCES,
    MAX_READ_IDS,
    MESSAGE_MAX_LENGTH,
)
from accounts.selectors import (
    notification_preferences_for,
    notification_unread_count,
    notifications_for_list,
    unread_etag,
)
from accounts.services import notification_preferences_update, notifications_mark_read
from core.conditional import NOT_MODIFIED_DOC, matches, not_modified, revalidate
from core.errors import DomainError
from core.fields import BoundedListField
from core.openapi import MAX_ID

TAGS = ["notifications"]


class NotificationProblemOutput(serializers.Serializer[Any]):
    field = serializers.CharField(help_text='The path of the input at fault ("" for the whole request).')
    code = serializers.CharField(help_text="Stable: match on it.")
    message = serializers.CharField()


# The API's refusal shape (core.api.exception_handler). Inline: a field named "errors" would shadow
# the serializer's own ``errors``.
REFUSAL = inline_serializer(
    "NotificationRefusal",
    {
        "code": serializers.CharField(help_text="Stable: match on it."),
        "detail": serializers.CharField(),
        "errors": NotificationProblemOutput(many=True, help_text="Every input at fault; empty when none is."),
    },
)
NOT_LOGGED_IN = OpenApiResponse(
    REFUSAL, description="not_authenticated: log in (a session or a token) first."
)


def bad_input(text: str) -> OpenApiResponse:
    return OpenApiResponse(REFUSAL, description=text)


class NotificationPagination(PageNumberPagination):
    """The site's page size (``PAGE_SIZE``); named so the schema documents the ``page`` parameter."""


class NotificationOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.CharField(max_length=KIND_MAX_LENGTH)
    message = serializers.CharField(max_length=MESSAGE_MAX_LENGTH)
    link = serializers.CharField(
        max_length=LINK_MAX_LENGTH, help_text='A path on this site ("/campaigns/3/"), or "" for none.'
    )
    created_at = serializers.DateTimeField()
    read_at = serializers.DateTimeField(allow_null=True, help_text="null while unread.")


class NotificationListQuery(serializers.Serializer[None]):
    unread = serializers.BooleanField(required=False, default=False, help_text="Only the unread ones.")
    page = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)


class CountOutput(serializers.Serializer[None]):
    unread = serializers.IntegerField(min_value=0)


class ReadInput(serializers.Serializer[None]):
    ids = BoundedListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        min_length=1,
        max_length=MAX_READ_IDS,
        required=False,
        help_text="The notifications to mark read; leave the field out to mark all of them read.",
    )


class ReadOutput(serializers.Serializer[None]):
    marked = serializers.IntegerField(min_value=0, help_text="How many were unread and now are read.")
    unread = serializers.IntegerField(min_value=0, help_text="How many are still unread.")


class PreferenceOutput(serializers.Serializer[Any]):
    kind = serializers.CharField(source="kind.code", max_length=KIND_MAX_LENGTH)
    name = serializers.CharField(source="kind.label")
    description = serializers.CharField(source="kind.description")
    email = serializers.BooleanField(help_text="Whether this kind is also sent by e-mail.")


class PreferenceInput(serializers.Serializer[None]):
    kind = serializers.RegexField(KIND_PATTERN, max_length=KIND_MAX_LENGTH)
    email = serializers.BooleanField()


class PreferencesInput(serializers.Serializer[None]):
    preferences = BoundedListField(child=PreferenceInput(), min_length=1, max_length=MAX_PREFERENCES)

    def validate_preferences(self, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        kinds = [item["kind"] for item in value]
        if len(set(kinds)) != len(kinds):
            raise serializers.ValidationError("name each kind at most once", code="duplicate-kind")
        return value


def _user(request: Request) -> User:
    assert isinstance(request.user, User)  # IsAuthenticated, the default permission, ran first
    return request.user


class NotificationCollectionApi(APIView):
    pagination_class = NotificationPagination

    @extend_schema(
        parameters=[NotificationListQuery],
        responses={
            200: NotificationOutput(many=True),
            400: bad_input("invalid: `unread` is not a boolean."),
            403: NOT_LOGGED_IN,
        },
        operation_id="notifications_list",
        tags=TAGS,
        description="Your notifications, newest first; `?unread=true` for the unread ones only.",
    )
    def get(self, request: Request) -> Response:
        query = NotificationListQuery(data=request.query_params)
        if not query.is_valid():
            raise ValidationError(query.errors)
        rows = notifications_for_list(user=_user(request), unread_only=query.validated_data["unread"])
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(rows, request, view=self) or []
        return paginator.get_paginated_response(NotificationOutput(page, many=True).data)


class NotificationCountApi(APIView):
    @extend_schema(
        responses={
            200: CountOutput,
            304: OpenApiResponse(description=NOT_MODIFIED_DOC),
            403: NOT_LOGGED_IN,
        },
        operation_id="notifications_count",
        tags=TAGS,
        description="How many of your notifications are unread (what the site's bell shows). The answer "
        "carries an `ETag`: send it back in `If-None-Match` and, while the count is the same, the answer is "
        "a 304 with no body.",
    )
    def get(self, request: Request) -> HttpResponseBase:
        user = _user(request)
        unread = notification_unread_count(user=user)
        tag = unread_etag(user, unread)
        if matches(request, tag):
            return not_modified(tag)
        return revalidate(Response({"unread": unread}), tag)


class NotificationReadApi(APIView):
    @extend_schema(
        request=ReadInput,
        responses={
            200: ReadOutput,
            400: bad_input(f"invalid: `ids` empty, longer than {MAX_READ_IDS} or not ids."),
            403: NOT_LOGGED_IN,
        },
        operation_id="notifications_read",
        tags=TAGS,
        description="Mark notifications read: those named in `ids`, or all of yours when `ids` is left out. "
        "Ids that are not your notifications are ignored.",
    )
    def post(self, request: Request) -> Response:
        data = ReadInput(data=request.data)
        data.is_valid(raise_exception=True)
        user = _user(request)
        marked = notifications_mark_read(user=user, ids=data.validated_data.get("ids"))
        return Response({"marked": marked, "unread": notification_unread_count(user=user)})


class NotificationPreferencesApi(APIView):
    @extend_schema(
        responses={200: PreferenceOutput(many=True), 403: NOT_LOGGED_IN},
        operation_id="notifications_preferences",
        tags=TAGS,
        description="For every kind of notification, whether it also reaches you by e-mail (yes unless "
        "you turned it off).",
    )
    def get(self, request: Request) -> Response:
        lines = notification_preferences_for(user=_user(request))
        return Response(PreferenceOutput(lines, many=True).data)

    @extend_schema(
        request=PreferencesInput,
        responses={
            200: PreferenceOutput(many=True),
            400: bad_input("invalid (a kind named twice: duplicate-kind); unknown-notification-kind."),
            403: NOT_LOGGED_IN,
        },
        operation_id="notifications_preferences_set",
        tags=TAGS,
        description="Turn e-mail on or off for the kinds listed; kinds left out keep their choice. "
        "An unknown kind (`unknown-notification-kind`) changes nothing.",
    )
    def put(self, request: Request) -> Response:
        data = PreferencesInput(data=request.data)
        data.is_valid(raise_exception=True)
        user = _user(request)
        choices = [(item["kind"], item["email"]) for item in data.validated_data["preferences"]]
        try:
            notification_preferences_update(user=user, choices=choices)
        except DomainError as exc:
            raise exc.with_field_prefix("preferences") from None
        return Response(PreferenceOutput(notification_preferences_for(user=user), many=True).data)
