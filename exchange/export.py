"""A whole campaign as one JSON document (the format: exchange.spec, docs/campaign-export.md).

Read section by section with ``values()`` (one query each, users joined for
their usernames), in id order, so the rows keep the order the campaign's
replay depends on. A place's ``placeholder_name`` is the name it is shown under
(a player's display name), so that an import, which makes every player a
placeholder, shows the same names; a row an import made names who acted by the
name its file gave them (``actor_name``). Left out on purpose: the invitation
link and placeholders' claim links (secrets), the army lists behind
registrations (a registration is its own snapshot), and the standings (computed
again from the rest).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from campaign.limits import PLACEHOLDER_NAME_MAX_LENGTH
from campaign.models import Bye, Campaign, Enrolment
from exchange.spec import CAMPAIGN_PLAIN, FORMAT, SECTIONS, VERSION, Section, column


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _columns(section: Section) -> tuple[dict[str, str], list[str]]:
    """The query's column for each document key, and the list of them to ask ``values()`` for."""
    columns: dict[str, str] = {"id": "id"}
    for name in section.plain:
        columns[name] = name
    for name in section.refs:
        columns[name] = column(section.model, name).attname
    for name in section.users:
        columns[name] = f"{name}__username"
    wanted = list(columns.values()) + list(section.names.values())
    if section.model is Enrolment:
        wanted += ["player__display_name"]
    return columns, wanted


def _rows(section: Section, campaign: Campaign) -> list[dict[str, Any]]:
    columns, wanted = _columns(section)
    manager = section.model._default_manager
    rows = (
        manager.filter(round__campaign=campaign)
        if section.model is Bye
        else manager.filter(campaign=campaign)
    )
    out = []
    for found in rows.order_by("id").values(*wanted).iterator(chunk_size=2000):
        row = {key: _plain(found[column]) for key, column in columns.items()}
        for name, kept in section.names.items():
            row[name] = row[name] or found[kept] or None
        if section.model is Enrolment and row["player"] is not None:
            shown = found["player__display_name"] or row["player"]
            row["placeholder_name"] = shown[:PLACEHOLDER_NAME_MAX_LENGTH]
        out.append(row)
    return out


def campaign_export(*, campaign: Campaign) -> dict[str, Any]:
    """The document for ``campaign``: a dict ready for ``json.dumps``."""
    head: dict[str, Any] = {name: _plain(getattr(campaign, name)) for name in CAMPAIGN_PLAIN}
    head["organiser"] = campaign.organiser.get_username()
    catalogue = campaign.catalogue
    head["catalogue"] = None if catalogue is None else {"name": catalogue.name, "version": catalogue.version}
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "campaign": head,
    }
    for section in SECTIONS:
        document[section.key] = _rows(section, campaign)
    _name_users(document["log"])
    return document


def _name_users(log: list[dict[str, Any]]) -> None:
    """A log subject naming a user by id ("user:12") names them by username instead: ids mean nothing elsewhere."""
    wanted = {
        int(row["subject"][5:])
        for row in log
        if row["subject"].startswith("user:") and row["subject"][5:].isdigit()
    }
    names = dict(get_user_model()._default_manager.filter(pk__in=wanted).values_list("pk", "username"))
    for row in log:
        subject = row["subject"]
        if subject.startswith("user:") and subject[5:].isdigit() and int(subject[5:]) in names:
            row["subject"] = f"user:@{names[int(subject[5:])]}"
