"""Wording for the pages: the settings summary and log entries as sentences.

Plain functions over the models, no queries: the views hand them what the
selectors fetched.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.dates import MONTHS_3

from campaign.engine.missions import MISSIONS_BY_KEY
from campaign.models import Campaign, EnrolmentStatus, LogEntry, LogKind
from campaign.options import ResourceHolder, Status, Tiebreaker, UnplayedPolicy
from campaign.settings_form import switch_label
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
    battle_id: int | None = None  # the battle whose page the line links to
    main: bool = False  # a battle report: the timeline's main entries
    private: bool = False  # the viewer may not see the report, so not why it changed either
    reason: str = ""  # why, in words (``reason_words``)


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
    if entry.field == "claim_link":  # the link stays out of the log, and so does whose place it is
        return "Made a new claim link for a club member's place (the old one stopped working)"
    who = f"{after.get('player', '?')} ({after.get('bloc', '?')})"
    status = _choice_label(EnrolmentStatus, after.get("status", "")).lower()
    before = f"{_choice_label(EnrolmentStatus, entry.before).lower()} → " if entry.before else ""
    return f"{who}: {before}{status}"


_SIDES = ("attacker", "defender")
DECIDED_BY = {
    "objective": "by completing the objective",
    "elimination": "by elimination",
    "victory_points": "on victory points",
    "concession": "by concession",
}


def result_words(result: Mapping[str, Any] | None, attacker: str, defender: str) -> str:
    """``{"winner", "draw", "decided_by", "victory_points"}`` as a sentence: "Karl (attacker) wins 24-10 ..."."""
    if not result:
        return ""
    vp = result.get("victory_points") or {}
    score = f"{vp.get('attacker', 0)}-{vp.get('defender', 0)}"
    how = DECIDED_BY.get(str(result.get("decided_by", "")), "")
    if result.get("draw") or result.get("winner") not in _SIDES:
        return f"a draw, {score}"
    winner = str(result["winner"])
    name = attacker if winner == "attacker" else defender
    return f"{name} ({winner}) wins {score}{f' {how}' if how else ''}"


@dataclass(frozen=True)
class BattleWords:
    """What the timeline may say of one battle to one viewer (the view works out what they may see)."""

    label: str  # "the battle at the Zoo (Karl attacks Anna)"
    attacker: str
    defender: str
    report_visible: bool  # its report as it stands, with the result and the reasons of its changes
    result_visible: bool  # its confirmed result


def _who(entry: LogEntry) -> str:
    return entry.actor_shown or "The site"


def _report_text(entry: LogEntry, words: BattleWords) -> str:
    after = entry.after if isinstance(entry.after, Mapping) else {}
    status, before, label = after.get("status", ""), entry.before or "", words.label
    if not before:
        verb = "entered the result of" if status == "resolved" else "reported"
        text = f"{_who(entry)} {verb} {label}"
    elif status == "confirmed" and not entry.actor_shown:
        text = f"The report of {label} was confirmed for the silent opponent after the deadline"
    elif status == "void":
        text = f"{_who(entry)} voided the report of {label}"
    elif status == "resolved" and before in ("confirmed", "resolved"):
        text = f"{_who(entry)} changed the confirmed report of {label}"
    else:
        verbs = {"confirmed": "confirmed", "disputed": "disputed", "resolved": "resolved"}
        text = f"{_who(entry)} {verbs.get(status, 'changed')} the report of {label}"
    if words.report_visible and status != "void" and after.get("judgement"):
        text += f": {result_words(after['judgement'], words.attacker, words.defender)}"
    return text


def _result_text(entry: LogEntry, words: BattleWords) -> str:
    if isinstance(entry.after, Mapping):
        if not words.result_visible:
            return f"A result was recorded for {words.label}; it stays hidden until the round closes"
        return f"Result of {words.label}: {result_words(entry.after, words.attacker, words.defender)}"
    return f"The result of {words.label} was taken back (the battle is {entry.after} now)"


def _battle_line(entry: LogEntry, battles: Mapping[int, BattleWords]) -> EntryLine:
    subject = entry.subject.removeprefix("battle:")
    battle_id = int(subject) if subject.isdigit() else None
    words = battles.get(battle_id or 0) or BattleWords(f"battle {subject}", "the attacker", "the defender",
                                                        False, False)  # fmt: skip
    if entry.kind == LogKind.REPORT_CHANGED:
        text = _report_text(entry, words)
        return EntryLine(entry, text, "", battle_id, main=True, private=not words.report_visible)
    return EntryLine(entry, _result_text(entry, words), "", battle_id, private=not words.result_visible)


def describe_entry(
    entry: LogEntry,
    sector_names: Mapping[str, str],
    battles: Mapping[int, BattleWords] | None = None,
    battle_names: Mapping[int, str] | None = None,
) -> EntryLine:
    """One log entry as a sentence for the timeline (``battles``: how to name the battles of report and
    result entries, and what the viewer may see of them; ``battle_names``: the battles its reason names)."""
    line = _described(entry, sector_names, battles)
    return replace(line, reason=reason_words(entry.reason, battle_names or {})) if entry.reason else line


def _described(
    entry: LogEntry, sector_names: Mapping[str, str], battles: Mapping[int, BattleWords] | None
) -> EntryLine:
    kind = entry.kind
    if kind in (LogKind.REPORT_CHANGED, LogKind.RESULT_RECORDED):
        return _battle_line(entry, battles or {})
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
        text = _play_text(entry, sector_names)
    return EntryLine(entry=entry, text=text, sector_key=sector_key)


def plural(count: Any, one: str, many: str | None = None) -> str:
    """``1 battle``, ``5 battles`` (``many`` where adding an s is wrong)."""
    number = int(count) if isinstance(count, int | float | str) and str(count).lstrip("-").isdigit() else 0
    return f"{number} {one if number == 1 else many or f'{one}s'}"


def _round_text(entry: LogEntry) -> str:
    number = entry.subject.removeprefix("round:")
    after = entry.after if isinstance(entry.after, Mapping) else {"status": entry.after}
    status = after.get("status")
    if status == "closed":
        parts = []
        if after.get("unplayed"):
            parts.append(f"{plural(after['unplayed'], 'battle')} left unplayed")
        if after.get("results"):
            parts.append(f"{plural(after['results'], 'hidden result')} took effect")
        if after.get("income"):
            parts.append(f"{after['income']} resource points of income paid")
        return f"Round {number} closed" + (f": {', '.join(parts)}" if parts else "")
    if status == "open" and entry.before == "closed":
        return f"Round {number} reopened"
    return f"Round {number} opened"


def _pairing_text(entry: LogEntry) -> str:
    number = entry.subject.removeprefix("round:")
    after = entry.after if isinstance(entry.after, Mapping) else {}
    if not after:  # an edit of the draft: the service names it ("swap", "sector", ...)
        return f"{_who(entry)} edited the draft pairings of round {number}"
    counts = f"{plural(after.get('battles', 0), 'battle')}, {plural(after.get('byes', 0), 'bye')}"
    if after.get("published"):
        return f"{_who(entry)} published the pairings of round {number} ({counts})"
    return f"{_who(entry)} drew up pairings for round {number} ({counts})"


def _battle_terms_text(entry: LogEntry) -> str:
    after = entry.after if isinstance(entry.after, Mapping) else {}
    parts = []
    mission = MISSIONS_BY_KEY.get(str(after.get("mission", "")))
    if mission is not None:
        parts.append(f"mission {mission.name}")
    if after.get("points_limit"):
        parts.append(f"{after['points_limit']} AP")
    return f"{_who(entry)} set a battle's terms" + (f": {', '.join(parts)}" if parts else "")


_CHALLENGE_VERBS = {"accepted": "accepted", "declined": "declined", "withdrawn": "withdrew"}


def _challenge_text(entry: LogEntry, sector_names: Mapping[str, str]) -> str:
    after = entry.after
    if isinstance(after, Mapping):
        sector = str(after.get("sector", ""))
        where = f" over {sector_names.get(sector, 'a sector')}" if sector else ""
        return (
            f"{after.get('challenger', 'A player')} challenged {after.get('challenged', 'a player')}{where}"
        )
    if after == "expired":
        return "A challenge expired unanswered"
    return f"{_who(entry)} {_CHALLENGE_VERBS.get(str(after), 'answered')} a challenge"


def _play_text(entry: LogEntry, sector_names: Mapping[str, str]) -> str:
    """The entries of play (lists, rounds, pairings, challenges, points) in words: never their subject's id."""
    kind, after = entry.kind, entry.after
    if kind == LogKind.LIST_REGISTERED and isinstance(after, Mapping):
        player, name, ap = after.get("player", "A player"), after.get("name", "a list"), after.get("ap", "?")
        return f"{player} registered{' again' if entry.before else ''} {name} ({ap} AP)"
    if kind == LogKind.ROUND_CHANGED:
        return _round_text(entry)
    if kind == LogKind.PAIRING_CHANGED:
        return _pairing_text(entry)
    if kind == LogKind.BATTLE_CHANGED:
        return _battle_terms_text(entry)
    if kind == LogKind.CHALLENGE_CHANGED:
        return _challenge_text(entry, sector_names)
    if kind == LogKind.POINTS_ADJUSTED and isinstance(after, Mapping):
        points = int(after.get("points", 0) or 0)
        whose = f"{after['player']}'s" if after.get("player") else "a player's"
        return f"{_who(entry)} adjusted {whose} campaign points by {points:+d}"
    return str(entry.get_kind_display())


