"""The shapes of the report endpoints: what a report is sent as (with every bound the judge keeps), and
what a report, its result and its history are shown as."""

from __future__ import annotations

from collections import Counter
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from battles import judging
from battles.models import REASON_MAX_LENGTH, BattleReport, Ending, ReportStatus, Resolution
from battles.services import ReportInput, SideInput
from campaign.api.common import StrictInput, UserBriefOutput, imported_name_field
from campaign.api.round_shapes import (
    FORTIFICATION_CHOICES,
    MISSION_CHOICES,
    ROUND_MAX,
    BattleSideOutput,
    SectorBriefOutput,
)
from campaign.engine.map import Fortification
from campaign.models import Campaign, LogEntry, Registration
from campaign.selectors.rounds import registrations_in_campaign
from core.errors import FieldProblem
from core.fields import BoundedListField
from core.openapi import MAX_ID
from rules.engine.victory import DecidedBy

# Entry ids of a registered snapshot are "e1", "e2", ...: a few characters. Anything longer names no entry.
ENTRY_ID_MAX_LENGTH = 16
SIDE_CHOICES = [(side, side) for side in judging.SIDES]
DECIDED_BY_CHOICES = [(way.value, way.value) for way in DecidedBy] + [("concession", "concession")]
# Only an organiser's decisions: "entered" is what report_enter records, not something to send.
DECISION_CHOICES = [(d.value, d.label) for d in (Resolution.ACCEPTED, Resolution.AMENDED, Resolution.VOIDED)]


def _entry_ids(what: str) -> BoundedListField:
    return BoundedListField(
        child=serializers.CharField(max_length=ENTRY_ID_MAX_LENGTH),
        max_length=judging.MAX_LOSSES,
        required=False,
        default=list,
        help_text=f'Entry ids of the side\'s registered list ("e1", "e2", ...), {what}',
    )


class SideInputBody(StrictInput):
    """What one side lost, placed in reserve, completed and scored."""

    lost = _entry_ids(
        "one for each time the unit was eliminated: twice if it came back from reserve and was lost again."
    )
    reserves = _entry_ids(
        "one for each time the unit was placed in reserve (within the mission's count; never a hero or "
        "a strongpoint unit)."
    )
    objective = serializers.BooleanField(
        required=False, default=False, help_text="Whether this side completed the mission's objective."
    )
    scenario_vp = serializers.IntegerField(
        min_value=0, max_value=judging.MAX_SCENARIO_VP, required=False, default=0,
        help_text="The victory points the scenario gave this side (on top of the AP it destroyed).",
    )  # fmt: skip


class ReportBody(StrictInput):
    """What happened at the table. The rules app checks that it adds up and judges it."""

    attacker_registration = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The registered list the attacker fought with."
    )
    defender_registration = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    fortification = serializers.ChoiceField(
        choices=FORTIFICATION_CHOICES, required=False, default=Fortification.NONE.value,
        help_text="What the defender fielded: at most what the mission allows.",
    )  # fmt: skip
    turns = serializers.IntegerField(
        min_value=1, max_value=judging.MAX_TURNS, help_text="Turns played: at most the mission's turn limit."
    )
    ending = serializers.ChoiceField(choices=Ending.choices, help_text="How the battle ended.")
    conceded_by = serializers.ChoiceField(
        choices=SIDE_CHOICES, allow_null=True, required=False, default=None,
        help_text="With a concession only: the side that conceded (it loses).",
    )  # fmt: skip
    attacker = SideInputBody()
    defender = SideInputBody()


class SubmitBody(ReportBody):
    side = serializers.ChoiceField(
        choices=SIDE_CHOICES, required=False,
        help_text="The side you report for; by default yours. An organiser names a placeholder's side.",
    )  # fmt: skip


class ReasonBody(StrictInput):
    reason = serializers.CharField(
        max_length=REASON_MAX_LENGTH, help_text="Why: the report's history shows it."
    )


