"""Forms for the armies pages: they parse and check input, services do the writes.

Choices that depend on a catalogue (blocs, factions, units, charts) are passed
in by the view, so a form never decides what the rules allow: the validator does.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.http import QueryDict

from armies import validation as v
from armies.blocs import BLOC_CHOICES
from armies.list_intake import ListTextError, TextListError, list_read
from armies.models import ArmyList, Catalogue, UnitType
from armies.permissions import campaigns_for_lists
from armies.selectors import CatalogueMissingError
from armies.services.catalogue_import import MAX_UPLOAD_BYTES, MAX_UPLOAD_FILES
from armies.validation import limits
from armies.validators import validate_name
from core.fields import check_form_list
from core.uploads import UploadBound

Choices = list[tuple[str, Any]]

ROLE_CHOICES: Choices = [("", "Not set"), *ArmyList.Role.choices]


def faction_choices(catalogue: v.Catalogue, *, bloc: str | None = None) -> Choices:
    """No faction, then the catalogue's factions grouped by bloc (only ``bloc``'s when given)."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for faction in catalogue.factions:
        if bloc is None or faction.bloc == bloc:
            groups.setdefault(faction.bloc, []).append((faction.key, faction.name))
    return [("", "No faction (bloc force)"), *((name, options) for name, options in groups.items())]


def field_for_path(form: forms.BaseForm, path: str) -> str | None:
    """The form field a service error points at (``$.name`` or ``name``), if the form has it."""
    name = path.removeprefix("$.").split(".", 1)[0].split("[", 1)[0]
    return name if name in form.fields else None


