"""Accounts: sign-up and profile changes, with the rules every way in shares (pages, API, admin).

A username must not look like a taken one nor mix scripts (``accounts.usernames``); a display
name must not look like another member's display name or username, and no name may hold a control
or invisible character (``core.names``); an e-mail belongs to one account whatever its case. The
checks here give the refusal people read; the unique constraints on the users table (the username's skeleton, the
lower-cased e-mail) refuse what slips between a check and the write, which is then a
``ConflictError`` with the same code and words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.db import IntegrityError, transaction

from accounts.models import User
from accounts.usernames import (
    mixes_scripts,
    name_skeleton,
    username_forms,
    username_scripts,
    username_skeleton,
)
from core.errors import ConflictError, DomainError
from core.names import NAME_CONTROL_CODE, name_problem

EMAIL_TAKEN = "An account with this email already exists."
USERNAME_TAKEN = "This username is taken."
USERNAME_LOOKALIKE = "This username looks too much like one already taken; choose another."
USERNAME_LIKE_A_NAME = "This username looks too much like another member's display name; choose another."
DISPLAY_NAME_TAKEN = (
    "This display name looks too much like another member's name or username; choose another."
)

T = TypeVar("T")


def email_normalise(email: str) -> str:
    return email.strip().lower()


def user_email_check(*, email: str, user: User | None = None) -> str:
    """``email`` as stored, or a refusal when another account has it in any case.

    The words are those sign-up always used, whoever owns the address: they tell
    no more than sign-up does. An empty e-mail (none) is never taken.
    """
    email = email_normalise(email)
    others = User.objects.filter(email__iexact=email)
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    if email and others.exists():
        raise DomainError("email-taken", EMAIL_TAKEN, "email")
    return email


def user_username_check(*, username: str, user: User | None = None) -> str:
    """``username`` as stored (NFKC, as Django normalises it), or a refusal when it mixes scripts or
    looks like another account's name."""
    username = User.normalize_username(username)
    if (problem := name_problem(username)) is not None:
        raise DomainError(NAME_CONTROL_CODE, problem, "username")
    if mixes_scripts(username):
        scripts = " and ".join(name.title() for name in username_scripts(username))
        raise DomainError(
            "username-mixed-scripts",
            f"Use the letters of one alphabet: this username mixes {scripts} letters.",
            "username",
        )
    others = User.objects.all() if user is None or user.pk is None else User.objects.exclude(pk=user.pk)
    if others.filter(username__iexact=username).exists():
        raise DomainError("username-taken", USERNAME_TAKEN, "username")
    if others.filter(username_skeleton=username_skeleton(username)).exists():
        raise DomainError("username-lookalike", USERNAME_LOOKALIKE, "username")
    if (skeleton := name_skeleton(username)) and others.filter(display_skeleton=skeleton).exists():
        raise DomainError("username-lookalike", USERNAME_LIKE_A_NAME, "username")
    return username


def user_display_name_check(*, display_name: str, user: User | None = None) -> str:
    """``display_name`` as stored (without blank ends), or a refusal when it holds a control or invisible
    character, or looks like another member's display name or username (their skeletons: one person
    may not be shown under another's name)."""
    display_name = display_name.strip()
    if (problem := name_problem(display_name)) is not None:
        raise DomainError(NAME_CONTROL_CODE, problem, "display_name")
    skeleton = name_skeleton(display_name)
    if not skeleton:
        return display_name
    others = User.objects.all() if user is None or user.pk is None else User.objects.exclude(pk=user.pk)
    if (
        others.filter(display_skeleton=skeleton).exists()
        or others.filter(username_skeleton__in=username_forms(display_name)).exists()
    ):
        raise DomainError("display-name-taken", DISPLAY_NAME_TAKEN, "display_name")
    return display_name


def _write(write: Callable[[], T], *, recheck: Callable[[], object]) -> T:
    """``write()``; when a unique constraint refuses it, the check that now fails, as a conflict."""
    try:
        with transaction.atomic():
            return write()
    except IntegrityError:
        try:
            recheck()
        except DomainError as exc:
            raise ConflictError(exc.code, exc.message, exc.field) from None
        raise


@transaction.atomic
def user_sign_up(*, username: str, email: str, password: str, display_name: str = "") -> User:
    """Create an account, refused when the name or the e-mail is taken (the form or serializer checked the rest)."""

    def checks() -> None:
        user_username_check(username=username)
        user_email_check(email=email)
        user_display_name_check(display_name=display_name)

    checks()
    return _write(
        lambda: User.objects.create_user(
            username=username,
            email=email_normalise(email),
            password=password,
            display_name=display_name.strip(),
        ),
        recheck=checks,
    )


@transaction.atomic
def user_update_profile(*, user: User, display_name: str, email: str) -> User:
    def checks() -> None:
        user_email_check(email=email, user=user)
        user_display_name_check(display_name=display_name, user=user)

    checks()
    user.display_name = display_name.strip()
    user.email = email_normalise(email)

    def write() -> User:
        user.save(update_fields=["display_name", "email"])
        return user

    return _write(write, recheck=checks)
