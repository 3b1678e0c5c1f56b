"""Where the feature apps add to the home page, without core importing them.

Core imports no feature app, yet a player's home page shows their next battle (the campaign's and the battles
app's to know). So core keeps this registry and an app fills it when it loads (``AppConfig.ready``), as the
campaign keeps one for its own pages (``campaign.views.sections``): a **home section** is a template the home
page includes for a signed-in person and the function that gives it its context.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest

HomeContext = Callable[[HttpRequest], dict[str, Any]]

# Template name -> the function giving it its context, in the order registered.
_home_sections: dict[str, HomeContext] = {}


def register_home_section(template: str, context: HomeContext) -> None:
    _home_sections[template] = context


def home_sections(request: HttpRequest) -> list[tuple[str, dict[str, Any]]]:
    """Each registered section's template and context, for a signed-in person (a visitor gets none)."""
    if not request.user.is_authenticated:
        return []
    return [(template, context(request)) for template, context in _home_sections.items()]
