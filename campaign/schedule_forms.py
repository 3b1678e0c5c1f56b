"""The form an organiser schedules a battle with: two players by name (grouped by bloc), the sector (front-line
sectors first, each with the mission its ground suggests) and the mission.

Like the other round forms it parses and bounds; the service decides what may be fought, and its refusal is
shown beside the field it names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms

from campaign.engine.missions import MISSIONS

Choices = list[tuple[Any, Any]]
NO_LIST = "no registered list yet"


@dataclass(frozen=True)
class PlaceChoice:
    pk: int
    name: str
    bloc: str
    has_list: bool

    @property
    def label(self) -> str:
        return self.name if self.has_list else f"{self.name} ({NO_LIST})"


@dataclass(frozen=True)
class SectorChoice:
    key: str
    name: str
    suggests: str  # the suggested mission's name
    on_front: bool

    @property
    def label(self) -> str:
        return f"{self.name} (suggests {self.suggests})"


def _by_bloc(places: Sequence[PlaceChoice]) -> Choices:
    groups: dict[str, list[tuple[int, str]]] = {}
    for place in places:
        groups.setdefault(place.bloc, []).append((place.pk, place.label))
    return list(groups.items())


class AttackerForm(forms.Form):
    """The first step: who attacks (the sectors offered next are the ones that player's bloc may attack)."""

    attacker = forms.TypedChoiceField(coerce=int, label="Attacker")

    def __init__(self, *args: Any, places: Sequence[PlaceChoice], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["attacker"].choices = [("", "Choose the attacker…"), *_by_bloc(places)]  # type: ignore[attr-defined]


# What a refused choice says (Django's own words would repeat the key or id sent).
NOT_OFFERED = {
    "attacker": "Choose the attacker again: that player is not offered.",
    "defender": "Choose a player of another bloc without a battle this round.",
    "sector": "Choose a sector the attacker's bloc may attack now.",
}


class BattleScheduleForm(forms.Form):
    attacker = forms.TypedChoiceField(
        coerce=int, label="Attacker", error_messages={"invalid_choice": NOT_OFFERED["attacker"]}
    )
    defender = forms.TypedChoiceField(
        coerce=int, label="Defender", help_text="A player of another bloc.",
        error_messages={"invalid_choice": NOT_OFFERED["defender"]},
    )  # fmt: skip
    sector = forms.ChoiceField(
        error_messages={"invalid_choice": NOT_OFFERED["sector"]},
        label="Over the sector",
        help_text="The sectors the attacker's bloc may attack now: neutral, or another bloc's next to one the "
        "attacker's bloc holds; the defender must hold it, or nobody.",
    )
    mission = forms.ChoiceField(
        label="Mission", required=False, error_messages={"invalid_choice": "Choose a mission from the list."}
    )

    def __init__(
        self,
        *args: Any,
        attackers: Sequence[PlaceChoice],
        defenders: Sequence[PlaceChoice],
        sectors: Sequence[SectorChoice],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["attacker"].choices = _by_bloc(attackers)  # type: ignore[attr-defined]
        self.fields["defender"].choices = [("", "Choose the defender…"), *_by_bloc(defenders)]  # type: ignore[attr-defined]
        front = [(s.key, s.label) for s in sectors if s.on_front]
        elsewhere = [(s.key, s.label) for s in sectors if not s.on_front]
        self.fields["sector"].choices = [  # type: ignore[attr-defined]
            ("", "Choose a sector…"),
            *([("On a front line", front)] if front else []),
            *([("Not on a front line now", elsewhere)] if elsewhere else []),
        ]
        self.fields["mission"].choices = [  # type: ignore[attr-defined]
            ("", "The one the sector suggests"),
            *((mission.key, mission.name) for mission in MISSIONS),
        ]
