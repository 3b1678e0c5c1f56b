"""The army-list validator: a pure function from a list and a catalogue to a verdict."""

from __future__ import annotations

from collections.abc import Callable

from armies.validation import composition, fortifications, heroes, pilots, platoons, references, reserves
from armies.validation.context import Context
from armies.validation.points import evaluate_points
from armies.validation.terms import resolve
from armies.validation.types import ArmyList, Catalogue, Terms, Verdict

# Order matters only for how problems are listed: data problems first, so a player
# fixes a typo before reading what it caused.
_CHECKS: tuple[Callable[[Context], None], ...] = (
    references.check_list_shape,
    references.check_duplicate_ids,
    references.check_unknown_units,
    references.check_entry_references,
    references.check_bloc_and_faction,
    composition.check_one_bloc,
    composition.check_captured_vehicles,
    heroes.check_unique_heroes,
    composition.check_unique_units,
    heroes.check_joins,
    pilots.check_pilots,
    platoons.check_platoons,
    fortifications.check_fortifications,
    reserves.check_reserves,
    composition.check_scouts,
)


def validate(army: ArmyList, catalogue: Catalogue, terms: Terms | None = None) -> Verdict:
    """Check every force-building rule; never raises on a well-typed list.

    ``terms`` (a campaign's or a mission's) replace what the list says about its
    points limit, role and catalogue version, and add what a list cannot say
    (granted fortifications, the RtZ switch, the reserve count); the verdict's
    ``terms`` and ``overrides`` say what it was checked under.
    """
    ctx = Context(army, catalogue, terms or Terms())
    for check in _CHECKS:
        check(ctx)
    totals = evaluate_points(ctx)
    resolved, overrides = resolve(army, terms)
    return Verdict(totals=totals, problems=tuple(ctx.problems), terms=resolved, overrides=overrides)
