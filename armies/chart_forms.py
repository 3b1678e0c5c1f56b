"""The page's forms for platoon charts: a chart in words (units by name), and a file of charts to import."""

from __future__ import annotations

from typing import Any

from django import forms

from armies import validation as v
from armies.textnames import units_named
from armies.validation import limits
from armies.validation.listformat import JsonNumberTooLongError, json_loads
from armies.validators import validate_name
from core.fields import BoundedMultipleChoiceField
from core.uploads import UploadBound

# The slots the page offers: a command slot, four combat and three support slots (a real chart has
# three or four combat and two or three support slots).
SLOT_ROWS: tuple[tuple[str, str, int], ...] = (
    ("command", "Command", 1),
    ("combat", "Combat", 4),
    ("support", "Support", 3),
)


def slot_rows() -> list[tuple[str, str, str]]:
    """(field prefix, title, role) of every slot row of the form."""
    return [
        (f"{role}_{number}", label if count == 1 else f"{label} {number}", role)
        for role, label, count in SLOT_ROWS
        for number in range(1, count + 1)
    ]


class PlatoonChartForm(forms.Form):
    name = forms.CharField(
        max_length=limits.CHART_NAME_MAX_LENGTH, label="Name of the platoon", validators=[validate_name]
    )
    bloc = forms.ChoiceField(label="Bloc")
    faction = forms.ChoiceField(label="Faction", required=False)
    advantage = forms.CharField(
        max_length=limits.CHART_ADVANTAGE_MAX_LENGTH,
        required=False,
        label="Platoon advantage",
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args: Any, catalogue: v.Catalogue, categories: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.catalogue = catalogue
        bloc_field: Any = self.fields["bloc"]
        faction_field: Any = self.fields["faction"]
        bloc_field.choices = [(bloc, bloc) for bloc in catalogue.blocs]
        faction_field.choices = [("", "None: any of the bloc")] + [
            (faction.name, f"{faction.name} ({faction.bloc})") for faction in catalogue.factions
        ]
        for prefix, title, role in slot_rows():
            self.fields[f"{prefix}_units"] = forms.CharField(
                required=False,
                label=f"{title}: units that may fill it, one name a line",
                max_length=limits.MAX_SLOT_UNITS * (limits.UNIT_NAME_MAX_LENGTH + 2),
                widget=forms.Textarea(attrs={"rows": 2}),
            )
            self.fields[f"{prefix}_categories"] = BoundedMultipleChoiceField(
                max_items=limits.MAX_SLOT_CATEGORIES,
                required=False,
                label=f"{title}: or any unit of these categories",
                choices=[(category, category) for category in categories],
                widget=forms.SelectMultiple(attrs={"size": 4}),
            )
            if role != "command":
                self.fields[f"{prefix}_required"] = forms.BooleanField(
                    required=False, label=f"{title} must be filled"
                )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.slots: list[dict[str, Any]] = []
        for prefix, title, role in slot_rows():
            lines = [line.strip() for line in str(data.get(f"{prefix}_units") or "").splitlines()]
            names = [line for line in lines if line]
            if len(names) > limits.MAX_SLOT_UNITS:
                self.add_error(f"{prefix}_units", f"A slot names at most {limits.MAX_SLOT_UNITS} units.")
                continue
            keys, problems = units_named(names, self.catalogue.units)
            for problem in problems[:5]:
                self.add_error(f"{prefix}_units", problem)
            categories = list(data.get(f"{prefix}_categories") or [])
            if not keys and not categories:
                if role == "command":
                    self.add_error(f"{prefix}_units", "Name the units that may lead the platoon.")
                continue
            slot: dict[str, Any] = {"role": role, "name": title, "required": role == "command"}
            slot["required"] = slot["required"] or bool(data.get(f"{prefix}_required"))
            if keys:
                slot["units"] = keys
            if categories:
                slot["categories"] = categories
            self.slots.append(slot)
        if not any(slot["role"] == "combat" for slot in self.slots) and not self.errors:
            self.add_error("combat_1_units", "A platoon has at least one combat slot.")
        return data

    def chart(self) -> dict[str, Any]:
        """The chart in the JSON catalogue format's shape, for ``platoon_chart_enter``."""
        data = self.cleaned_data
        chart: dict[str, Any] = {"name": data["name"], "bloc": data["bloc"], "slots": self.slots}
        if data.get("faction"):
            chart["faction"] = data["faction"]
        if data.get("advantage"):
            chart["advantage"] = data["advantage"]
        return chart

    def field_for(self, path: str) -> str | None:
        """The field a refusal's path (``slots[2].units[0]``, ``faction``) points at, if any."""
        head = path.split(".", 1)[0].split("[", 1)[0]
        if head in self.fields:
            return head
        if head == "slots" and path.startswith("slots[") and path[6:].split("]", 1)[0].isdigit():
            index = int(path[6:].split("]", 1)[0])
            if index < len(self.slots):
                prefix = next(p for p, title, _ in slot_rows() if title == self.slots[index]["name"])
                return f"{prefix}_units"
        return None


CHARTS_UPLOAD = UploadBound(limits.MAX_CHARTS_FILE_BYTES, "a file of platoon charts")


class ChartsFileForm(forms.Form):
    file = forms.FileField(label="A file of platoon charts (JSON), as exported from this page")

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > limits.MAX_CHARTS_FILE_BYTES:
            raise forms.ValidationError(f"The file is larger than {limits.MAX_CHARTS_FILE_BYTES // 1024} kB.")
        try:
            return json_loads(upload.read().decode("utf-8"))
        except JsonNumberTooLongError as exc:
            raise forms.ValidationError(
                f"This file cannot be read: {exc.sentence}. Export the charts from this page."
            ) from exc
        except (ValueError, RecursionError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            raise forms.ValidationError("This file is not JSON: export the charts from this page.") from exc
