"""A new session with a fresh join code: unique among open sessions, drawn a few times at most."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import IntegrityError, transaction

from battles.sessions.limits import JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH, JOIN_CODE_TRIES
from battles.sessions.models import BattleSession, SessionStatus
from core.errors import ConflictError


def _new_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def create_session(**values: Any) -> BattleSession:
    """A session with a fresh join code (unique among open sessions; a few draws, then a refusal)."""
    for _ in range(JOIN_CODE_TRIES):
        try:
            with transaction.atomic():
                return BattleSession.objects.create(code=_new_code(), **values)
        except IntegrityError:
            if (
                values.get("battle") is not None
                and BattleSession.objects.filter(battle=values["battle"], status=SessionStatus.OPEN).exists()
            ):
                raise ConflictError(
                    "session-open", "this battle already has a session in play", "battle"
                ) from None
    raise ConflictError("code-unavailable", "no free join code was found: try again", "code")