class ArmyListCreateForm(forms.Form):
    catalogue = forms.ModelChoiceField(queryset=Catalogue.objects.all(), widget=forms.HiddenInput)
    name = forms.CharField(max_length=limits.NAME_MAX_LENGTH, validators=[validate_name])
    bloc = forms.ChoiceField()
    faction = forms.ChoiceField(required=False, help_text="Claim a faction force to earn the faction bonus.")
    points_limit = forms.IntegerField(
        label="Points limit (AP)",
        min_value=limits.POINTS_LIMIT_MIN,
        max_value=limits.POINTS_LIMIT_MAX,
        initial=150,
    )
    role = forms.ChoiceField(choices=ROLE_CHOICES, required=False)

    def __init__(self, *args: Any, catalogue: Catalogue, plain: v.Catalogue, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["catalogue"].initial = catalogue.pk
        self.fields["bloc"].choices = [(bloc, bloc) for bloc in catalogue.blocs]  # type: ignore[attr-defined]
        self.fields["faction"].choices = faction_choices(plain)  # type: ignore[attr-defined]


class ArmyListSettingsForm(forms.Form):
    name = forms.CharField(max_length=limits.NAME_MAX_LENGTH, validators=[validate_name])
    points_limit = forms.IntegerField(
        label="Points limit (AP)", min_value=limits.POINTS_LIMIT_MIN, max_value=limits.POINTS_LIMIT_MAX
    )
    faction = forms.ChoiceField(required=False)
    role = forms.ChoiceField(choices=ROLE_CHOICES, required=False)

    def __init__(self, *args: Any, army_list: ArmyList, plain: v.Catalogue, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "settings-%s")
        super().__init__(*args, **kwargs)
        choices = faction_choices(plain, bloc=army_list.bloc)
        known = {key for _group, options in choices[1:] for key, _name in options}
        if army_list.faction and army_list.faction not in known:
            # Keep a faction the catalogue or bloc no longer offers, so saving does not drop it silently.
            choices.append((army_list.faction, army_list.faction))
        self.fields["faction"].choices = choices  # type: ignore[attr-defined]
        if not self.is_bound:
            self.initial = {
                "name": army_list.name,
                "points_limit": army_list.points_limit,
                "faction": army_list.faction,
                "role": army_list.role,
            }


class AddUnitForm(forms.Form):
    """The picker's buttons: ``unit`` adds a unit, ``captured_unit`` adds one as the captured vehicle."""

    unit = forms.CharField(max_length=limits.KEY_MAX_LENGTH, required=False)
    captured_unit = forms.CharField(max_length=limits.KEY_MAX_LENGTH, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if bool(data.get("unit")) == bool(data.get("captured_unit")):
            raise forms.ValidationError("choose one unit to add", code="required")
        return data

    def unit_and_captured(self) -> tuple[str, bool]:
        captured = self.cleaned_data["captured_unit"]
        return (captured, True) if captured else (self.cleaned_data["unit"], False)


class EntryForm(forms.Form):
    """One entry's settings; the builder posts every field, so a missing checkbox means off."""

    joined_to = forms.CharField(required=False, max_length=limits.ID_MAX_LENGTH)
    pilot_of = forms.CharField(required=False, max_length=limits.ID_MAX_LENGTH)
    captured = forms.BooleanField(required=False)
    reserve = forms.BooleanField(required=False)
    # "<platoon id>:<slot name>", "<platoon id>:" or "" (ids never hold a colon).
    placement = forms.CharField(required=False, max_length=limits.ID_MAX_LENGTH + 1 + limits.KEY_MAX_LENGTH)

    def changes(self) -> dict[str, Any]:
        data = self.cleaned_data
        platoon, _sep, slot = data["placement"].partition(":")
        return {
            "joined_to": data["joined_to"] or None,
            "pilot_of": data["pilot_of"] or None,
            "captured": data["captured"],
            "reserve": data["reserve"],
            "platoon": platoon or None,
            "slot": slot or None,
        }


class AddPlatoonForm(forms.Form):
    chart = forms.CharField(max_length=limits.KEY_MAX_LENGTH)


class AddFortificationForm(forms.Form):
    # "strongpoint", "bunker", or "upgrade:<entry id>" for a strongpoint unit's bunker upgrade.
    fortification = forms.CharField(max_length=len("upgrade:") + limits.ID_MAX_LENGTH)

    def kind_and_unit(self) -> tuple[str, str | None]:
        choice = self.cleaned_data["fortification"]
        if choice.startswith("upgrade:"):
            return "bunker", choice.removeprefix("upgrade:")
        return choice, None

    def clean_fortification(self) -> str:
        choice = str(self.cleaned_data["fortification"])
        if choice not in ("strongpoint", "bunker") and not choice.startswith("upgrade:"):
            raise forms.ValidationError("choose a strongpoint, a bunker or a bunker upgrade")
        return choice


GRANT_CHOICES: Choices = [
    ("", "None"),
    ("strongpoint", "A strongpoint"),
    ("bunker", "A bunker"),
    ("strongpoint,bunker", "A strongpoint and a bunker"),
    ("strongpoint,strongpoint", "Two strongpoints"),
    ("bunker,bunker", "Two bunkers"),
]
PURCHASE_CHOICES: Choices = [
    ("", "Any kind, as the role allows"),
    ("none", "None"),
    ("strongpoint", "Strongpoints only"),
    ("bunker", "Bunkers only"),
    ("strongpoint,bunker", "Strongpoints and bunkers"),
]
# Where each term of ``armies.validation.terms`` is entered on the page.
TERMS_FIELDS = {
    "points_limit": "points_limit",
    "role": "role",
    "granted_fortifications": "granted_fortifications",
    "fortification_purchases": "fortification_purchases",
    "rtz": "no_rtz",
    "reserve_limit": "reserve_limit",
    "catalogue_version": "catalogue_version",
}


def _kinds(value: str) -> list[str] | None:
    if not value:
        return None
    return [] if value == "none" else value.split(",")


# What the list pages take: a list or roster file, and a pasted list of at most MAX_DOCUMENT_BYTES characters
# (four bytes each at most in UTF-8) beside it.
LIST_UPLOAD = UploadBound(
    limits.MAX_ROSTER_BYTES, "a list or roster", extra_bytes=4 * limits.MAX_DOCUMENT_BYTES
)


class ListDocumentForm(forms.Form):
    """A list in the JSON list format or a roster, pasted or uploaded (``armies.list_intake`` reads
    both); ``clean`` leaves ``document``, ``plain``, the import's ``warnings`` and, for a roster,
    the ``catalogue`` it was matched against.

    Every format error is kept (``format_errors``: JSON path, reason) so the page can list them all.
    The optional campaign terms become ``terms`` (None when none is set), read by the same
    ``terms_from_mapping`` as the API and the command, so bounds and messages are the same.
    """

    text = forms.CharField(
        label="List (JSON)",
        required=False,
        strip=False,  # error positions must match what was pasted
        max_length=limits.MAX_DOCUMENT_BYTES,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "class": "code-input"}),
        help_text="Paste an exported list or a BattleScribe or New Recruit roster, or choose a file below.",
    )
    file = forms.FileField(
        label="…or upload a file",
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ".json,.ros,.rosz"}),
        help_text="A list exported from this site (.json), a BattleScribe roster (.ros or .rosz) "
        "or a New Recruit export (.json).",
    )
    bloc = forms.ChoiceField(
        label="Bloc of a roster of mercenaries alone",
        required=False,
        choices=[("", "As the roster says"), *BLOC_CHOICES],
        help_text="A roster of mercenaries alone does not say which bloc they fight for.",
    )
    catalogue = forms.ModelChoiceField(
        queryset=Catalogue.objects.order_by("name", "-updated_at"),
        required=False,
        empty_label="The catalogue the list names (else the newest)",
    )
    # Campaign terms: bounds are the parser's (limits.py); the widgets only tell the browser.
    points_limit = forms.IntegerField(
        label="Points limit",
        required=False,
        widget=forms.NumberInput(attrs={"min": limits.POINTS_LIMIT_MIN, "max": limits.POINTS_LIMIT_MAX}),
        help_text="Check the list at this limit instead of its own.",
    )
    role = forms.ChoiceField(
        label="Role", required=False, choices=[("", "The list's own"), *ArmyList.Role.choices]
    )
    granted_fortifications = forms.ChoiceField(
        label="Fortifications granted for free",
        required=False,
        choices=GRANT_CHOICES,
        help_text="A defender in a fortified sector fields its fortification for 0 AP.",
    )
    fortification_purchases = forms.ChoiceField(
        label="Fortifications the mission lets this side buy", required=False, choices=PURCHASE_CHOICES
    )
    no_rtz = forms.BooleanField(label="Turn the RtZ special rules off (the rulebook alone)", required=False)
    reserve_limit = forms.IntegerField(
        label="Reserve placements the mission allows",
        required=False,
        widget=forms.NumberInput(attrs={"min": 0, "max": limits.RESERVE_LIMIT_MAX}),
    )
    catalogue_version = forms.CharField(
        label="Catalogue version the campaign plays",
        required=False,
        widget=forms.TextInput(attrs={"maxlength": limits.CATALOGUE_VERSION_MAX_LENGTH}),
    )

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.format_errors: list[tuple[str, str]] = []
        # The campaigns the importer takes part in (the import page passes ``user``): a list read for one
        # sees that campaign's own platoon charts too. Offered only to someone in a campaign.
        self.campaigns = campaigns_for_lists(user) if user is not None else {}
        if self.campaigns:
            field = forms.ChoiceField(
                label="For a campaign",
                required=False,
                choices=[
                    ("", "No campaign"),
                    *((str(pk), name) for pk, (name, _) in self.campaigns.items()),
                ],
                help_text="A campaign you take part in: its own platoon charts are read too, and the list "
                "is matched against its catalogue.",
            )
            fields = list(self.fields.items())
            at = [name for name, _ in fields].index("catalogue") + 1
            self.fields = dict([*fields[:at], ("campaign", field), *fields[at:]])  # type: ignore[assignment]

    def _campaign_ids(self, cleaned: dict[str, Any]) -> tuple[int, ...]:
        """The campaign chosen (its id alone), its catalogue taken when none was chosen."""
        chosen = cleaned.get("campaign")
        if not chosen:
            return ()
        name, catalogue_id = self.campaigns[int(chosen)]
        catalogue = cleaned.get("catalogue")
        if catalogue is None:
            cleaned["catalogue"] = Catalogue.objects.filter(pk=catalogue_id).first()
        elif catalogue.pk != catalogue_id:
            self.add_error(
                "campaign",
                forms.ValidationError(
                    f"{name} is played with another catalogue: choose that one, or leave the catalogue "
                    "for the campaign to choose.",
                    code="campaign-catalogue",
                ),
            )
            return ()
        return (int(chosen),)

    @property
    def document_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("text", "file", "catalogue", "bloc")]

    @property
    def terms_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in TERMS_FIELDS.values()]

    @property
    def terms_open(self) -> bool:
        """Show the terms section open when one is set or wrong."""
        return any(self.data.get(name) for name in TERMS_FIELDS.values()) or any(
            self.errors.get(name) for name in TERMS_FIELDS.values()
        )

    def _clean_terms(self, cleaned: dict[str, Any]) -> None:
        raw = {
            "points_limit": cleaned.get("points_limit"),
            "role": cleaned.get("role") or None,
            "granted_fortifications": _kinds(cleaned.get("granted_fortifications", "")),
            "fortification_purchases": _kinds(cleaned.get("fortification_purchases", "")),
            "rtz": False if cleaned.get("no_rtz") else None,
            "reserve_limit": cleaned.get("reserve_limit"),
            "catalogue_version": cleaned.get("catalogue_version") or None,
        }
        if all(value is None for value in raw.values()):
            cleaned["terms"] = None
            return
        try:
            cleaned["terms"] = v.terms_from_mapping(raw)
        except v.TermsError as exc:
            for problem in exc.problems:
                name = TERMS_FIELDS.get(problem.field.split("[", 1)[0])
                self.add_error(
                    name,
                    forms.ValidationError(
                        f"{problem.message[:1].upper()}{problem.message[1:]}", code=problem.code
                    ),
                )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        self._clean_terms(cleaned)
        upload: UploadedFile[Any] | None = cleaned.get("file")
        data: bytes | str = cleaned.get("text", "")
        if upload is not None:
            raw = self._read(upload)
            if raw is None:
                return cleaned
            data = raw
            self._show_text(raw)
        if isinstance(data, str) and not data.strip():
            raise forms.ValidationError("Paste a list or choose a file.", code="list-missing")
        self._read_list(cleaned, data, self._campaign_ids(cleaned))
        return cleaned

    def _show_text(self, raw: bytes) -> None:
        """Show an uploaded text file in the box, so the player can fix it there (a .rosz is no text)."""
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            return
        data = self.data.copy() if isinstance(self.data, QueryDict) else QueryDict(mutable=True)
        data["text"] = text
        self.data = data

    def _read_list(self, cleaned: dict[str, Any], data: bytes | str, campaign_ids: tuple[int, ...]) -> None:
        try:
            intake = list_read(
                data=data,
                catalogue=cleaned.get("catalogue"),
                bloc=cleaned.get("bloc") or None,
                campaign_ids=campaign_ids,
            )
        except CatalogueMissingError as exc:
            raise forms.ValidationError("No catalogue has been imported yet", code=exc.code) from exc
        except v.ListFormatError as exc:
            self.format_errors = list(exc.errors) if exc.code == "list-format" else []
            if exc.code == "roster-unit-unknown" and len(exc.errors) > 1:  # each unit the catalogue lacks
                self.format_errors = list(exc.errors)
            if exc.code == "roster-bloc-missing":
                self.add_error("bloc", forms.ValidationError(exc.message, code=exc.code))
                return
            if isinstance(exc, TextListError):
                self.format_errors = list(exc.errors)
                raise forms.ValidationError("The text could not be read as a list.", code=exc.code) from exc
            if exc.code != "list-format":
                raise forms.ValidationError(exc.message, code=exc.code) from exc
            if isinstance(exc, ListTextError):
                raise forms.ValidationError("The list is not valid JSON.", code="list-format") from exc
            raise forms.ValidationError(
                "The list does not follow the army-list format.", code="list-format"
            ) from exc
        cleaned["plain"] = intake.plain
        cleaned["document"] = intake.document
        cleaned["warnings"] = intake.warnings
        cleaned["source"] = intake.source
        if intake.catalogue is not None:
            cleaned["catalogue"] = intake.catalogue

    def _read(self, upload: UploadedFile[Any]) -> bytes | None:
        if (upload.size or 0) > limits.MAX_ROSTER_BYTES:
            kilobytes = limits.MAX_ROSTER_BYTES // 1024
            self.add_error(
                "file", f"The file is larger than {kilobytes:,} kB; a list or roster is much smaller."
            )
            return None
        return bytes(upload.read(limits.MAX_ROSTER_BYTES + 1))


