"""The campaign's own pages' links (campaign/_subnav.html), drawn once per process for each campaign, page and
kind of viewer.

Every page of a campaign starts with them: eight to eleven ``{% url %}`` (a ``reverse`` each) that are the
same for everyone who may see the campaign, but for its organisers' three tools. The key holds every input
the links are drawn from: the campaign's id (its only value the template reads), the page marked current,
whether the viewer manages the campaign, and the script prefix the addresses begin with
(tests/campaign/test_subnav.py renders the include beside it).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.urls import get_script_prefix
from django.utils.safestring import SafeString, mark_safe

# A campaign night's pages: a few campaigns, a dozen pages each, two kinds of viewer.
_KEPT = 256


@dataclass(frozen=True)
class _Campaign:
    """What the template reads of the campaign: its id alone (a value more would be read as empty)."""

    pk: int


def subnav_html(campaign_pk: int, *, current: str, can_manage: bool) -> SafeString:
    """``{% include "campaign/_subnav.html" with current=current %}`` for a campaign."""
    return _drawn(campaign_pk, current, can_manage, get_script_prefix())


@functools.lru_cache(maxsize=_KEPT)
def _drawn(campaign_pk: int, current: str, can_manage: bool, script_prefix: str) -> SafeString:
    del script_prefix  # in the key only: {% url %} reads it
    context = {"campaign": _Campaign(campaign_pk), "current": current, "can_manage": can_manage}
    return mark_safe(render_to_string("campaign/_subnav.html", context))  # noqa: S308 - the template escapes
