"""Forms for the campaign pages: they parse and bound input; the services decide what is allowed.

Every bound comes from campaign/limits.py (or the list limits for points), so
a form, the API and the model refuse the same input. A service's refusal is
put back on the form next to the field it names (``add_service_error``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model

from armies.blocs import BLOC_CHOICES
from armies.models import Catalogue, Faction
from campaign import limits
from campaign.engine.map import MAX_VALUE, MIN_VALUE
from campaign.models import Sector
from campaign.models.map import FORTIFICATION_CHOICES, TERRAIN_CHOICES
from campaign.options import (
    SETTING_HELP,
    STANDARD_RTZ,
    Status,
    standard_rtz_summary,
)
from campaign.selectors.catalogues import only_catalogue
from core.errors import DomainError
from core.http import form_refusal
from core.uploads import UploadBound

Choices = list[tuple[str, Any]]


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


MAP_UPLOAD = UploadBound(limits.MAX_MAP_BYTES, "a map file")


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
