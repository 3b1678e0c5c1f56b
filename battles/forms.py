"""Forms for the report pages: the report itself, a reason to dispute or resolve, the battles page's filters.

They parse and bound input (the bounds are the judge's own constants); the
services decide what adds up. The report form is built for one battle: each
side's registered lists to choose from, the fortifications the mission allows,
and, for the list chosen on each side, a count of losses and of reserve
placements per entry of its snapshot (an entry lost twice came back from
reserve in between). A refusal of the services lands next to the input it
names (``add_report_error``), whatever was entered stays in the bound form.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from battles.judging import MAX_LOSSES, MAX_SCENARIO_VP, MAX_TURNS, Entry
from battles.models import REASON_MAX_LENGTH, BattleReport, Ending
from battles.services import SIDES, ReportInput, SideInput, report_entries
from campaign.engine.map import Fortification
from campaign.engine.missions import Mission
from campaign.models import BattleStatus, Registration
from core.errors import DomainError, FieldProblem

Choices = list[tuple[Any, Any]]
ROUND_NUMBER_MAX = 32_767  # Round.number is a PositiveSmallIntegerField
SUBMIT, ENTER = "submit", "enter"
_FORTIFICATION_LABELS = {
    Fortification.NONE: "None",
    Fortification.STRONGPOINT: "A strongpoint",
    Fortification.BUNKER: "A bunker",
}


class CountInput(forms.NumberInput):
    """A count left empty counts as none, and says so."""

    def format_value(self, value: Any) -> str | None:
        return "0" if value in (None, "") else super().format_value(value)


def _count_field(label: str, most: int) -> forms.IntegerField:
    field = forms.IntegerField(
        label=label, min_value=0, max_value=MAX_LOSSES, required=False, initial=0,
        widget=CountInput(attrs={"inputmode": "numeric", "class": "count"}),
    )  # fmt: skip
    # The stepper stops where the mission does (the field itself takes up to the judge's bound, so a
    # count beyond the mission reaches the service and is refused in its words).
    field.widget.attrs["max"] = most
    return field


@dataclass(frozen=True)
class EntryRow:
    """One entry of a side's snapshot in the form: its count fields (no reserve field for who never goes)."""

    entry: Entry
    lost: forms.BoundField
    reserves: forms.BoundField | None

    @property
    def no_reserve_reason(self) -> str:
        if self.entry.hero:
            return "a hero: heroes never go to reserve"
        if self.entry.strongpoint_unit:
            return "a strongpoint unit: it never goes to reserve"
        return ""


@dataclass(frozen=True)
class SidePart:
    """What the form shows for one side: its place, its list choice, its entries and its other fields."""

    side: str
    name: str
    registration: forms.BoundField
    chosen: Registration | None
    rows: list[EntryRow]
    objective: forms.BoundField
    scenario_vp: forms.BoundField
    reserve_limit: int
    errors: list[str]  # problems of the side's losses or reserves as a whole


