"""The campaign settings form: every setting as a field, grouped and locked as the settings page shows them.

Split from ``campaign.forms`` (which holds the other campaign forms and the helpers this one shares).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from django import forms

from armies.validation import limits as list_limits
from campaign import limits
from campaign.forms import add_service_error, catalogue_field
from campaign.models import Campaign
from campaign.options import (
    LOCKED_WHEN_RUNNING,
    SETTING_HELP,
    SETTING_SECTIONS,
    STANDARD_RTZ,
    TIEBREAKER_HELP,
    ResourceHolder,
    Status,
    Tiebreaker,
    UnplayedPolicy,
)
from campaign.selectors.catalogues import only_catalogue
from campaign.services.campaigns import AGREEING_SETTINGS, settings_disagreements
from campaign.services.webhooks import webhook_url_check
from core.errors import DomainError
from core.http import form_refusal
from rules.engine.ruleset import SWITCHES, RuleSet

LOCKED_WHY = "Locked while the campaign runs: it decides results, so it cannot change under the players."
FINISHED_WHY = "The campaign has finished: its settings are kept as they were."


def switch_label(name: str) -> str:
    """``damage_resilient_rtz`` -> ``Damage resilient``."""
    return name.removesuffix("_rtz").replace("_", " ").capitalize()


@dataclass(frozen=True)
class SettingRow:
    """One setting on the settings page: its fields, its one-line help and why it is locked, if it is."""

    key: str
    label: str
    help: str
    fields: list[forms.BoundField]
    locked_why: str
    notes: list[tuple[str, str]]

    @property
    def errors(self) -> list[str]:
        return [str(error) for field in self.fields for error in field.errors]


_PLAIN_SETTINGS = (
    "name", "description", "is_public", "catalogue", "points_limit", "points_win", "points_draw",
    "points_loss", "resources_held_by", "strongpoint_cost", "bunker_cost", "income_base",
    "max_players_per_bloc", "unplayed_battles", "max_open_challenges", "challenge_days",
    "report_confirm_hours", "award_win", "award_draw", "hide_results_until_close", "webhook_url",
)  # fmt: skip
_ORDER = (
    "name", "description", "is_public", "catalogue", "points_limit", "points_win", "points_draw",
    "points_loss", "tiebreakers", "ruleset", "resources_held_by", "strongpoint_cost", "bunker_cost",
    "income_base", "max_players_per_bloc", "unplayed_battles", "max_open_challenges", "challenge_days",
    "report_confirm_hours", "award_win", "award_draw", "hide_results_until_close", "webhook_url",
)  # fmt: skip
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th")


def _whole(label: str, low: int, high: int, **extra: Any) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=low, max_value=high, **extra)


class CampaignSettingsForm(forms.Form):
    """Every setting of a campaign; the tiebreakers as numbered selects, the RtZ rules as checkboxes."""

    name = forms.CharField(max_length=limits.NAME_MAX_LENGTH)
    description = forms.CharField(
        max_length=limits.DESCRIPTION_MAX_LENGTH, required=False, widget=forms.Textarea(attrs={"rows": 4})
    )
    is_public = forms.BooleanField(required=False, label="Public")
    catalogue = catalogue_field()
    points_limit = _whole("Points limit (AP)", list_limits.POINTS_LIMIT_MIN, list_limits.POINTS_LIMIT_MAX)
    points_win = _whole("Points for a win", limits.SCORE_MIN, limits.SCORE_MAX)
    points_draw = _whole("Points for a draw", limits.SCORE_MIN, limits.SCORE_MAX)
    points_loss = _whole("Points for a loss", limits.SCORE_MIN, limits.SCORE_MAX)
    resources_held_by = forms.ChoiceField(choices=ResourceHolder.choices, label="Resources kept by")
    strongpoint_cost = _whole("Strongpoint cost", 0, limits.RESOURCE_COST_MAX)
    bunker_cost = _whole("Bunker cost", 0, limits.RESOURCE_COST_MAX)
    income_base = _whole("Base income per round", 0, limits.INCOME_MAX)
    max_players_per_bloc = _whole("Players per bloc at most", 1, limits.MAX_PLAYERS_PER_BLOC, required=False)
    unplayed_battles = forms.ChoiceField(choices=UnplayedPolicy.choices, label="Unplayed battles")
    max_open_challenges = _whole("Open challenges per player and round", 0, limits.MAX_OPEN_CHALLENGES)
    challenge_days = _whole("Days to answer a challenge", 1, limits.CHALLENGE_DAYS_MAX)
    report_confirm_hours = _whole("Hours to confirm a report", 1, limits.REPORT_CONFIRM_HOURS_MAX)
    award_win = _whole("Resources for a win", 0, limits.RESOURCE_COST_MAX)
    award_draw = _whole("Resources for a draw", 0, limits.RESOURCE_COST_MAX)
    hide_results_until_close = forms.BooleanField(required=False, label="Hide results until the round closes")
    webhook_url = forms.CharField(
        max_length=limits.WEBHOOK_URL_MAX_LENGTH,
        required=False,
        label="Webhook URL",
        widget=forms.URLInput(
            attrs={"placeholder": "https://discord.com/api/webhooks/…", "autocomplete": "off"}
        ),
    )
    reason = forms.CharField(
        max_length=limits.REASON_MAX_LENGTH,
        required=False,
        label="Why (optional)",
        help_text="Kept in the campaign's log beside each change.",
    )

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        tiebreaker_choices = [("", "(none)"), *Tiebreaker.choices]
        for index in range(limits.MAX_TIEBREAKERS):
            self.fields[f"tiebreaker_{index + 1}"] = forms.ChoiceField(
                choices=tiebreaker_choices, required=False, label=f"{ORDINALS[index]} tiebreaker"
            )
        for switch, description in SWITCHES.items():
            self.fields[f"rule_{switch}"] = forms.BooleanField(
                required=False, label=switch_label(switch), help_text=description
            )
        ruleset = RuleSet.from_dict(campaign.ruleset)
        self.ruleset_name = ruleset.name
        initial: dict[str, Any] = {name: getattr(campaign, name) for name in _PLAIN_SETTINGS}
        # With one catalogue on the site there is nothing to pick: it is chosen until the organiser says otherwise.
        self.chosen_for_you = (
            None if campaign.catalogue_id or campaign.status != Status.DRAFT else only_catalogue()
        )
        chosen = campaign.catalogue or self.chosen_for_you
        initial["catalogue"] = chosen.pk if chosen is not None else None
        for index, tiebreaker in enumerate(campaign.tiebreakers[: limits.MAX_TIEBREAKERS]):
            initial[f"tiebreaker_{index + 1}"] = tiebreaker
        for switch in SWITCHES:
            initial[f"rule_{switch}"] = getattr(ruleset, switch)
        self.initial = {**initial, **self.initial}
        for name in self.fields:
            if name != "reason" and self.locked_why(self._setting_of(name)):
                self.fields[name].disabled = True

    @staticmethod
    def _setting_of(field_name: str) -> str:
        if field_name.startswith("tiebreaker_"):
            return "tiebreakers"
        if field_name.startswith("rule_"):
            return "ruleset"
        return field_name

    def locked_why(self, setting: str) -> str:
        if self.campaign.status == Status.FINISHED:
            return FINISHED_WHY
        if self.campaign.status == Status.RUNNING and setting in LOCKED_WHEN_RUNNING:
            return LOCKED_WHY
        return ""

    @property
    def read_only(self) -> bool:
        return self.campaign.status == Status.FINISHED

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        # Settings that must agree, as saving would leave them (a locked one with its value), each shown
        # beside the field at fault rather than one at a time from the service, which checks them again.
        if all(name in data for name in AGREEING_SETTINGS):
            for error in settings_disagreements(data):
                add_service_error(self, error)
        seen: dict[str, str] = {}
        for index in range(limits.MAX_TIEBREAKERS):
            name = f"tiebreaker_{index + 1}"
            value = data.get(name)
            if value and value in seen:
                self.add_error(
                    name,
                    forms.ValidationError(
                        f"already chosen as the {seen[value]} tiebreaker", code="duplicate"
                    ),
                )
            elif value:
                seen[value] = ORDINALS[index]
        return data

    def clean_webhook_url(self) -> str:
        try:
            return webhook_url_check(self.cleaned_data.get("webhook_url", ""))
        except DomainError as exc:
            raise form_refusal(exc) from exc

    def changes(self) -> dict[str, Any]:
        """The settings to hand to ``campaign_update``: every one the form may change."""
        data = self.cleaned_data
        changes = {name: data[name] for name in _PLAIN_SETTINGS if not self.locked_why(name)}
        if not self.locked_why("tiebreakers"):
            changes["tiebreakers"] = [
                data[f"tiebreaker_{index + 1}"]
                for index in range(limits.MAX_TIEBREAKERS)
                if data[f"tiebreaker_{index + 1}"]
            ]
        if not self.locked_why("ruleset"):
            changes["ruleset"] = {"name": self.ruleset_name} | {
                switch: data[f"rule_{switch}"] for switch in SWITCHES
            }
        return changes

    def preset_data(self, posted: Any) -> Any:
        """What was posted with the standard Return to Zverograd values put in every field that may change."""
        data = posted.copy()
        for key, value in STANDARD_RTZ.items():
            if self.locked_why(key):
                continue
            if key == "tiebreakers":
                chosen = list(cast(list[str], value))
                for index in range(limits.MAX_TIEBREAKERS):
                    data[f"tiebreaker_{index + 1}"] = chosen[index] if index < len(chosen) else ""
            elif key == "ruleset":
                ruleset = RuleSet.from_dict(cast(dict[str, Any], value))
                for switch in SWITCHES:
                    data.pop(f"rule_{switch}", None)
                    if getattr(ruleset, switch):
                        data[f"rule_{switch}"] = "on"
            elif isinstance(value, bool):
                data.pop(key, None)
                if value:
                    data[key] = "on"
            else:
                data[key] = str(value)
        return data

    def sections(self) -> list[tuple[str, str, list[SettingRow]]]:
        """The rows under their headings (``SETTING_SECTIONS``), each a heading, its line and its rows."""
        rows = {row.key: row for row in self.rows()}
        return [(heading, intro, [rows[key] for key in keys]) for heading, intro, keys in SETTING_SECTIONS]

    def rows(self) -> list[SettingRow]:
        """The settings in page order, each with its fields, help line and lock."""
        rows = []
        for key in _ORDER:
            if key == "tiebreakers":
                names = [f"tiebreaker_{index + 1}" for index in range(limits.MAX_TIEBREAKERS)]
                notes = [(label, TIEBREAKER_HELP[value]) for value, label in Tiebreaker.choices]
                label = "Tiebreakers, in order"
            elif key == "ruleset":
                names = [f"rule_{switch}" for switch in SWITCHES]
                notes = []
                label = "Return to Zverograd rules"
            else:
                names, notes, label = (
                    [key],
                    [],
                    str(self.fields[key].label or key.replace("_", " ").capitalize()),
                )
            rows.append(
                SettingRow(
                    key=key,
                    label=label,
                    help=SETTING_HELP[key],
                    fields=[self[name] for name in names],
                    locked_why=self.locked_why(key),
                    notes=notes,
                )
            )
        return rows