def day_and_time(moment: datetime) -> str:
    """``moment`` in the active time zone as the date filter writes ``"j M Y, H:i"``, at a third of its cost: a
    table of 500 registered lists spent 14 ms in the filter (tests/campaign/test_presenters_dates.py)."""
    return days_and_times([moment])[0]


def days_and_times(moments: Iterable[datetime]) -> list[str]:
    """``day_and_time`` of each moment, the time zone and the month names read once for them all (500 moments:
    1.5 ms rather than 5 ms, most of it the translation of the month's name)."""
    zone = timezone.get_current_timezone()
    months = {number: name.title() for number, name in MONTHS_3.items()}
    return [
        f"{local.day} {months[local.month]} {local.year}, {local.hour:02d}:{local.minute:02d}"
        for local in (timezone.localtime(moment, zone) for moment in moments)
    ]


# Reasons the site writes itself name a battle by its id ("battle 6: report confirmed", "Award for battle 6: …",
# "Battle 6 result taken back: …") and an organiser's decision by its code ("accepted: …"): stored words, said
# to people with the battle's name and the decision in words (``reason_words``).
_BATTLE_REASON = re.compile(
    r"^(?P<head>Award for battle|Battle|battle) (?P<id>\d{1,12})(?P<back> result taken back)?: "
)
_DECISIONS = {
    "accepted": "an organiser accepted the report",
    "amended": "an organiser amended the report",
    "entered": "an organiser entered the result",
    "voided": "an organiser voided the report",
}
_DECISION_REASON = re.compile(rf"^(?P<code>{'|'.join(_DECISIONS)}): ?")


def reason_battle_ids(reasons: Iterable[str]) -> set[int]:
    """The battles that reasons written by the site name by their id."""
    return {int(found["id"]) for reason in reasons if (found := _BATTLE_REASON.match(reason or ""))}


def decision_words(reason: str) -> str:
    """``accepted: the photos show it`` as "an organiser accepted the report: the photos show it"."""
    found = _DECISION_REASON.match(reason)
    if found is None:
        return reason
    rest = reason[found.end() :]
    return f"{_DECISIONS[found['code']]}{f': {rest}' if rest else ''}"


def reason_words(reason: str, battles: Mapping[int, str]) -> str:
    """A stored reason as people read it: a battle named by ``battles`` (``battle_names``), not by its id."""
    found = _BATTLE_REASON.match(reason or "")
    if found is None:
        return decision_words(reason or "")
    label = battles.get(int(found["id"]), "a battle since deleted")
    rest = decision_words(reason[found.end() :])
    if found["head"] == "Award for battle":
        return f"Award for {label}: {rest}"
    if found["back"]:
        return f"The result of {label} taken back: {rest}"
    return f"The result of {label}: {rest}"
