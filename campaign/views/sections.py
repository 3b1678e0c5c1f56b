"""Where the apps built on the campaign add to its pages, without the campaign importing them.

The imports run one way (battles -> campaign), yet the campaign's pages show
what the battles app knows: a battle's report on the battle's page, the
disputes on the organisers' dashboard, reports in words on the timeline. So
the campaign keeps this registry and the battles app fills it when it loads
(``BattlesConfig.ready``), as it registers its kinds of notification:

- a **battle section**: a template the battle's page includes and the function
  that gives it its context (``state`` carries why an action was refused);
- a **dashboard section**: the same for the organisers' dashboard; it is also sent out of
  band when the polled panel changes (its root has an ``id`` and ``hx-swap-oob`` when
  ``oob``), so it must hold no form a swap would wipe;
- a **battle namer**: how the timeline names the battles its report and result
  entries are about, and what the viewer may see of each;
- a **status namer**: a battle's status in words, the one vocabulary every page
  uses ("Waiting for the opponent", "Disputed" where the viewer may see the
  report, else the battle's own "Reported"), registered with the statuses it may
  put in other words: a battle of any other status is called by its status, so a
  page of many battles builds instances only for those the namers read
  (``renamed_statuses``).

With nothing registered the pages show what the campaign alone knows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from django.http import HttpRequest

from campaign.models import Battle, BattleStatus, Campaign, LogEntry
from campaign.views.presenters import BattleWords
from core.http import HtmxHttpRequest

BattleContext = Callable[[HtmxHttpRequest, Campaign, Battle, Mapping[str, Any]], dict[str, Any]]
DashboardContext = Callable[[HtmxHttpRequest, Campaign], dict[str, Any]]
BattleNamer = Callable[[HtmxHttpRequest, Campaign, Sequence[LogEntry]], Mapping[int, BattleWords]]
StatusNamer = Callable[[HttpRequest, Campaign, Sequence[Battle]], Mapping[int, str]]


# Template name -> the function giving it its context.
_battle_sections: dict[str, BattleContext] = {}
_dashboard_sections: dict[str, DashboardContext] = {}
_namers: list[BattleNamer] = []
_status_namers: list[StatusNamer] = []
_renamed: set[str] = set()
_OWN_WORDS = dict(BattleStatus.choices)


def register_battle_section(template: str, context: BattleContext) -> None:
    _battle_sections[template] = context


def register_dashboard_section(template: str, context: DashboardContext) -> None:
    _dashboard_sections[template] = context


def register_battle_namer(namer: BattleNamer) -> None:
    if namer not in _namers:
        _namers.append(namer)


def register_status_namer(namer: StatusNamer, *, statuses: Iterable[str]) -> None:
    """``namer`` words battles of ``statuses`` only (it is given others too, and leaves them be)."""
    if namer not in _status_namers:
        _status_namers.append(namer)
    _renamed.update(statuses)


def renamed_statuses() -> frozenset[str]:
    """The statuses a namer may put in other words: ``status_own_words`` says every other one."""
    return frozenset(_renamed)


def status_own_words(status: str) -> str:
    """A status in the battle's own words (``get_status_display``), as ``battle_statuses`` says it unrenamed."""
    return str(_OWN_WORDS.get(status, status))


def battle_statuses(request: HttpRequest, campaign: Campaign, battles: Sequence[Battle]) -> dict[int, str]:
    """Each battle's status in words (by id), the same on every page that shows it."""
    # get_status_display's words, looked up in a dict made once (it flattens the choices for each call).
    shown = {battle.pk: status_own_words(battle.status) for battle in battles}
    for namer in _status_namers:
        shown.update(namer(request, campaign, battles))
    return shown


def battle_sections(
    request: HtmxHttpRequest, campaign: Campaign, battle: Battle, state: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The battle page's added sections: ``battle_sections`` (templates) and their context."""
    context: dict[str, Any] = {"battle_sections": list(_battle_sections)}
    for give in _battle_sections.values():
        context.update(give(request, campaign, battle, state or {}))
    return context


def dashboard_sections(request: HtmxHttpRequest, campaign: Campaign) -> dict[str, Any]:
    context: dict[str, Any] = {"dashboard_sections": list(_dashboard_sections)}
    for give in _dashboard_sections.values():
        context.update(give(request, campaign))
    return context


def battle_words(
    request: HtmxHttpRequest, campaign: Campaign, entries: Sequence[LogEntry]
) -> Mapping[int, BattleWords]:
    words: dict[int, BattleWords] = {}
    for namer in _namers:
        words.update(namer(request, campaign, entries))
    return words
