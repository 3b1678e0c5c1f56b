"""Wording for the pages: the settings summary and log entries as sentences.

Plain functions over the models, no queries: the views hand them what the
selectors fetched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campaign.forms import switch_label
from campaign.models import Campaign, EnrolmentStatus, LogEntry, LogKind
from campaign.options import ResourceHolder, Status, Tiebreaker, UnplayedPolicy
from rules.engine.ruleset import RuleSet

_LABELS: dict[str, str] = {
    "name": "Name",
    "description": "Description",
    "is_public": "Public",
    "catalogue": "Catalogue",
    "points_limit": "Points limit",
    "points_win": "Points for a win",
    "points_draw": "Points for a draw",
    "points_loss": "Points for a loss",
    "tiebreakers": "Tiebreakers",
    "ruleset": "RtZ rules",
    "resources_held_by": "Resources kept by",
    "strongpoint_cost": "Strongpoint cost",
    "bunker_cost": "Bunker cost",
    "income_base": "Base income",
    "max_players_per_bloc": "Players per bloc at most",
    "unplayed_battles": "Unplayed battles",
    "max_open_challenges": "Open challenges per player",
    "challenge_days": "Days to answer a challenge",
    "report_confirm_hours": "Hours to confirm a report",
    "award_win": "Resources for a win",
    "award_draw": "Resources for a draw",
    "hide_results_until_close": "Results hidden until the round closes",
    "webhook_url": "Webhook",
    "owner": "holder",
}


def _choice_label(choices: Any, value: Any) -> str:
    try:
        return str(choices(value).label)
    except ValueError:
        return str(value)


def tiebreaker_labels(values: list[str]) -> list[str]:
    return [_choice_label(Tiebreaker, value) for value in values]


def rules_on(ruleset: Mapping[str, Any]) -> list[str]:
    return [switch_label(name) for name in RuleSet.from_dict(ruleset).enabled()]


def settings_summary(campaign: Campaign) -> list[tuple[str, str]]:
    """The settings as label/value lines for the campaign page."""
    catalogue = campaign.catalogue
    rules = rules_on(campaign.ruleset)
    return [
        ("Catalogue", f"{catalogue.name} (version {campaign.catalogue_version})" if catalogue else "Not chosen yet"),
        ("Points limit", f"{campaign.points_limit} AP per battle"),
        ("Scoring", f"win {campaign.points_win}, draw {campaign.points_draw}, loss {campaign.points_loss}"),
        ("Tiebreakers", ", then ".join(tiebreaker_labels(campaign.tiebreakers)) or "none"),
        ("RtZ rules on", ", ".join(rules) if rules else "none: the rulebook's rules"),
        ("Resources kept by", _choice_label(ResourceHolder, campaign.resources_held_by)),
        ("Fortifications", f"strongpoint {campaign.strongpoint_cost}, bunker {campaign.bunker_cost} resource points"),
        ("Base income", f"{campaign.income_base} per round"),
        ("Players per bloc", str(campaign.max_players_per_bloc or "no cap")),
        ("Unplayed battles", _choice_label(UnplayedPolicy, campaign.unplayed_battles)),
        ("Reports", f"confirmed for the opponent after {campaign.report_confirm_hours} hours"),
        ("Battle awards", f"win {campaign.award_win}, draw {campaign.award_draw} resource points"),
        ("Results", "hidden from players until the round closes" if campaign.hide_results_until_close
         else "shown as soon as they are confirmed"),
    ]  # fmt: skip


@dataclass(frozen=True)
class EntryLine:
    entry: LogEntry
    text: str
    sector_key: str


def _shown(field: str, value: Any) -> str:
    if value is None or value == "":
        return "neutral" if field == "owner" else "nothing"
    if field == "status":
        return _choice_label(Status, value).lower()
    if field == "tiebreakers" and isinstance(value, list):
        return ", ".join(tiebreaker_labels(value)) or "none"
    if field == "ruleset" and isinstance(value, Mapping):
        return ", ".join(rules_on(value)) or "no RtZ rules"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _enrolment_text(entry: LogEntry) -> str:
    after = entry.after if isinstance(entry.after, Mapping) else {}
    if entry.field == "player":
        return f"{after or entry.after} claimed the place kept for {entry.before}"
    who = f"{after.get('player', '?')} ({after.get('bloc', '?')})"
    status = _choice_label(EnrolmentStatus, after.get("status", "")).lower()
    before = f"{_choice_label(EnrolmentStatus, entry.before).lower()} → " if entry.before else ""
    return f"{who}: {before}{status}"


def describe_entry(entry: LogEntry, sector_names: Mapping[str, str]) -> EntryLine:
    """One log entry as a sentence for the timeline."""
    kind = entry.kind
    after: Any = entry.after
    sector_key = ""
    if kind == LogKind.CAMPAIGN_CREATED:
        text = f"Created the campaign “{after.get('name', '') if isinstance(after, Mapping) else after}”"
    elif kind == LogKind.STATUS_CHANGED:
        text = f"Status: {_shown('status', entry.before)} → {_shown('status', after)}"
    elif kind == LogKind.SETTING_CHANGED:
        field = entry.field
        text = f"{_LABELS.get(field, field)}: {_shown(field, entry.before)} → {_shown(field, after)}"
    elif kind == LogKind.INVITE_REGENERATED:
        text = "Replaced the invitation link (the old one stopped working)"
    elif kind == LogKind.CO_ORGANISER_ADDED:
        text = f"{after} now helps run the campaign"
    elif kind == LogKind.CO_ORGANISER_REMOVED:
        text = f"{entry.before} no longer helps run the campaign"
    elif kind == LogKind.MAP_LOADED:
        details = after if isinstance(after, Mapping) else {}
        text = f"Loaded the map {details.get('name', '')} ({details.get('sectors', '?')} sectors)"
    elif kind == LogKind.SECTOR_CHANGED:
        key = entry.subject.removeprefix("sector:")
        name = sector_names.get(key, key)
        # Only sectors of the map now have a page to link to.
        sector_key = key if key in sector_names else ""
        field = entry.field
        label = _LABELS.get(field, field)
        text = f"{name}: {label} {_shown(field, entry.before)} → {_shown(field, after)}"
    elif kind == LogKind.ENROLMENT_CHANGED:
        text = _enrolment_text(entry)
    else:
        text = f"{entry.get_kind_display()}: {entry.subject}"
    return EntryLine(entry=entry, text=text, sector_key=sector_key)
