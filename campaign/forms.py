"""Forms for the campaign pages: they parse and bound input; the services decide what is allowed.

Every bound comes from campaign/limits.py (or the list limits for points), so
a form, the API and the model refuse the same input. A service's refusal is
put back on the form next to the field it names (``add_service_error``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model

from armies.blocs import BLOC_CHOICES
from armies.models import Catalogue, Faction
from armies.validation import limits as list_limits
from campaign import limits
from campaign.engine.map import MAX_VALUE, MIN_VALUE
from campaign.models import Campaign, Sector
from campaign.models.map import FORTIFICATION_CHOICES, TERRAIN_CHOICES
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
    standard_rtz_summary,
)
from campaign.selectors.catalogues import only_catalogue
from campaign.services.campaigns import AGREEING_SETTINGS, settings_disagreements
from campaign.services.webhooks import webhook_url_check
from core.errors import DomainError
from core.http import form_refusal
from rules.engine.ruleset import SWITCHES, RuleSet

Choices = list[tuple[str, Any]]

LOCKED_WHY = "Locked while the campaign runs: it decides results, so it cannot change under the players."
FINISHED_WHY = "The campaign has finished: its settings are kept as they were."


def switch_label(name: str) -> str:
    """``damage_resilient_rtz`` -> ``Damage resilient``."""
    return name.removesuffix("_rtz").replace("_", " ").capitalize()


def field_for_error(form: forms.BaseForm, path: str) -> str | None:
    """The form field a service's error path points at, or None (a refusal of the whole form).

    ``tiebreakers[2]`` is the third numbered select; ``ruleset.scout_rtz`` its checkbox.
    """
    path = path.removeprefix("$").removeprefix(".")
    head = path.split(".", 1)[0].split("[", 1)[0]
    if head == "tiebreakers":
        index = path[len("tiebreakers[") : path.find("]")] if path.startswith("tiebreakers[") else "0"
        name = f"tiebreaker_{int(index) + 1 if index.isdigit() else 1}"
        return name if name in form.fields else "tiebreaker_1" if "tiebreaker_1" in form.fields else None
    if head == "ruleset":
        name = f"rule_{path.partition('.')[2]}"
        return name if name in form.fields else None
    return head if head in form.fields else None


def add_service_error(form: forms.BaseForm, exc: DomainError) -> None:
    """Show a service's refusal next to the field it names; what was typed stays in the bound form."""
    form.add_error(field_for_error(form, exc.field), form_refusal(exc))


def faction_choices(factions: Iterable[Faction], *, bloc: str = "") -> Choices:
    """No faction, then the catalogue's factions grouped by bloc (only ``bloc``'s when given)."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for faction in factions:
        if not bloc or faction.bloc == bloc:
            groups.setdefault(faction.bloc, []).append((faction.key, faction.name))
    return [("", "No faction (a bloc force)"), *groups.items()]


# --------------------------------------------------------------------------- listing and creating


class StatusFilterForm(forms.Form):
    status = forms.ChoiceField(choices=[("", "Any status"), *Status.choices], required=False)


def catalogue_field() -> forms.ModelChoiceField[Catalogue]:
    return forms.ModelChoiceField(
        queryset=Catalogue.objects.order_by("name", "-updated_at"),
        required=False,
        empty_label="Not chosen yet",
    )


class CampaignCreateForm(forms.Form):
    name = forms.CharField(max_length=limits.NAME_MAX_LENGTH, help_text=SETTING_HELP["name"])
    is_public = forms.BooleanField(required=False, label="Public", help_text=SETTING_HELP["is_public"])
    catalogue = catalogue_field()
    standard = forms.BooleanField(
        required=False,
        initial=True,
        label="Start from the standard Return to Zverograd settings",
        help_text=f"{standard_rtz_summary()} Each can still change on the settings page.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["catalogue"].help_text = SETTING_HELP["catalogue"]
        self.only_catalogue = only_catalogue()
        if self.only_catalogue is not None:
            self.fields["catalogue"].initial = self.only_catalogue.pk
            self.fields[
                "catalogue"
            ].help_text = f"{self.only_catalogue} is the site's only catalogue: chosen for you."

    def settings(self) -> dict[str, Any]:
        """What ``campaign_create`` is given besides the name: the choices made, the preset's values."""
        data = self.cleaned_data
        chosen = {"is_public": data["is_public"], "catalogue": data["catalogue"]}
        return {**(STANDARD_RTZ if data["standard"] else {}), **chosen}


# --------------------------------------------------------------------------- settings


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


# --------------------------------------------------------------------------- players


