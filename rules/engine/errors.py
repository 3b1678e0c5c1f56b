"""The one error type the engine raises for input it cannot accept.

Callers (forms, API views, batch jobs) turn it into a message attached to the
offending field, so it always names the field and says why in plain words.
"""

from __future__ import annotations


class EngineInputError(ValueError):
    """Input the rules engine refuses: ``field`` is what was wrong, ``reason`` why."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}")

    def __str__(self) -> str:
        return f"{self.field}: {self.reason}"

    def __reduce__(self) -> tuple[type[EngineInputError], tuple[str, ...]]:
        # The default pickling would rebuild the error from its message alone;
        # Celery ships exceptions between processes, so keep both parts.
        return (type(self), (self.field, self.reason))
