"""The log-in backend: Django's ModelBackend, with the signed-in user read by one precompiled query.

Every request of a signed-in player loads their account from the session's user id. Django's
``ModelBackend.get_user`` builds and compiles that query each time, about a twentieth of a busy web
process's CPU on a campaign night; here it is built by the ORM once per thread (core/compiled.py) and the
account made from its row as the ORM would (``User.from_db``). Checking passwords and permissions is
ModelBackend's, unchanged.

Sessions name the backend that logged them in: a session from before this backend was configured names
``django.contrib.auth.backends.ModelBackend`` and is asked to log in again (README, "Upgrading").
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError
from django.db import DEFAULT_DB_ALIAS
from django.db.models import QuerySet

from accounts.models import User
from core.compiled import CompiledValues

PATH = "accounts.backends.AccountBackend"
_FIELDS = [field.attname for field in User._meta.concrete_fields]
_LARGEST_ID = 2**63 - 1


def _user_query(user: int) -> QuerySet[User, dict[str, Any]]:
    query: QuerySet[User, dict[str, Any]] = User.objects.filter(pk=user).order_by().values(*_FIELDS)
    return query


_USER = CompiledValues(_user_query, "user")


class AccountBackend(ModelBackend):
    def get_user(self, user_id: Any) -> User | None:  # type: ignore[override]
        try:
            pk = int(User._meta.pk.to_python(user_id))
        except (TypeError, ValueError, ValidationError):
            return None
        if not 0 < pk <= _LARGEST_ID:
            return None
        row = _USER.first(user=pk)
        if row is None:
            return None
        user = User.from_db(DEFAULT_DB_ALIAS, _FIELDS, [row[name] for name in _FIELDS])
        return user if self.user_can_authenticate(user) else None
