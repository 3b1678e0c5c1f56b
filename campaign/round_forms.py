"""Forms for the round, battle, challenge and economy pages (campaign/forms.py holds the earlier ones).

They parse and bound input; the services decide what is allowed. Where a
select offers a narrowed set (the sectors a bloc may attack, the sectors a
player may fortify), the field itself accepts any sector of the map, so that
a forged or stale choice reaches the service and is refused with its code,
next to the field, rather than as a bare "not a valid choice".
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.utils import timezone

from armies.validation import limits as list_limits
from campaign import limits
from campaign.engine.map import Fortification
from campaign.engine.missions import MISSIONS, Mission
from campaign.forms import SectorForm, field_for_error
from campaign.models import Battle, Sector
from core.errors import DomainError
from core.http import form_refusal

Choices = list[tuple[Any, Any]]
DATETIME_LOCAL = "%Y-%m-%dT%H:%M"


def add_refusal(form: forms.BaseForm, exc: DomainError, aliases: dict[str, str] | None = None) -> None:
    """A service's refusal next to the field it names (``aliases`` renames the service's field paths)."""
    head = exc.field.removeprefix("$").removeprefix(".").split(".", 1)[0].split("[", 1)[0]
    field = (aliases or {}).get(head) or field_for_error(form, exc.field)
    form.add_error(field if field in form.fields else None, form_refusal(exc))


def _offered(field: forms.Field, accepted: Choices, shown: Choices) -> None:
    """Accept every choice of ``accepted``; the select shows ``shown`` only."""
    field.choices = accepted  # type: ignore[attr-defined]
    field.widget.choices = shown  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- rounds


class RoundOpenForm(forms.Form):
    deadline = forms.DateTimeField(
        label="Deadline",
        input_formats=[DATETIME_LOCAL, "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=DATETIME_LOCAL),
    )

    def __init__(self, *args: Any, now: datetime | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        now = timezone.localtime(now or timezone.now())
        field = self.fields["deadline"]
        field.help_text = (
            f"Battles should be played and reported by then: at most {limits.ROUND_MAX_DAYS} days ahead, "
            f"in the site's time ({timezone.get_current_timezone_name()})."
        )
        field.widget.attrs.update(
            min=now.strftime(DATETIME_LOCAL),
            max=(now + timedelta(days=limits.ROUND_MAX_DAYS)).strftime(DATETIME_LOCAL),
        )
        self.initial.setdefault("deadline", (now + timedelta(days=7)).replace(second=0, microsecond=0))


# --------------------------------------------------------------------------- pairings and battles


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(coerce=int, label="Swap")
    second = forms.TypedChoiceField(coerce=int, label="with")

    def __init__(self, *args: Any, players: Choices, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "swap")
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = players  # type: ignore[attr-defined]
        self.fields["second"].choices = players  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("first") is not None and data.get("first") == data.get("second"):
            self.add_error(
                "second",
                forms.ValidationError("Choose two different players to swap", code="pairing-same-player"),
            )
        return data


class BattleSectorForm(forms.Form):
    """The sector a drafted battle is fought over: the select offers those its attacker may attack."""

    sector = forms.ChoiceField(required=False, label="Sector")

    def __init__(
        self, *args: Any, battle: Battle, options: Choices, every_sector: Choices, **kwargs: Any
    ) -> None:
        kwargs.setdefault("prefix", f"sector-{battle.pk}")
        super().__init__(*args, **kwargs)
        none = [("", "No sector (the organisers choose later)")]
        _offered(self.fields["sector"], none + every_sector, none + options)
        self.initial.setdefault("sector", battle.sector.key if battle.sector is not None else "")


def mission_choices(suggested: Mission | None) -> Choices:
    return [
        (
            m.key,
            f"{m.name} (suggested for this ground)" if suggested is not None and m == suggested else m.name,
        )
        for m in MISSIONS
    ]


class BattleTermsForm(forms.Form):
    """A battle's mission (the sector's suggestion marked) and points limit."""

    mission = forms.ChoiceField(label="Mission")
    points_limit = forms.IntegerField(
        label="Points limit (AP)",
        min_value=list_limits.POINTS_LIMIT_MIN,
        max_value=list_limits.POINTS_LIMIT_MAX,
    )

    def __init__(self, *args: Any, battle: Battle, suggested: Mission | None, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", f"terms-{battle.pk}")
        super().__init__(*args, **kwargs)
        self.fields["mission"].choices = mission_choices(suggested)  # type: ignore[attr-defined]
        self.initial = {"mission": battle.mission, "points_limit": battle.points_limit, **self.initial}


class ListCheckForm(forms.Form):
    """Which of a side's registered lists to check for a battle (a GET form, one per side)."""

    list = forms.TypedChoiceField(coerce=int, label="Registered list")

    def __init__(self, *args: Any, side: str, lists: Choices, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", side)
        super().__init__(*args, **kwargs)
        self.fields["list"].choices = [("", "Choose a list…"), *lists]  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- challenges


class ChallengeForm(forms.Form):
    challenged = forms.TypedChoiceField(coerce=int, label="Opponent")
    sector = forms.ChoiceField(label="Over the sector", help_text="Only sectors your bloc may attack now.")
    message = forms.CharField(
        max_length=limits.MESSAGE_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="A message (optional)",
    )

    def __init__(
        self,
        *args: Any,
        players: Sequence[tuple[int, str, str]],
        bloc: str,
        attackable: Choices,
        every_sector: Choices,
        **kwargs: Any,
    ) -> None:
        """``players``: (id, name, bloc) of every other admitted player; the select groups those of other blocs."""
        kwargs.setdefault("prefix", "challenge")
        super().__init__(*args, **kwargs)
        groups: dict[str, list[tuple[int, str]]] = {}
        for pk, name, their_bloc in players:
            if their_bloc != bloc:
                groups.setdefault(their_bloc, []).append((pk, name))
        choose: Choices = [("", "Choose an opponent…")]
        _offered(
            self.fields["challenged"],
            choose + [(pk, name) for pk, name, _b in players],
            choose + list(groups.items()),
        )
        choose = [("", "Choose a sector…")]
        _offered(self.fields["sector"], choose + every_sector, choose + attackable)


# --------------------------------------------------------------------------- the economy

KIND_CHOICES = [(Fortification.STRONGPOINT.value, "Strongpoint"), (Fortification.BUNKER.value, "Bunker")]


def fortification_offer(sector: Sector, *, strongpoint: int, bunker: int) -> str:
    """A sector as the purchase form offers it: what is there and what each step costs."""
    if sector.fortification == Fortification.STRONGPOINT:
        return f"{sector.name}: has a strongpoint, upgrade to a bunker for {max(bunker - strongpoint, 0)}"
    return f"{sector.name}: strongpoint {strongpoint}, bunker {bunker}"


class FortificationForm(forms.Form):
    sector = forms.ChoiceField(label="For the sector")
    kind = forms.ChoiceField(choices=KIND_CHOICES, label="Buy")

    def __init__(self, *args: Any, offered: Choices, every_sector: Choices, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "buy")
        super().__init__(*args, **kwargs)
        choose = [("", "Choose a sector…")]
        _offered(self.fields["sector"], choose + every_sector, choose + offered)


class LedgerAdjustForm(forms.Form):
    """An organiser's correction: whose balance ("bloc:Axis" or "player:<id>"), by how much, why."""

    holder = forms.ChoiceField(label="Whose balance")
    amount = forms.IntegerField(
        label="Points (negative to take back)",
        min_value=-limits.RESOURCE_COST_MAX,
        max_value=limits.RESOURCE_COST_MAX,
    )
    reason = forms.CharField(
        max_length=limits.REASON_MAX_LENGTH, label="Why", help_text="Everyone sees it in the ledger."
    )

    def __init__(self, *args: Any, holders: Choices, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "adjust")
        super().__init__(*args, **kwargs)
        self.fields["holder"].choices = [("", "Choose…"), *holders]  # type: ignore[attr-defined]

    def clean_amount(self) -> int:
        amount = int(self.cleaned_data["amount"])
        if amount == 0:
            raise forms.ValidationError("Give or take at least one point", code="out-of-range")
        return amount


# --------------------------------------------------------------------------- sectors held by a player


class SectorHolderForm(SectorForm):
    """The sector form where resources are kept per player: also which player holds the sector."""

    def __init__(self, *args: Any, sector: Sector, players: Choices, **kwargs: Any) -> None:
        super().__init__(*args, sector=sector, **kwargs)
        self.fields["held_by"] = forms.TypedChoiceField(
            choices=[("", "Nobody"), *players],
            coerce=int,
            empty_value=None,
            required=False,
            label="Held by the player",
            help_text="An admitted player of the bloc that holds it: they earn its income and may fortify it.",
        )
        self.order_fields(["owner", "held_by", "fortification", "value", "terrain", "reason"])
        self.initial.setdefault("held_by", sector.held_by_id or "")

    def changes(self) -> dict[str, Any]:
        return {**super().changes(), "held_by": self.cleaned_data["held_by"]}
