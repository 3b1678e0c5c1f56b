"""The one error type the engine raises for input it cannot accept.

Callers (forms, API views, batch jobs) turn it into a message attached to the
offending field, so it always names the field and says why in plain words. It
is a ``core.errors.DomainError`` (a plain-Python module), so the API maps it
like every other refusal.
"""

from __future__ import annotations

from core.errors import DomainError


class EngineInputError(DomainError, ValueError):
    """Input the rules engine refuses: ``field`` is what was wrong, ``reason`` why."""

    default_code = "invalid-attack"

    def __init__(self, field: str, reason: str, code: str = "") -> None:
        super().__init__(code or self.default_code, reason, field)

    @property
    def reason(self) -> str:
        return self.message
