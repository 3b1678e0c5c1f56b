"""The organisers' adjustment form: whose points, by how much, why (bounds from the model's constants)."""

from __future__ import annotations

from typing import Any

from django import forms

from campaign import limits
from standings.models import ADJUSTMENT_POINTS_MAX

CHOOSE = ("", "Choose…")  # the player select's first option


class AdjustmentForm(forms.Form):
    enrolment = forms.TypedChoiceField(label="Player", coerce=int)
    points = forms.IntegerField(
        label="Campaign points (negative to take away)",
        min_value=-ADJUSTMENT_POINTS_MAX,
        max_value=ADJUSTMENT_POINTS_MAX,
    )
    reason = forms.CharField(
        label="Why",
        max_length=limits.REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Everyone sees it on the standings and in the campaign's log.",
    )

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "adjust")
        super().__init__(*args, **kwargs)
        self.fields["enrolment"].choices = [CHOOSE, *players]  # type: ignore[attr-defined]

    def clean_points(self) -> int:
        points = int(self.cleaned_data["points"])
        if points == 0:
            raise forms.ValidationError("Give or take at least one point", code="out-of-range")
        return points
