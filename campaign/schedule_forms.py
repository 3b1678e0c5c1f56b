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


class BattleScheduleForm(forms.Form):
    attacker = forms.TypedChoiceField(coerce=int, label="Attacker")
    defender = forms.TypedChoiceField(coerce=int, label="Defender", help_text="A player of another bloc.")
    sector = forms.ChoiceField(
        label="Over the sector",
        help_text="A sector the attacker's bloc may attack now: neutral, or the defender's next to one the "
        "attacker's bloc holds. Sectors on a front line come first.",
    )
    mission = forms.ChoiceField(label="Mission", required=False)

    def __init__(
        self, *args: Any, places: Sequence[PlaceChoice], sectors: Sequence[SectorChoice], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        groups: dict[str, list[tuple[int, str]]] = {}
        for place in places:
            groups.setdefault(place.bloc, []).append((place.pk, place.label))
        for name, prompt in (("attacker", "Choose the attacker…"), ("defender", "Choose the defender…")):
            self.fields[name].choices = [("", prompt), *groups.items()]  # type: ignore[attr-defined]
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
