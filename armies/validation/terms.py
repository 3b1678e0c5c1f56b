"""Campaign terms: reading them from plain data, resolving them against a list, describing them.

``Terms`` (types.py) carries what a campaign or a mission decides instead of the
list: the points limit, the side's role, fortifications granted for free or
offered for purchase, whether the RtZ special rules apply, the mission's reserve
placements and the catalogue version. ``terms_from_mapping`` is the one reader
of terms from outside (the API's ``terms`` object, the validator page's form and
the ``validate_list`` command all build a plain mapping and call it), so the
three refuse the same input with the same messages. docs/validator-terms.md
describes each term.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from armies.validation import limits
from armies.validation.types import (
    FORTIFICATION_KINDS,
    ROLES,
    ArmyList,
    FortificationKind,
    Override,
    Role,
    Terms,
)
from core.errors import DomainError, FieldProblem

FIELDS = (
    "points_limit",
    "role",
    "granted_fortifications",
    "fortification_purchases",
    "rtz",
    "reserve_limit",
    "catalogue_version",
)


class TermsError(DomainError, ValueError):
    """Terms that cannot be used; ``problems`` names every field at fault (paths relative to the terms)."""

    default_code = "terms-invalid"

    def __init__(self, problems: list[FieldProblem]) -> None:
        first = problems[0]
        super().__init__(self.default_code, first.message, first.field, problems=problems)


def terms_from_mapping(data: object) -> Terms:
    """Terms from plain data (JSON-shaped); a missing key or a None value leaves that term unset.

    Raises ``TermsError`` naming every field at fault: unknown keys, values of the
    wrong type or out of the bounds in ``limits``, and terms that contradict each other.
    """
    if not isinstance(data, Mapping):
        raise TermsError(
            [FieldProblem("", "not-an-object", f"terms must be an object, not {limits.excerpt(data)}")]
        )
    problems: list[FieldProblem] = []
    unknown = [key for key in data if key not in FIELDS]
    for key in unknown[:5]:
        problems.append(
            FieldProblem(
                str(key)[: limits.KEY_MAX_LENGTH],
                "unknown-term",
                f"no such term; terms are {', '.join(FIELDS)}",
            )
        )
    reader = _Reader(data, problems)
    terms = Terms(
        points_limit=reader.integer("points_limit", limits.POINTS_LIMIT_MIN, limits.POINTS_LIMIT_MAX),
        role=cast(Role | None, reader.choice("role", ROLES)),
        granted_fortifications=reader.kinds(
            "granted_fortifications", limits.MAX_GRANTED_FORTIFICATIONS, unique=False
        )
        or (),
        fortification_purchases=reader.kinds(
            "fortification_purchases", len(FORTIFICATION_KINDS), unique=True
        ),
        rtz=reader.boolean("rtz"),
        reserve_limit=reader.integer("reserve_limit", 0, limits.RESERVE_LIMIT_MAX),
        catalogue_version=reader.text("catalogue_version", limits.CATALOGUE_VERSION_MAX_LENGTH),
    )
    _check_consistent(terms, problems)
    if problems:
        raise TermsError(problems)
    return terms


def _check_consistent(terms: Terms, problems: list[FieldProblem]) -> None:
    # Under RtZ the attacker fields no fortification, so such terms could pass no list that uses them.
    if terms.role != "attacker" or terms.rtz is False:
        return
    for name, value in (
        ("granted_fortifications", terms.granted_fortifications),
        ("fortification_purchases", terms.fortification_purchases),
    ):
        if value:
            problems.append(
                FieldProblem(
                    name,
                    "attacker-fortification",
                    "under the RtZ rules only the defender fields fortifications; "
                    "give them to the defender, or turn the RtZ rules off",
                )
            )


class _Reader:
    def __init__(self, data: Mapping[Any, Any], problems: list[FieldProblem]) -> None:
        self.data = data
        self.problems = problems

    def _fail(self, name: str, code: str, message: str) -> None:
        self.problems.append(FieldProblem(name, code, message))

    def integer(self, name: str, low: int, high: int) -> int | None:
        value = self.data.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self._fail(name, "not-an-integer", f"must be a whole number, not {limits.excerpt(value)}")
            return None
        if not low <= value <= high:
            self._fail(name, "out-of-range", f"must be from {low:,} to {high:,}, not {value:,}")
            return None
        return value

    def choice(self, name: str, choices: tuple[str, ...]) -> str | None:
        value = self.data.get(name)
        if value is None:
            return None
        if value not in choices:
            self._fail(
                name, "unknown-choice", f"must be one of {', '.join(choices)}, not {limits.excerpt(value)}"
            )
            return None
        return str(value)

    def boolean(self, name: str) -> bool | None:
        value = self.data.get(name)
        if value is None or isinstance(value, bool):
            return value
        self._fail(name, "not-a-boolean", f"must be true or false, not {limits.excerpt(value)}")
        return None

    def text(self, name: str, max_length: int) -> str | None:
        value = self.data.get(name)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            self._fail(name, "not-a-string", f"must be a non-empty string, not {limits.excerpt(value)}")
            return None
        if len(value) > max_length:
            self._fail(name, "too-long", f"must be at most {max_length} characters, not {len(value):,}")
            return None
        return value.strip()

    def kinds(self, name: str, most: int, *, unique: bool) -> tuple[FortificationKind, ...] | None:
        value = self.data.get(name)
        if value is None:
            return None
        if not isinstance(value, list | tuple):
            self._fail(
                name, "not-a-list", f"must be a list of fortification kinds, not {limits.excerpt(value)}"
            )
            return None
        if len(value) > most:
            self._fail(name, "too-many", f"may name at most {most} fortifications, not {len(value):,}")
            return None
        kinds: list[FortificationKind] = []
        for index, kind in enumerate(value):
            if kind not in FORTIFICATION_KINDS:
                allowed = ", ".join(FORTIFICATION_KINDS)
                self._fail(
                    f"{name}[{index}]",
                    "unknown-choice",
                    f"must be one of {allowed}, not {limits.excerpt(kind)}",
                )
            elif unique and kind in kinds:
                self._fail(f"{name}[{index}]", "duplicate", f"names {kind} twice")
            else:
                kinds.append(kind)
        return tuple(kinds)


def resolve(army: ArmyList, terms: Terms | None) -> tuple[Terms, tuple[Override, ...]]:
    """The terms the list is checked under, every field filled in, and what they override.

    Without terms the list's own limit, role and catalogue version are used, RtZ is on
    and nothing is granted: the verdict records that too, so it always says how it was reached.
    """
    given = terms or Terms()
    resolved = Terms(
        points_limit=army.points_limit if given.points_limit is None else given.points_limit,
        role=army.role if given.role is None else given.role,
        granted_fortifications=given.granted_fortifications,
        fortification_purchases=given.fortification_purchases,
        rtz=given.rtz is not False,
        reserve_limit=given.reserve_limit,
        catalogue_version=army.catalogue_version
        if given.catalogue_version is None
        else given.catalogue_version,
    )
    overrides = tuple(
        Override(name, listed, applied)
        for name, listed, applied in (
            ("points_limit", army.points_limit, resolved.points_limit),
            ("role", army.role, resolved.role),
            ("catalogue_version", army.catalogue_version, resolved.catalogue_version),
        )
        if listed != applied
    )
    return resolved, overrides


def describe(terms: Terms, overrides: tuple[Override, ...] = ()) -> str:
    """One line for people: "Checked at 200 AP (the list says 300) as defender, bunker granted"."""
    listed = {override.field: override.listed for override in overrides}

    def was(name: str) -> str:
        if name not in listed:
            return ""
        value = listed[name]
        return f" (the list says {value if value is not None else 'none'})"

    parts = [f"Checked at {terms.points_limit} AP{was('points_limit')}"]
    parts.append(f"as {terms.role}{was('role')}" if terms.role else "with no role")
    text = " ".join(parts)
    extra = []
    if terms.granted_fortifications:
        extra.append(f"{' and '.join(terms.granted_fortifications)} granted")
    if terms.fortification_purchases is not None:
        offered = " and ".join(f"{kind}s" for kind in terms.fortification_purchases) or "no fortifications"
        extra.append(f"may buy {offered}")
    if terms.reserve_limit is not None:
        extra.append(f"{terms.reserve_limit} reserve placement{'s' if terms.reserve_limit != 1 else ''}")
    extra.append("RtZ rules on" if terms.rtz is not False else "RtZ rules off")
    if "catalogue_version" in listed:
        extra.append(f"catalogue version {terms.catalogue_version}{was('catalogue_version')}")
    return f"{text}; {', '.join(extra)}"
