"""The campaign export format, version 1: one table of what each section holds, read by export and import alike.

A document is ``{"format": FORMAT, "version": VERSION, "exported_at", "campaign": {...}, <section>: [...]}``.
Every row of a section carries an ``id`` that is local to the document; a reference to
another row (``battles[3].attacker``) is that row's ``id`` in the section named by the
spec, and an import gives every row a new database id. People are named by username, which
an import never matches to an account here (exchange.importer).
docs/campaign-export.md describes the format for people; docs/schema/campaign-export.v1.json
is the JSON Schema generated from this table (``exchange.schema``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from django.db import models

from battles.models import BattleReport
from campaign.models import (
    Battle,
    Bye,
    Challenge,
    CoOrganiser,
    Enrolment,
    FortificationPurchase,
    LogEntry,
    Registration,
    ResourceEntry,
    Round,
    Sector,
)
from exchange import limits
from standings.models import Adjustment

FORMAT = "zverograd-campaign"
VERSION = 1

# What a plain value may be: its JSON type, and whether null is allowed (a "?" suffix).
Kind = Literal["str", "int", "bool", "json", "datetime", "str?", "int?", "datetime?", "json?"]


@dataclass(frozen=True)
class Section:
    """One list of the document: the model its rows become, and how each key of a row maps to a column."""

    key: str
    model: type[models.Model]
    max_items: int
    plain: dict[str, Kind]
    # Column -> the section whose row ``id`` it holds. A "?" suffix on the section: may be null.
    refs: dict[str, str] = field(default_factory=dict)
    # Columns that name a user (by username, or null).
    users: tuple[str, ...] = ()
    # A user column -> the model's text column an import keeps the file's name in (``actor`` -> ``actor_name``).
    names: dict[str, str] = field(default_factory=dict)
    # Refs written after every row exists (a row pointing to a later row of its own section, or to the log).
    late: tuple[str, ...] = ()
    # Plain columns a file from an older release may leave out: the import fills them (exchange.importer).
    optional: tuple[str, ...] = ()


# The campaign's own columns, as they are exported (secrets such as the invitation token are not).
CAMPAIGN_PLAIN: dict[str, Kind] = {
    "name": "str", "description": "str", "status": "str", "is_public": "bool", "catalogue_version": "str",
    "points_limit": "int", "points_win": "int", "points_draw": "int", "points_loss": "int",
    "tiebreakers": "json", "ruleset": "json", "resources_held_by": "str", "strongpoint_cost": "int",
    "bunker_cost": "int", "income_base": "int", "max_players_per_bloc": "int?", "unplayed_battles": "str",
    "max_open_challenges": "int", "challenge_days": "int", "report_confirm_hours": "int",
    "award_win": "int", "award_draw": "int", "hide_results_until_close": "bool", "results_version": "int",
    "map_document": "json?", "map_version": "int", "current_round": "int", "created_at": "datetime",
    "started_at": "datetime?", "finished_at": "datetime?",
}  # fmt: skip

# What each side of a battle fought as, recorded on the battle. Files exported before these columns
# existed lack them: the import takes them from the side's enrolment in the file, as the migration that
# added them did (campaign 0007).
SIDE_COLUMNS: dict[str, Kind] = {"bloc": "str", "faction": "str", "mercenary": "bool"}
BATTLE_SIDES: dict[str, Kind] = {
    f"{side}_{name}": kind for side in ("attacker", "defender") for name, kind in SIDE_COLUMNS.items()
}

SECTIONS: tuple[Section, ...] = (
    Section("co_organisers", CoOrganiser, limits.MAX_CO_ORGANISERS,
            {"added_at": "datetime"}, users=("user", "added_by")),
    Section("enrolments", Enrolment, limits.MAX_ENROLMENTS,
            {"placeholder_name": "str", "bloc": "str", "faction": "str", "mercenary": "bool", "status": "str",
             "message": "str", "decision_reason": "str", "decided_at": "datetime?", "joined_at": "datetime",
             "left_at": "datetime?"},
            users=("player", "decided_by")),
    Section("sectors", Sector, limits.MAX_SECTORS,
            {"key": "str", "name": "str", "position": "int", "x": "int", "y": "int", "neighbours": "json",
             "headquarters_of": "str", "owner": "str", "fortification": "str", "value": "int",
             "terrain": "str"},
            refs={"held_by": "enrolments?"}),
    Section("registrations", Registration, limits.MAX_REGISTRATIONS,
            {"name": "str", "bloc": "str", "faction": "str", "document": "json", "catalogue_name": "str",
             "catalogue_version": "str", "profiles": "json", "costs": "json", "total_ap": "int",
             "terms": "json", "verdict": "json", "registered_at": "datetime"},
            refs={"enrolment": "enrolments", "superseded_by": "registrations?"}, users=("registered_by",),
            late=("superseded_by",)),
    Section("rounds", Round, limits.MAX_ROUNDS,
            {"number": "int", "status": "str", "deadline": "datetime", "opened_at": "datetime",
             "closed_at": "datetime?", "pairings_published_at": "datetime?", "pairing_seed": "int"},
            users=("opened_by",)),
    Section("battles", Battle, limits.MAX_BATTLES,
            {"mission": "str", "points_limit": "int", "status": "str", "source": "str", "notes": "json",
             "settled_by_close": "bool", "result": "json?", "confirmed_at": "datetime?",
             "pending_result": "json?", "pending_at": "datetime?",
             "created_at": "datetime", "published_at": "datetime?", **BATTLE_SIDES},
            refs={"round": "rounds", "sector": "sectors?", "attacker": "enrolments", "defender": "enrolments",
                  "winner": "enrolments?", "result_order": "log?"},
            late=("result_order",), optional=(*BATTLE_SIDES, "pending_result", "pending_at")),
    Section("byes", Bye, limits.MAX_BATTLES,
            {"published": "bool", "note": "str"}, refs={"round": "rounds", "enrolment": "enrolments"}),
    Section("challenges", Challenge, limits.MAX_BATTLES,
            {"message": "str", "status": "str", "deadline": "datetime", "created_at": "datetime",
             "answered_at": "datetime?"},
            refs={"round": "rounds", "challenger": "enrolments", "challenged": "enrolments",
                  "sector": "sectors", "battle": "battles?"}),
    Section("reports", BattleReport, limits.MAX_BATTLES,
            {"status": "str", "fortification": "str", "turns": "int", "ending": "str", "conceded_by": "str",
             "sides": "json", "judgement": "json", "submitted_at": "datetime", "confirmed_at": "datetime?",
             "auto_confirmed": "bool", "dispute_reason": "str", "disputed_at": "datetime?",
             "resolution": "str", "resolution_reason": "str", "resolved_at": "datetime?"},
            refs={"battle": "battles", "attacker_registration": "registrations",
                  "defender_registration": "registrations", "submitted_by": "enrolments"},
            users=("confirmed_by", "resolved_by")),
    Section("ledger", ResourceEntry, limits.MAX_LEDGER,
            {"bloc": "str", "amount": "int", "kind": "str", "reason": "str", "round_number": "int",
             "created_at": "datetime"},
            refs={"enrolment": "enrolments?", "paid_by_closing": "rounds?", "battle": "battles?",
                  "reverses": "ledger?"},
            users=("actor",), names={"actor": "actor_name"}, late=("reverses",)),
    Section("purchases", FortificationPurchase, limits.MAX_LEDGER,
            {"kind": "str", "upgrade": "bool", "cost": "int", "round_number": "int", "created_at": "datetime"},
            refs={"sector": "sectors", "entry": "ledger", "bought_by": "enrolments"}),
    Section("adjustments", Adjustment, limits.MAX_LEDGER,
            {"points": "int", "reason": "str", "round_number": "int", "created_at": "datetime"},
            refs={"enrolment": "enrolments"}, users=("actor",)),
    Section("log", LogEntry, limits.MAX_LOG,
            {"at": "datetime", "kind": "str", "subject": "str", "field": "str", "before": "json?",
             "after": "json?", "reason": "str", "round_number": "int", "map_version": "int", "cause": "str"},
            users=("actor",), names={"actor": "actor_name"}),
)  # fmt: skip

SECTION_BY_KEY = {section.key: section for section in SECTIONS}

# Where the log names a row by its id (``subject`` "battle:41"), the section that row is in.
SUBJECT_SECTIONS = {"battle": "battles", "challenge": "challenges", "enrolment": "enrolments",
                    "registration": "registrations"}  # fmt: skip


def ref_target(section: Section, column: str) -> tuple[str, bool]:
    """The section ``column`` points into, and whether it may be null."""
    target = section.refs[column]
    return target.rstrip("?"), target.endswith("?")


def column(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    """The model's field ``name`` (a column, never a reverse relation)."""
    found = model._meta.get_field(name)
    assert isinstance(found, models.Field)
    return found
