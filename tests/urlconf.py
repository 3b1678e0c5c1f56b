"""The site's routes, walked from the URL conf, for the tests that must cover every page by themselves
(the hidden-results walk, the word scan): a page added later is in the walk without anyone listing it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

# ``<converter:name>``, or ``<name>`` (a string) as in Django's own password-reset route.
PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")


def _walk(patterns: list[Any], prefix: str, namespace: str) -> Iterator[tuple[str, str]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}:{pattern.namespace}" if namespace and pattern.namespace else (
                pattern.namespace or namespace
            )  # fmt: skip
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            yield (
                prefix + str(pattern.pattern),
                f"{namespace}:{pattern.name}" if namespace else str(pattern.name),
            )


def routes() -> Iterator[tuple[str, str]]:
    """Every (route, name) of the URL conf: ``campaigns/<id:pk>/battles/<id:battle_id>/``, ``campaign:battle``."""
    return _walk(get_resolver().url_patterns, "", "")


def filled(route: str, fillings: dict[str, list[str]]) -> list[str]:
    """The paths ``route`` names with each combination of its parameters' values."""
    paths = ["/" + route]
    for parameter in PARAMETER.finditer(route):
        name = parameter.group(2)
        paths = [path.replace(parameter.group(0), value) for path in paths for value in fillings[name]]
    return paths