class UnitFilterForm(forms.Form):
    """The catalogue browser's filters; every field is optional and bad values are ignored."""

    search = forms.CharField(
        required=False, max_length=80, widget=forms.TextInput(attrs={"type": "search", "class": "input"})
    )
    bloc = forms.ChoiceField(required=False, widget=forms.Select(attrs={"class": "input"}))
    type = forms.ChoiceField(
        required=False,
        choices=[("", "Any type"), *UnitType.choices],
        widget=forms.Select(attrs={"class": "input"}),
    )
    faction = forms.ChoiceField(required=False, widget=forms.Select(attrs={"class": "input"}))

    def __init__(self, *args: Any, catalogue: Catalogue, plain: v.Catalogue, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "filter-%s")
        super().__init__(*args, **kwargs)
        blocs = sorted({*plain.blocs, *(unit.bloc for unit in plain.units)})
        self.fields["bloc"].choices = [("", "Any bloc"), *((b, b) for b in blocs)]  # type: ignore[attr-defined]
        factions = [("", "Any faction"), *((f.key, f"{f.name} ({f.bloc})") for f in plain.factions)]
        self.fields["faction"].choices = factions  # type: ignore[attr-defined]

    def filters(self) -> dict[str, str]:
        data = self.cleaned_data if self.is_valid() else {}
        return {
            "search": data.get("search", "").strip(),
            "bloc": data.get("bloc", ""),
            "unit_type": data.get("type", ""),
            "faction": data.get("faction", ""),
        }


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files from one input (Django's documented recipe)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".gst,.cat,.gstz,.catz,.json"}))
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        if isinstance(data, list | tuple):
            check_form_list(data, MAX_UPLOAD_FILES)
            return [super(MultipleFileField, self).clean(item, initial) for item in data]
        return [] if not data else [super().clean(data, initial)]


CATALOGUE_UPLOAD = UploadBound(MAX_UPLOAD_BYTES, "a catalogue file", files=MAX_UPLOAD_FILES)


class CatalogueImportForm(forms.Form):
    # Not required: the service says what is missing, with its error code.
    uploads = MultipleFileField(
        label="Catalogue files",
        required=False,
        help_text="A BattleScribe game system with its catalogues (.gst, .cat, .gstz, .catz) "
        "and Zverograd JSON catalogues or supplements (.json), read together as one catalogue.",
    )