class ResolveBody(ReasonBody):
    decision = serializers.ChoiceField(
        choices=DECISION_CHOICES,
        help_text="accepted: the report stands as submitted; amended: it becomes `report`; voided: no result.",
    )
    report = ReportBody(required=False, help_text="With amended only: the report as it should be.")
    seen_status = serializers.ChoiceField(
        choices=ReportStatus.choices,
        required=False,
        help_text="The report's status when you decided (from GET report/). With it, a report that changed "
        "since (another organiser voided it, the opponent confirmed it) is a 409 and nothing is done; "
        "without it, the decision applies to the report as it is.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        amended = attrs["decision"] == Resolution.AMENDED
        if amended and "report" not in attrs:
            raise serializers.ValidationError(
                {
                    "report": [
                        serializers.ErrorDetail("an amendment says what the report should be", "required")
                    ]
                }
            )
        if not amended and "report" in attrs:
            raise serializers.ValidationError(
                {"report": [serializers.ErrorDetail("only an amendment changes the report", "not-amended")]}
            )
        return attrs


class EnterBody(ReasonBody):
    report = ReportBody(help_text="The battle's report, as the organiser has it.")


def report_input(campaign: Campaign, body: dict[str, Any], at: str = "") -> ReportInput:
    """The checked body as the service's input: its registrations looked up in this campaign."""
    found: dict[str, Registration] = {}
    problems = []
    named = registrations_in_campaign(
        campaign=campaign, pks=[body[f"{side}_registration"] for side in judging.SIDES]
    )
    for side in judging.SIDES:
        field = f"{side}_registration"
        registration = named.get(body[field])
        if registration is None:
            problems.append(FieldProblem(f"{at}{field}", "unknown-registration",
                                         "there is no such registered list in this campaign"))  # fmt: skip
        else:
            found[side] = registration
    if problems:
        raise judging.ReportError(problems)
    sides = {
        side: SideInput(lost=tuple(part["lost"]), reserves=tuple(part["reserves"]), objective=part["objective"],
                        scenario_vp=part["scenario_vp"])
        for side in judging.SIDES
        for part in (body[side],)
    }  # fmt: skip
    return ReportInput(
        attacker_registration=found["attacker"], defender_registration=found["defender"], turns=body["turns"],
        ending=body["ending"], attacker=sides["attacker"], defender=sides["defender"],
        fortification=body["fortification"], conceded_by=body["conceded_by"],
    )  # fmt: skip


# --- What is shown ---------------------------------------------------------------------------------


class SidePairOutput(serializers.Serializer[Any]):
    attacker = serializers.IntegerField(min_value=0)
    defender = serializers.IntegerField(min_value=0)


class ResultOutput(serializers.Serializer[Any]):
    """The rules app's judgement. A side's victory points are the AP of the enemy units it eliminated
    (``ap_destroyed``, each loss counted again) plus its scenario points (``scenario_vp``)."""

    winner = serializers.ChoiceField(choices=SIDE_CHOICES, allow_null=True, help_text="null for a draw.")
    draw = serializers.BooleanField()
    decided_by = serializers.ChoiceField(choices=DECIDED_BY_CHOICES)
    victory_points = SidePairOutput()
    ap_destroyed = SidePairOutput(help_text="AP of the enemy's units each side eliminated.")
    scenario_vp = SidePairOutput()
    units_in_play = SidePairOutput(help_text="Units each side still had in play at the end.")


def result_shown(judgement: dict[str, Any], sides: dict[str, Any]) -> dict[str, Any]:
    return {
        "winner": judgement["winner"], "draw": judgement["draw"], "decided_by": judgement["decided_by"],
        "victory_points": judgement["victory_points"], "ap_destroyed": judgement["ap_destroyed"],
        "scenario_vp": {side: int(sides[side]["scenario_vp"]) for side in judging.SIDES},
        "units_in_play": judgement["units_in_play"],
    }  # fmt: skip


def preview_shown(judgement: judging.Judgement, data: ReportInput) -> Any:
    sides = {"attacker": {"scenario_vp": data.attacker.scenario_vp},
             "defender": {"scenario_vp": data.defender.scenario_vp}}  # fmt: skip
    return ResultOutput(result_shown(judgement.to_dict(), sides)).data


class EntryOutput(serializers.Serializer[Any]):
    entry_id = serializers.CharField(max_length=ENTRY_ID_MAX_LENGTH)
    name = serializers.CharField()
    paid_ap = serializers.IntegerField(min_value=0)
    lost = serializers.IntegerField(min_value=0, help_text="Times the unit was eliminated.")
    reserves = serializers.IntegerField(min_value=0, help_text="Times it was placed in reserve.")


class RegisteredListOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    total_ap = serializers.IntegerField(min_value=0)
    url = serializers.URLField(help_text="The registered snapshot whole.")


class SideOutput(serializers.Serializer[Any]):
    registration = RegisteredListOutput(help_text="The registered list this side fought with.")
    entries = EntryOutput(many=True, help_text="Every entry of that list, with its losses and reserves.")
    lost = serializers.ListField(child=serializers.CharField(max_length=ENTRY_ID_MAX_LENGTH))
    reserves = serializers.ListField(child=serializers.CharField(max_length=ENTRY_ID_MAX_LENGTH))
    objective = serializers.BooleanField()
    scenario_vp = serializers.IntegerField(min_value=0, max_value=judging.MAX_SCENARIO_VP)


class SidesOutput(serializers.Serializer[Any]):
    attacker = SideOutput()
    defender = SideOutput()


class DisputeOutput(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=REASON_MAX_LENGTH)
    at = serializers.DateTimeField()


class ResolutionOutput(serializers.Serializer[Any]):
    decision = serializers.ChoiceField(choices=Resolution.choices)
    reason = serializers.CharField(max_length=REASON_MAX_LENGTH)
    by = UserBriefOutput(allow_null=True, help_text="The organiser; null if their account is gone.")
    at = serializers.DateTimeField()


class StepResultOutput(serializers.Serializer[Any]):
    winner = serializers.ChoiceField(choices=SIDE_CHOICES, allow_null=True, help_text="null for a draw.")
    draw = serializers.BooleanField()
    decided_by = serializers.ChoiceField(choices=DECIDED_BY_CHOICES)
    victory_points = SidePairOutput()


class HistoryOutput(serializers.Serializer[Any]):
    at = serializers.DateTimeField()
    actor = UserBriefOutput(
        allow_null=True, help_text="Who acted; null for the site (a deadline passed) or an imported name."
    )
    actor_name = imported_name_field()
    status_before = serializers.ChoiceField(
        choices=ReportStatus.choices, allow_null=True, help_text="null when the report was made."
    )
    status_after = serializers.ChoiceField(choices=ReportStatus.choices)
    reason = serializers.CharField(allow_blank=True)
    result = StepResultOutput(allow_null=True, help_text="The result as it stood after this step.")


class ActionsOutput(serializers.Serializer[Any]):
    confirm = serializers.BooleanField(help_text="You may confirm it now (the opponent of who submitted).")
    dispute = serializers.BooleanField()
    resolve = serializers.BooleanField(help_text="You may accept, amend or void it (an organiser).")


class ReportSummaryOutput(serializers.Serializer[Any]):
    """A report from ``reports_for_api`` (its battle, round, sector and sides already loaded)."""

    battle = serializers.IntegerField(source="battle_id")
    url = serializers.SerializerMethodField()
    round = serializers.IntegerField(source="battle.round.number", min_value=1, max_value=ROUND_MAX)
    sector = SectorBriefOutput(source="battle.sector", allow_null=True)
    attacker = BattleSideOutput(source="battle.attacker_side")
    defender = BattleSideOutput(source="battle.defender_side")
    status = serializers.ChoiceField(choices=ReportStatus.choices)
    submitted_by = serializers.SerializerMethodField()
    submitted_at = serializers.DateTimeField()
    confirmed_at = serializers.DateTimeField(allow_null=True)
    auto_confirmed = serializers.BooleanField(
        help_text="Confirmed by the site when the opponent let the deadline pass."
    )
    result = serializers.SerializerMethodField()

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, report: BattleReport) -> str:
        return reverse("api:battle-report", kwargs={"pk": report.campaign_id, "battle_id": report.battle_id},
                       request=self.context.get("request"))  # fmt: skip

    @extend_schema_field(serializers.ChoiceField(choices=SIDE_CHOICES))
    def get_submitted_by(self, report: BattleReport) -> str:
        return "attacker" if report.submitted_by_id == report.battle.attacker_id else "defender"

    @extend_schema_field(ResultOutput)
    def get_result(self, report: BattleReport) -> Any:
        return ResultOutput(result_shown(report.judgement, report.sides)).data


