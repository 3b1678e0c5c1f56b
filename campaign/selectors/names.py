"""A place's name as the database can say it, for pages that list hundreds of places and need nothing else of them.

``place_name("attacker__")`` is what ``Enrolment.display_name`` says of the
place at the end of that path: the account's display name, else its username;
the placeholder's name for a place without an account. Reading it as one
column spares a page the enrolment and account rows it would build only to
ask their name (tests/campaign/test_selectors_names.py holds the two equal).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Case, CharField, F, Value, When
from django.db.models.functions import Coalesce, NullIf

from campaign.models import Battle


def place_name(path: str = "") -> Case:
    """The name of the place at ``path`` (``""``: the enrolment itself; ``"attacker__"``: a battle's attacker)."""
    return Case(
        When(
            **{f"{path}player__isnull": False},
            then=Coalesce(NullIf(F(f"{path}player__display_name"), Value("")), F(f"{path}player__username")),
        ),
        default=F(f"{path}placeholder_name"),
        output_field=CharField(),
    )


def battle_names(*, campaign_id: int, ids: Iterable[int]) -> dict[int, str]:
    """How a page names each battle of ``ids`` in a sentence: "the battle at The Zoo (Karl attacks Anna)", as
    ``battles.presenters.battle_label`` says it (one query of columns; none without an id)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = (
        Battle.objects.filter(campaign_id=campaign_id, pk__in=wanted)
        .annotate(attacker_name=place_name("attacker__"), defender_name=place_name("defender__"))
        .values_list("pk", "sector__name", "attacker_name", "defender_name")
    )
    return {
        pk: f"the battle{f' at {sector}' if sector else ''} ({attacker} attacks {defender})"
        for pk, sector, attacker, defender in rows
    }
