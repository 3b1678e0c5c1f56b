from __future__ import annotations

from django.db import transaction

from accounts.models import User


@transaction.atomic
def user_sign_up(*, username: str, email: str, password: str, display_name: str = "") -> User:
    """Create an account. Validation of the fields is the form's or serializer's job."""
    return User.objects.create_user(
        username=username, email=email.strip().lower(), password=password, display_name=display_name
    )


def user_update_profile(*, user: User, display_name: str, email: str) -> User:
    user.display_name = display_name.strip()
    user.email = email.strip().lower()
    user.save(update_fields=["display_name", "email"])
    return user