class ReportOutput(ReportSummaryOutput):
    """A report whole: both lists, what each side lost and placed in reserve, the result, where it stands."""

    battle_url = serializers.SerializerMethodField()
    mission = serializers.ChoiceField(source="battle.mission", choices=MISSION_CHOICES)
    fortification = serializers.ChoiceField(choices=FORTIFICATION_CHOICES)
    turns = serializers.IntegerField(min_value=1, max_value=judging.MAX_TURNS)
    ending = serializers.ChoiceField(choices=Ending.choices)
    conceded_by = serializers.SerializerMethodField()
    sides = serializers.SerializerMethodField()
    dispute = serializers.SerializerMethodField()
    resolution = serializers.SerializerMethodField()
    history = serializers.SerializerMethodField()
    actions = serializers.SerializerMethodField()

    @extend_schema_field(OpenApiTypes.URI)
    def get_battle_url(self, report: BattleReport) -> str:
        return reverse("api:campaign-battle", kwargs={"pk": report.campaign_id, "battle_id": report.battle_id},
                       request=self.context.get("request"))  # fmt: skip

    @extend_schema_field(serializers.ChoiceField(choices=SIDE_CHOICES, allow_null=True))
    def get_conceded_by(self, report: BattleReport) -> str | None:
        return report.conceded_by or None

    @extend_schema_field(SidesOutput)
    def get_sides(self, report: BattleReport) -> Any:
        lists = {"attacker": report.attacker_registration, "defender": report.defender_registration}
        # Written as SidesOutput would write it (each value through its field's conversion), without building
        # its nested serializers' fields for every answer: tests/battles/test_api_sides_shown.py holds the two
        # equal, byte for byte.
        request = self.context.get("request")
        return {side: _side(lists[side], report.sides[side], request) for side in judging.SIDES}

    @extend_schema_field(DisputeOutput(allow_null=True))
    def get_dispute(self, report: BattleReport) -> Any:
        if report.disputed_at is None:
            return None
        return DisputeOutput({"reason": report.dispute_reason, "at": report.disputed_at}).data

    @extend_schema_field(ResolutionOutput(allow_null=True))
    def get_resolution(self, report: BattleReport) -> Any:
        if not report.resolution or report.resolved_at is None:
            return None
        return ResolutionOutput({"decision": report.resolution, "reason": report.resolution_reason,
                                 "by": report.resolved_by, "at": report.resolved_at}).data  # fmt: skip

    @extend_schema_field(HistoryOutput(many=True))
    def get_history(self, report: BattleReport) -> Any:
        entries: list[LogEntry] = self.context["history"]
        return [history_step_shown(_step(entry, report)) for entry in entries]

    @extend_schema_field(ActionsOutput)
    def get_actions(self, report: BattleReport) -> Any:
        return ActionsOutput(self.context["actions"]).data