class ReportForm(forms.Form):
    """A battle's report: which lists fought, how it went and ended, what each side lost and scored."""

    mode = forms.ChoiceField(label="How", widget=forms.RadioSelect)
    attacker_registration = forms.TypedChoiceField(coerce=int, label="The attacker's list")
    defender_registration = forms.TypedChoiceField(coerce=int, label="The defender's list")
    fortification = forms.ChoiceField(label="Fortification the defender fielded")
    turns = forms.IntegerField(label="Turns played", min_value=1, max_value=MAX_TURNS)
    ending = forms.ChoiceField(label="How it ended", choices=Ending.choices)
    conceded_by = forms.ChoiceField(
        label="Who conceded",
        required=False,
        choices=[("", "Nobody"), ("attacker", "The attacker"), ("defender", "The defender")],
        help_text="Only with a concession.",
    )
    reason = forms.CharField(
        label="Why", required=False, max_length=REASON_MAX_LENGTH, widget=forms.Textarea(attrs={"rows": 2})
    )
    # An amendment: the report's status as the organiser saw it when the form was drawn.
    seen = forms.CharField(required=False, max_length=12, widget=forms.HiddenInput)

    def __init__(
        self,
        data: Any = None,
        *,
        mission: Mission,
        places: Mapping[str, str],
        registrations: Mapping[str, Sequence[Registration]],
        modes: Choices,
        reason_required: bool = False,
        initial: dict[str, Any] | None = None,
        preview_url: str = "",
    ) -> None:
        super().__init__(data, initial=initial)
        self.mission = mission
        self.places = places
        self.reason_required = reason_required
        self.side_errors: dict[str, list[str]] = {side: [] for side in SIDES}
        self.fields["mode"].choices = modes  # type: ignore[attr-defined]
        self.fields["mode"].initial = modes[0][0] if modes else ""
        if len(modes) < 2:
            self.fields["mode"].widget = forms.HiddenInput()
        self.fields["reason"].required = reason_required
        self.fields["reason"].help_text = (
            "Required: the campaign's timeline shows it." if reason_required else "Needed to enter a result."
        )
        allowed = [kind for kind in Fortification if mission.allows(kind)]
        # Every fortification is accepted so a forged one reaches the service and is refused with its code.
        fortification = self.fields["fortification"]
        assert isinstance(fortification, forms.ChoiceField)
        fortification.choices = [(kind.value, _FORTIFICATION_LABELS[kind]) for kind in Fortification]
        fortification.widget.choices = [(kind.value, _FORTIFICATION_LABELS[kind]) for kind in allowed]  # type: ignore[attr-defined]
        fortification.initial = Fortification.NONE.value
        self.fields["turns"].initial = mission.turn_limit
        self.fields["turns"].widget.attrs.update(
            min=1, max=min(mission.turn_limit, MAX_TURNS), inputmode="numeric"
        )
        self.fields[
            "turns"
        ].help_text = f"The {mission.name} mission lasts at most {mission.turn_limit} turns."
        self.fields["ending"].initial = Ending.TURN_LIMIT
        self.registrations = {side: list(registrations.get(side, ())) for side in SIDES}
        self.chosen: dict[str, Registration | None] = {}
        self.entries: dict[str, list[Entry]] = {}
        for side in SIDES:
            self._side_fields(side)
            if preview_url:
                # Choosing another list swaps that side's units in; the rest of the form previews on change.
                self.fields[f"{side}_registration"].widget.attrs.update({
                    "hx-post": preview_url, "hx-trigger": "change consume", "hx-target": "#report-preview",
                    "hx-swap": "outerHTML",
                })  # fmt: skip

    def _side_fields(self, side: str) -> None:
        own = self.registrations[side]
        field = self.fields[f"{side}_registration"]
        field.choices = [(r.pk, _list_label(r)) for r in own]  # type: ignore[attr-defined]
        default = next((r for r in own if r.is_current), own[0] if own else None)
        field.initial = default.pk if default else None
        chosen = self._chosen(side, own) or default
        self.chosen[side] = chosen
        entries = report_entries(chosen) if chosen is not None else []
        self.entries[side] = entries
        limit = self.reserve_limit(side)
        for entry in entries:
            self.fields[f"{side}_lost_{entry.id}"] = _count_field(f"{entry.name}: times lost", limit + 1)
            if not (entry.hero or entry.strongpoint_unit):
                self.fields[f"{side}_reserves_{entry.id}"] = _count_field(
                    f"{entry.name}: times placed in reserve", limit
                )
        self.fields[f"{side}_objective"] = forms.BooleanField(
            label="Completed the mission's objective", required=False
        )
        self.fields[f"{side}_scenario_vp"] = forms.IntegerField(
            label="Scenario victory points", min_value=0, max_value=MAX_SCENARIO_VP, initial=0,
            widget=forms.NumberInput(attrs={"min": 0, "max": MAX_SCENARIO_VP, "inputmode": "numeric"}),
        )  # fmt: skip

    def _chosen(self, side: str, own: Sequence[Registration]) -> Registration | None:
        raw = (self.data or {}).get(f"{side}_registration") or (self.initial or {}).get(
            f"{side}_registration"
        )
        try:
            wanted = int(str(raw)[:20]) if raw not in (None, "") else None
        except ValueError:
            return None
        return next((r for r in own if r.pk == wanted), None)

    def reserve_limit(self, side: str) -> int:
        return self.mission.attacker_reserves if side == "attacker" else self.mission.defender_reserves

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for side in SIDES:
            for kind in ("lost", "reserves"):
                total = sum(self._counts(side, kind).values())
                if total > MAX_LOSSES:
                    self.side_errors[side].append(f"at most {MAX_LOSSES} {kind} a side, not {total}")
        if any(self.side_errors.values()):
            raise ValidationError("Some counts are out of bounds.", code="out-of-range")
        if cleaned.get("mode") == ENTER and not cleaned.get("reason"):
            self.add_error("reason", ValidationError("say why you enter the result", code="reason-required"))
        return cleaned

    def _value(self, name: str) -> Any:
        """A field's value: as cleaned once bound (None where it failed), else where the form starts."""
        if self.is_bound:
            return getattr(self, "cleaned_data", {}).get(name)
        field = self.fields.get(name)
        return self.initial.get(name, field.initial if field is not None else None)

    def _counts(self, side: str, kind: str) -> dict[str, int]:
        return {entry.id: int(self._value(f"{side}_{kind}_{entry.id}") or 0) for entry in self.entries[side]}

    def report_input(self) -> ReportInput:
        """The report as the services take it (after ``is_valid``)."""
        data = self.cleaned_data
        lists = {side: self.chosen[side] for side in SIDES}
        if lists["attacker"] is None or lists["defender"] is None:
            raise DomainError("required", "each side needs a registered list", "attacker_registration")

        def side_input(side: str) -> SideInput:
            lost = [entry_id for entry_id, n in self._counts(side, "lost").items() for _ in range(n)]
            placed = [entry_id for entry_id, n in self._counts(side, "reserves").items() for _ in range(n)]
            return SideInput(lost=tuple(lost), reserves=tuple(placed), objective=bool(data.get(f"{side}_objective")),
                             scenario_vp=int(data.get(f"{side}_scenario_vp") or 0))  # fmt: skip

        return ReportInput(
            attacker_registration=lists["attacker"], defender_registration=lists["defender"],
            turns=int(data["turns"]), ending=data["ending"], attacker=side_input("attacker"),
            defender=side_input("defender"), fortification=data["fortification"],
            conceded_by=data.get("conceded_by") or None,
        )  # fmt: skip

    # --- refusals by their field ---------------------------------------------------------------------

    def add_report_error(self, exc: DomainError) -> None:
        """Each problem of a refusal next to the input it names; what does not map goes above the form."""
        for problem in exc.problems:
            self._place(problem)

    def _place(self, problem: FieldProblem) -> None:
        error = ValidationError(problem.message, code=problem.code)
        path = problem.field.removeprefix("$").removeprefix(".")
        side, _, rest = path.partition(".")
        if side in SIDES and rest:
            kind, _, index = rest.partition("[")
            if kind in ("lost", "reserves") and index:
                name = self._entry_field(side, kind, index.rstrip("]"))
                if name in self.fields:
                    self.add_error(name, error)
                    return
            if kind in ("lost", "reserves"):
                self.side_errors[side].append(problem.message)
                return
            if f"{side}_{kind}" in self.fields:
                self.add_error(f"{side}_{kind}", error)
                return
        self.add_error(path if path in self.fields else None, error)

    def _entry_field(self, side: str, kind: str, index: str) -> str:
        """The count field of the entry at ``index`` of the side's lost or reserves list as submitted."""
        try:
            position = int(index)
        except ValueError:
            return ""
        picked = [e for e, n in self._counts(side, kind).items() for _ in range(n)]
        return f"{side}_{kind}_{picked[position]}" if 0 <= position < len(picked) else ""

    # --- for the template ----------------------------------------------------------------------------

    def sides(self) -> list[SidePart]:
        parts = []
        for side in SIDES:
            rows = [
                EntryRow(entry, self[f"{side}_lost_{entry.id}"],
                         self[f"{side}_reserves_{entry.id}"] if f"{side}_reserves_{entry.id}" in self.fields else None)
                for entry in self.entries[side]
            ]  # fmt: skip
            part = SidePart(side=side, name=self.places[side], registration=self[f"{side}_registration"],
                            chosen=self.chosen[side], rows=rows, objective=self[f"{side}_objective"],
                            scenario_vp=self[f"{side}_scenario_vp"], reserve_limit=self.reserve_limit(side),
                            errors=self.side_errors[side])  # fmt: skip
            parts.append(part)
        return parts

    def error_slots(self) -> Iterator[tuple[str, list[str]]]:
        """Every place an error can show, with what it shows now (the preview refreshes them all)."""
        for name in self.fields:
            yield f"err-{name}", [str(message) for message in self.errors.get(name, [])]
        for side in SIDES:
            yield f"err-{side}-units", list(self.side_errors[side])
        yield "err-all", [str(message) for message in self.non_field_errors()]

    def totals(self) -> dict[str, dict[str, int]]:
        """Victory points as picked so far: the AP of the enemy entries lost (each loss again) plus the
        side's scenario points. The judge's own figures replace these once the report adds up."""
        if self.is_bound:
            self.is_valid()
        paid = {side: {e.id: e.paid_ap for e in self.entries[side]} for side in SIDES}
        out: dict[str, dict[str, int]] = {}
        for side, enemy in (("attacker", "defender"), ("defender", "attacker")):
            destroyed = sum(paid[enemy][entry_id] * n for entry_id, n in self._counts(enemy, "lost").items())
            scenario = int(self._value(f"{side}_scenario_vp") or 0)
            out[side] = {
                "ap_destroyed": destroyed,
                "scenario_vp": scenario,
                "victory_points": destroyed + scenario,
            }
        return out


