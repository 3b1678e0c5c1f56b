from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import User
from accounts.selectors import PreferenceLine
from core.openapi import MAX_ID


class SignUpForm(UserCreationForm[User]):
    email = forms.EmailField(required=True, help_text="Used only to reset your password.")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account with this email already exists.", code="email-taken")
        return str(email)


class ProfileForm(forms.ModelForm[User]):
    class Meta:
        model = User
        fields = ("display_name", "email")


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