def _side(registration: Registration, part: dict[str, Any], request: Any) -> dict[str, Any]:
    """A side as ``SideOutput`` shows it: each value converted as its field does (CharField ``str``,
    IntegerField ``int``, BooleanField ``bool`` of a stored bool), in the fields' order."""
    cards = {card["key"]: card for card in registration.profiles}
    lost, placed = Counter(part["lost"]), Counter(part["reserves"])
    entries = [
        {"entry_id": str(row["entry_id"]), "name": str(cards.get(row["unit"], {}).get("name", row["unit"])),
         "paid_ap": int(row["paid_ap"]), "lost": lost[row["entry_id"]], "reserves": placed[row["entry_id"]]}
        for row in registration.costs.get("entries", [])
    ]  # fmt: skip
    url = reverse("api:campaign-registration", request=request,
                  kwargs={"pk": registration.campaign_id, "registration_id": registration.pk})  # fmt: skip
    return {
        "registration": {"id": int(registration.pk), "name": str(registration.name),
                         "total_ap": int(registration.total_ap), "url": str(url)},
        "entries": entries, "lost": _texts(part["lost"]), "reserves": _texts(part["reserves"]),
        "objective": _flag(part["objective"]), "scenario_vp": int(part["scenario_vp"]),
    }  # fmt: skip


