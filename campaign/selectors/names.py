"""A place's name as the database can say it, for pages that list hundreds of places and need nothing else of them.

``place_name("attacker__")`` is what ``Enrolment.display_name`` says of the
place at the end of that path: the account's display name, else its username;
the placeholder's name for a place without an account. Reading it as one
column spares a page the enrolment and account rows it would build only to
ask their name (tests/campaign/test_selectors_names.py holds the two equal).
"""

from __future__ import annotations

from django.db.models import Case, CharField, F, Value, When
from django.db.models.functions import Coalesce, NullIf


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
