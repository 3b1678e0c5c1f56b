"""A list's entries, platoons and fortifications are named to people by name and number, never by id."""

from __future__ import annotations

from armies.validation.labels import numbered_names


def test_it_numbers_only_the_names_a_list_holds_more_than_once_in_list_order():
    named = numbered_names(
        [("e1", "Gulfport Marine Squad"), ("e2", "Prairie Dog"), ("e5", "Gulfport Marine Squad")]
    )

    assert named == {"e1": "Gulfport Marine Squad 1", "e2": "Prairie Dog", "e5": "Gulfport Marine Squad 2"}
