from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from accounts.services import (
    user_display_name_check,
    user_email_check,
    user_sign_up,
    user_update_profile,
    user_username_check,
)
from accounts.throttles import SignUpThrottle
from core.errors import DomainError


class UserOutput(serializers.Serializer[User]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    email = serializers.EmailField()


class SignUpInput(serializers.Serializer[None]):
    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150)
    email = serializers.EmailField()
    password = serializers.CharField(write_only=True)
    display_name = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")

    # The services' checks, here too so that every field's problem comes back at once.
    def validate_username(self, value: str) -> str:
        try:
            return user_username_check(username=value)
        except DomainError as exc:
            raise serializers.ValidationError(exc.message, code=exc.code) from None

    def validate_email(self, value: str) -> str:
        try:
            return user_email_check(email=value)
        except DomainError as exc:
            raise serializers.ValidationError(exc.message, code=exc.code) from None

    def validate_display_name(self, value: str) -> str:
        try:
            return user_display_name_check(display_name=value)
        except DomainError as exc:
            raise serializers.ValidationError(exc.message, code=exc.code) from None

    def validate(self, attrs: dict[str, str]) -> dict[str, str]:
        try:
            validate_password(attrs["password"], User(username=attrs["username"], email=attrs["email"]))
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from exc
        return attrs


class ProfileInput(serializers.Serializer[None]):
    display_name = serializers.CharField(max_length=60, allow_blank=True)
    email = serializers.EmailField()


class SignUpApi(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [SignUpThrottle]

    @extend_schema(request=SignUpInput, responses={201: UserOutput}, operation_id="accounts_sign_up")
    def post(self, request: Request) -> Response:
        data = SignUpInput(data=request.data)
        data.is_valid(raise_exception=True)
        user = user_sign_up(**data.validated_data)
        return Response(UserOutput(user).data, status=status.HTTP_201_CREATED)


class MeApi(APIView):
    """The caller's account. A new e-mail another account has (in any case) is refused: ``email-taken``."""

    @extend_schema(responses=UserOutput, operation_id="accounts_me")
    def get(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        return Response(UserOutput(request.user).data)

    @extend_schema(request=ProfileInput, responses=UserOutput, operation_id="accounts_me_update")
    def patch(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        data = ProfileInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        changes = {
            "display_name": request.user.display_name,
            "email": request.user.email,
            **data.validated_data,
        }
        user = user_update_profile(user=request.user, **changes)
        return Response(UserOutput(user).data)


class LoginLockedOut(APIException):
    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "login-locked-out"
    default_detail = "Too many failed log-ins for this account from your address; try again later."


class TokenApi(ObtainAuthToken):
    """Exchange a username and password for an API token (send it as ``Authorization: Token …``)."""

    # django-axes locks an account out after too many failed log-ins from one address (core/openapi_hooks.py).
    schema_refusals: ClassVar[dict[str, str]] = {
        "429": "login-locked-out: too many failed log-ins for this account from this address; try again later."
    }

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError:
            # django-axes marks the request it was given (DRF's) when the attempt hit a lockout.
            if getattr(request, "axes_locked_out", False) or getattr(
                request._request, "axes_locked_out", False
            ):
                raise LoginLockedOut() from None
            raise
