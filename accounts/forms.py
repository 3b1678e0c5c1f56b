from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm, UserCreationForm

from accounts.models import User
from accounts.selectors import PreferenceLine
from accounts.services import user_display_name_check, user_email_check, user_username_check
from core.errors import DomainError
from core.openapi import MAX_ID


def refusal(exc: DomainError) -> forms.ValidationError:
    """A service's refusal as a form error: its words beside the field, its code for the tests."""
    return forms.ValidationError(exc.message, code=exc.code)


class AccountChecks:
    """The accounts services' checks on a form's ``username``, ``display_name`` and ``email``, for the
    account ``instance``."""

    cleaned_data: dict[str, Any]

    def _account(self) -> User | None:
        instance = getattr(self, "instance", None)
        return instance if isinstance(instance, User) and instance.pk is not None else None

    def clean_username(self) -> str:
        try:
            return user_username_check(username=self.cleaned_data["username"], user=self._account())
        except DomainError as exc:
            raise refusal(exc) from None

    def clean_display_name(self) -> str:
        try:
            return user_display_name_check(
                display_name=self.cleaned_data.get("display_name") or "", user=self._account()
            )
        except DomainError as exc:
            raise refusal(exc) from None

    def clean_email(self) -> str:
        try:
            return user_email_check(email=self.cleaned_data.get("email") or "", user=self._account())
        except DomainError as exc:
            raise refusal(exc) from None


class SignUpForm(AccountChecks, UserCreationForm[User]):
    # The display name may stay empty; the e-mail may not, so the labels say which is which.
    email = forms.EmailField(
        required=True, label="Email (required)", help_text="We use it only to reset your password."
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")
        labels = {"display_name": "Display name (optional)"}


class ProfileForm(AccountChecks, forms.ModelForm[User]):
    class Meta:
        model = User
        fields = ("display_name", "email")


class AdminUserForm(AccountChecks, UserChangeForm[User]):
    """The admin's user page: the same rules on the username and the e-mail as sign-up and the profile."""


class AdminNewUserForm(AccountChecks, AdminUserCreationForm[User]):
    """The admin's "add user" page (a username and a password)."""


class MarkReadForm(forms.Form):
    """Mark one notification read (``id``), or all of them (no ``id``)."""

    id = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)


class NotificationPreferencesForm(forms.Form):
    """One "send me e-mail" box for each registered kind of notification."""

    def __init__(self, *args: Any, lines: list[PreferenceLine], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for line in lines:
            self.fields[line.kind.code] = forms.BooleanField(
                required=False,
                initial=line.email,
                label=line.kind.label,
                help_text=line.kind.description,
            )

    def choices(self) -> list[tuple[str, bool]]:
        return [(code, bool(self.cleaned_data.get(code))) for code in self.fields]
