"""The one base for every refusal a user can cause.

Plain Python with no Django imports, so the pure engines (``rules.engine``,
``armies.validation``) can raise it too. Every app's errors subclass it; the
API's exception handler (``core.api``) turns any of them into the documented
error shape, and pages show ``message`` next to ``field``.

- ``code`` is stable: clients and tests match on it, people never see it.
- ``message`` is for people: it names what is wrong and why, in a sentence.
- ``field`` is the path of the input at fault (``weapons[0].count``,
  ``list.entries[3].unit``), or ``""`` when the refusal is about the whole request.

A ``ConflictError`` is a refusal because of the state of things rather than the
input: the object changed under the caller, or another request won a race. The
API answers it with 409 instead of 400; a ``TooManyRequestsError`` (a rate per account) with 429.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar


@dataclass(frozen=True)
class FieldProblem:
    """One thing wrong with one input: where, a stable code, and a sentence for people."""

    field: str
    code: str
    message: str


class DomainError(Exception):
    """A change or a question the domain refuses, with a stable code, a message and a field.

    ``problems`` lists every input at fault when there are several (a list
    document with three bad entries); it defaults to the one named by
    ``code``, ``message`` and ``field``.
    """

    default_code: ClassVar[str] = "invalid"

    def __init__(
        self, code: str, message: str, field: str = "", *, problems: Sequence[FieldProblem] = ()
    ) -> None:
        super().__init__(message)
        self.code = code or self.default_code
        self.message = message
        self.field = field
        self.problems: tuple[FieldProblem, ...] = tuple(problems) or (
            FieldProblem(field, self.code, message),
        )

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message

    def __reduce__(self) -> tuple[Any, ...]:
        # Celery ships exceptions between processes; the default pickling would
        # rebuild the error from its message alone and lose the code and fields.
        return (_rebuild, (type(self), self.code, self.message, self.field, self.problems))

    def with_field_prefix(self, prefix: str) -> DomainError:
        """The same error with its fields nested under ``prefix``: ``$.entries[2]`` -> ``list.entries[2]``."""
        problems = tuple(replace(p, field=nest_field(prefix, p.field)) for p in self.problems)
        return _rebuild(type(self), self.code, self.message, nest_field(prefix, self.field), problems)


class ConflictError(DomainError):
    """Refused because of the current state (a lost race, a stale version): HTTP 409."""

    default_code: ClassVar[str] = "conflict"


class TooManyRequestsError(DomainError):
    """Refused because the caller asked too often (a per-account rate): HTTP 429."""

    default_code: ClassVar[str] = "too-many-requests"


def nest_field(prefix: str, field: str) -> str:
    """``field`` (a plain or ``$``-rooted JSON path) as a path below ``prefix``."""
    inner = field.removeprefix("$").removeprefix(".")
    if not inner:
        return prefix
    return f"{prefix}{inner}" if inner.startswith("[") else f"{prefix}.{inner}"


def _rebuild(
    cls: type[DomainError], code: str, message: str, field: str, problems: tuple[FieldProblem, ...]
) -> DomainError:
    # Subclasses have their own constructors; rebuild through the base one.
    error = cls.__new__(cls)
    DomainError.__init__(error, code, message, field, problems=problems)
    return error