def _put(field: serializers.Field[Any, Any, Any, Any], value: Any) -> Any:
    """A value as a serializer puts it through its field: ``None`` kept, anything else converted."""
    return None if value is None else field.to_representation(value)


def history_step_shown(step: dict[str, Any]) -> dict[str, Any]:
    """What ``HistoryOutput(step).data`` gives, each value through HistoryOutput's own declared fields, without
    building that serializer and its nested ones for every step of every answer
    (tests/battles/test_api_history_shown.py holds the two equal, byte for byte)."""
    fields = HistoryOutput._declared_fields
    actor, result = step["actor"], step["result"]
    user = UserBriefOutput._declared_fields
    pair = SidePairOutput._declared_fields
    outcome = StepResultOutput._declared_fields
    return {
        "at": _put(fields["at"], step["at"]),
        "actor": None if actor is None else {
            "id": _put(user["id"], actor.id), "username": _put(user["username"], actor.username),
            "display_name": _put(user["display_name"], actor.public_name),
        },
        "actor_name": _put(fields["actor_name"], step["actor_name"]),
        "status_before": _put(fields["status_before"], step["status_before"]),
        "status_after": _put(fields["status_after"], step["status_after"]),
        "reason": _put(fields["reason"], step["reason"]),
        "result": None if result is None else {
            "winner": _put(outcome["winner"], result["winner"]), "draw": _put(outcome["draw"], result["draw"]),
            "decided_by": _put(outcome["decided_by"], result["decided_by"]),
            "victory_points": None if result["victory_points"] is None else {
                side: _put(pair[side], result["victory_points"][side]) for side in ("attacker", "defender")
            },
        },
    }  # fmt: skip


def _texts(items: list[Any]) -> list[str | None]:
    """``ListField(child=CharField())``'s representation."""
    return [None if item is None else str(item) for item in items]


def _flag(value: Any) -> bool:
    """``BooleanField``'s representation."""
    field = serializers.BooleanField
    return True if value in field.TRUE_VALUES else False if value in field.FALSE_VALUES else bool(value)


def _step(entry: LogEntry, report: BattleReport) -> dict[str, Any]:
    after = entry.after if isinstance(entry.after, dict) else {}
    judgement = after.get("judgement")
    return {
        "at": entry.at, "actor": entry.actor, "actor_name": entry.actor_name, "status_before": entry.before or None,
        "status_after": after.get("status", report.status), "reason": entry.reason,
        "result": {key: judgement[key] for key in ("winner", "draw", "decided_by", "victory_points")}
        if judgement
        else None,
    }  # fmt: skip
