"""The site's addresses: each named one leads to its own view, whatever order config/urls.py tries them in.

config/urls.py puts the polls and the API first (a cheaper resolve for the night's most frequent
requests); this holds if no pattern tried earlier takes an address meant for a later one.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

# A value each converter takes, by the converter's class name.
SAMPLES: dict[str, object] = {
    "IdConverter": 7,
    "KeyConverter": "k-1",
    "SlugConverter": "a-slug",
    "IntConverter": 7,
    "StringConverter": "s",
    "PathConverter": "p/q",
    "UUIDConverter": uuid.UUID(int=7),
}


def _named(
    patterns: Sequence[URLPattern | URLResolver], namespace: str, converters: dict[str, Any]
) -> Iterator[tuple[str, dict[str, Any]]]:
    for pattern in patterns:
        found = {**converters, **getattr(pattern.pattern, "converters", {})}
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":  # Django's own, under admin/ alone
                continue
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _named(pattern.url_patterns, inner, found)
        elif pattern.name:
            yield f"{namespace}{pattern.name}", found


def test_it_resolves_every_named_address_to_its_own_view():
    named = list(_named(get_resolver().url_patterns, "", {}))
    assert len(named) > 100  # the site's pages and API, not an empty walk
    taken_by_another = []
    for name, converters in named:
        kwargs = {key: SAMPLES[type(converter).__name__] for key, converter in converters.items()}
        address = reverse(name, kwargs=kwargs)
        if resolve(address).view_name != name:
            taken_by_another.append((name, address, resolve(address).view_name))
    assert taken_by_another == []


def test_it_tries_the_polls_before_the_pages():
    first = [
        getattr(pattern, "urlconf_name", None).__name__
        for pattern in get_resolver("config.urls").url_patterns[:2]
    ]
    assert first == ["accounts.notification_urls", "standings.urls"]