class _PlaceForm(forms.Form):
    """Bloc, faction and mercenary: what a place in a campaign fights as."""

    bloc = forms.ChoiceField(choices=BLOC_CHOICES)
    faction = forms.ChoiceField(
        required=False, help_text="From the campaign's catalogue, of the bloc chosen."
    )
    mercenary = forms.BooleanField(
        required=False,
        label="Mercenary force",
        help_text="A mercenary player fields a mercenary force and fights for the bloc chosen (no faction).",
    )

    def __init__(self, *args: Any, factions: Iterable[Faction], bloc: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        factions = list(factions)
        chosen = bloc or (self.data.get(self.add_prefix("bloc"), "") if self.is_bound else "")
        faction = self.fields["faction"]
        # Any faction of the catalogue is a valid answer (the service says if it is of another bloc);
        # the select offers those of the bloc chosen.
        faction.choices = faction_choices(factions)  # type: ignore[attr-defined]
        faction.widget.choices = faction_choices(factions, bloc=str(chosen))
        if bloc and not self.is_bound:
            self.initial.setdefault("bloc", bloc)


class JoinForm(_PlaceForm):
    message = forms.CharField(
        max_length=limits.MESSAGE_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="A message to the organisers (optional)",
    )


class PlaceholderForm(_PlaceForm):
    name = forms.CharField(
        max_length=limits.PLACEHOLDER_NAME_MAX_LENGTH,
        label="Name",
        help_text="A club member without an account; you register lists and enter results for them.",
    )
    field_order = ["name", "bloc", "faction", "mercenary"]


class ReasonForm(forms.Form):
    """Why: a refusal needs one; leaving may give one."""

    reason = forms.CharField(max_length=limits.REASON_MAX_LENGTH, label="Reason")

    def __init__(self, *args: Any, required: bool = True, label: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"].required = required
        if label:
            self.fields["reason"].label = label


class CoOrganiserForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username")

    def clean_username(self) -> str:
        username = str(self.cleaned_data["username"]).strip()
        user = get_user_model().objects.filter(username__iexact=username).first()
        if user is None:
            raise forms.ValidationError("No one on the site has that username", code="unknown-user")
        self.cleaned_data["user"] = user
        return username


# --------------------------------------------------------------------------- the map


class RoundForm(forms.Form):
    """Which round's map to show: the end of round 0 (the start) up to the current round."""

    def __init__(self, *args: Any, current_round: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["round"] = forms.IntegerField(min_value=0, max_value=current_round, required=False)
        self.current_round = current_round

    def chosen(self) -> int | None:
        """The round asked for, or None for the map as it is now (also when the query is bad)."""
        if not self.is_bound or not self.is_valid():
            return None
        value = self.cleaned_data["round"]
        return None if value is None or value == self.current_round else int(value)


class MapUploadForm(forms.Form):
    document = forms.FileField(
        label="Map file (JSON)",
        help_text=f"The Zverograd map format (docs/map-format.md), at most {limits.MAX_MAP_BYTES // 1024} kB.",
    )

    def clean_document(self) -> bytes:
        upload = self.cleaned_data["document"]
        if upload.size is not None and upload.size > limits.MAX_MAP_BYTES:
            raise forms.ValidationError(
                f"A map file is at most {limits.MAX_MAP_BYTES // 1024} kB (this one is "
                f"{upload.size // 1024:,} kB)",
                code="too-large",
            )
        return bytes(upload.read(limits.MAX_MAP_BYTES + 1))


class SectorForm(forms.Form):
    owner = forms.ChoiceField(choices=[("", "Neutral"), *BLOC_CHOICES], required=False, label="Held by")
    fortification = forms.ChoiceField(choices=FORTIFICATION_CHOICES)
    value = forms.IntegerField(min_value=MIN_VALUE, max_value=MAX_VALUE, help_text="Its income each round.")
    terrain = forms.ChoiceField(choices=TERRAIN_CHOICES)
    reason = forms.CharField(
        max_length=limits.REASON_MAX_LENGTH,
        label="Why",
        help_text="Shown to everyone in the sector's history.",
    )

    def __init__(self, *args: Any, sector: Sector, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "sector-%s")
        super().__init__(*args, **kwargs)
        self.initial = {
            "owner": sector.owner,
            "fortification": sector.fortification,
            "value": sector.value,
            "terrain": sector.terrain,
            **self.initial,
        }
        if sector.headquarters_of:  # never attacked: what it started with may only be removed
            field = cast(forms.ChoiceField, self.fields["fortification"])
            field.choices = [c for c in FORTIFICATION_CHOICES if c[0] in ("none", sector.fortification)]
            field.help_text = "A headquarters is never attacked: no fortification is built there."

    def changes(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "owner": data["owner"] or None,
            "fortification": data["fortification"],
            "value": data["value"],
            "terrain": data["terrain"],
        }


# --------------------------------------------------------------------------- registering lists


class RegisterListForm(forms.Form):
    """Register one of your lists for a place: your own, or (organisers) a placeholder's.

    The choices are passed in by the view; the service checks everything again.
    """

    enrolment = forms.TypedChoiceField(label="For", coerce=int)
    army_list = forms.TypedChoiceField(label="List", coerce=int)

    def __init__(
        self, *args: Any, places: list[tuple[int, str]], lists: list[tuple[int, str]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["enrolment"].choices = places  # type: ignore[attr-defined]
        self.fields["army_list"].choices = lists  # type: ignore[attr-defined]
        if len(places) == 1:
            self.fields["enrolment"].initial = places[0][0]