def _list_label(registration: Registration) -> str:
    replaced = "" if registration.is_current else ", replaced since"
    return f"{registration.name} ({registration.total_ap} AP, {registration.registered_at:%d %b}{replaced})"


def initial_from_report(report: BattleReport) -> dict[str, Any]:
    """The amend form's starting values: the report as it stands."""
    initial: dict[str, Any] = {
        "attacker_registration": report.attacker_registration_id,
        "defender_registration": report.defender_registration_id,
        "fortification": report.fortification, "turns": report.turns, "ending": report.ending,
        "conceded_by": report.conceded_by, "seen": report.status,
    }  # fmt: skip
    for side in SIDES:
        part = report.sides.get(side, {})
        initial[f"{side}_objective"] = bool(part.get("objective"))
        initial[f"{side}_scenario_vp"] = int(part.get("scenario_vp", 0))
        for kind in ("lost", "reserves"):
            for entry_id in part.get(kind, []):
                key = f"{side}_{kind}_{entry_id}"
                initial[key] = initial.get(key, 0) + 1
    return initial


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label="Why", max_length=REASON_MAX_LENGTH, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args: Any, label: str = "Why", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"].label = label


class ResolveForm(ReasonForm):
    """A reason for a resolution, with the report's status as the organiser saw it (a stale one is a 409)."""

    seen = forms.CharField(required=False, max_length=12, widget=forms.HiddenInput)


class BattleFilterForm(forms.Form):
    """The battles page's filters, from the query string: each bounded, a bad one named in the answer."""

    round = forms.IntegerField(label="Round", min_value=1, max_value=ROUND_NUMBER_MAX, required=False)
    player = forms.TypedChoiceField(label="Player", coerce=int, required=False, empty_value=None)
    status = forms.ChoiceField(label="Status", required=False)

    def __init__(self, data: Any, *, players: Choices, drafts: bool, rounds: int) -> None:
        super().__init__(data)
        self.fields["player"].choices = [("", "Any player"), *players]  # type: ignore[attr-defined]
        statuses = [(v, label) for v, label in BattleStatus.choices if drafts or v != BattleStatus.DRAFT]
        self.fields["status"].choices = [("", "Any status"), *statuses]  # type: ignore[attr-defined]
        self.fields["round"].widget = forms.Select(
            choices=[("", "Any round"), *((n, f"Round {n}") for n in range(rounds, 0, -1))]
        )

    def problems(self) -> list[str]:
        """Each refused parameter, named as the query string names it."""
        return [f"{name}: {' '.join(str(m) for m in messages)}" for name, messages in self.errors.items()]
