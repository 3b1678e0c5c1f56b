"""An export imported again is the same campaign: the replay agrees, the standings are equal, the rows too."""

from __future__ import annotations

import json
from typing import Any

import pytest

from campaign.models import Battle, Campaign, Enrolment, LogEntry
from campaign.selectors import map_state_now, sectors_for_map
from campaign.services.results import campaign_check
from exchange.export import campaign_export
from exchange.importer import campaign_import
from exchange.spec import BATTLE_SIDES, SECTIONS, SUBJECT_SECTIONS, ref_target
from standings.selectors import PlayerRow, standings_for
from standings.services import standings_recompute
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _by_position(document: dict[str, Any]) -> dict[str, Any]:
    """The document with every id replaced by its row's position: two exports of one campaign then compare."""
    places = {s.key: {row["id"]: index for index, row in enumerate(document[s.key])} for s in SECTIONS}
    out: dict[str, Any] = {}
    for section in SECTIONS:
        rows = []
        for row in document[section.key]:
            row = dict(row, id=places[section.key][row["id"]])
            for name in section.refs:
                target, _ = ref_target(section, name)
                row[name] = None if row[name] is None else places[target][row[name]]
            if section.key == "log":
                kind, _, rest = row["subject"].partition(":")
                if kind in SUBJECT_SECTIONS and rest.isdigit():
                    row["subject"] = f"{kind}:#{places[SUBJECT_SECTIONS[kind]][int(rest)]}"
                if row["field"] == "held_by":
                    for side in ("before", "after"):
                        if isinstance(row[side], int):
                            row[side] = places["enrolments"][row[side]]
            rows.append(row)
        out[section.key] = rows
    return out


def _table(rows: list[PlayerRow]) -> list[tuple[Any, ...]]:
    return [(r.name, r.bloc, r.rank, r.points, r.played, r.won, r.drawn, r.lost, r.forfeited, r.adjustment,
             r.vp_for, r.vp_against, r.ap_destroyed) for r in rows]  # fmt: skip


def _import(original: Campaign) -> tuple[dict[str, Any], Campaign]:
    text = json.dumps(campaign_export(campaign=original))
    # The import parses the document's datetimes in place: compare against a copy it never saw.
    return json.loads(text), campaign_import(document=json.loads(text), user=UserFactory(username="importer"))


def test_it_imports_a_campaign_whose_replay_agrees_with_its_state(played: Campaign) -> None:
    assert campaign_check(campaign=played).ok
    _document, copy = _import(played)
    assert copy.pk != played.pk
    check = campaign_check(campaign=copy)
    assert check.ok, check
    assert map_state_now(sectors=sectors_for_map(campaign=copy)) != {}
    now = {
        k: (s.owner, s.fortification, s.value)
        for k, s in map_state_now(sectors=sectors_for_map(campaign=copy)).items()
    }
    was = {
        k: (s.owner, s.fortification, s.value)
        for k, s in map_state_now(sectors=sectors_for_map(campaign=played)).items()
    }
    assert now == was


def test_it_imports_standings_equal_to_the_originals(played: Campaign) -> None:
    standings_recompute(campaign_id=played.pk, force=True)
    _document, copy = _import(played)
    standings_recompute(campaign_id=copy.pk, force=True)
    mine, theirs = standings_for(campaign=played), standings_for(campaign=copy)
    assert mine is not None
    assert theirs is not None
    assert mine.players
    assert any(row.played for row in mine.players)
    assert _table(theirs.players) == _table(mine.players)
    assert [(g.key, g.rank, g.points, g.sectors_held, g.resources) for g in theirs.blocs] == [
        (g.key, g.rank, g.points, g.sectors_held, g.resources) for g in mine.blocs
    ]
    assert theirs.round_number == mine.round_number
    for number in range(1, played.current_round + 1):
        was, now = (
            standings_for(campaign=played, round_number=number),
            standings_for(campaign=copy, round_number=number),
        )
        assert was is not None
        assert now is not None
        assert _table(now.players) == _table(was.players)


def _without_people(document: dict[str, Any]) -> dict[str, Any]:
    """The document with every column naming a user left out (an import ties none of them to an account)."""
    return {
        section.key: [
            {k: v for k, v in row.items() if k not in section.users} for row in document[section.key]
        ]
        for section in SECTIONS
    }


def test_it_exports_the_import_as_the_original_row_for_row_but_its_people(played: Campaign) -> None:
    document, copy = _import(played)
    again = json.loads(json.dumps(campaign_export(campaign=copy)))
    first, second = _without_people(_by_position(document)), _without_people(_by_position(again))
    # The import adds one log entry of its own, at the end.
    assert second["log"][:-1] == first["log"]
    assert second["log"][-1]["reason"] == "Imported from a campaign export."
    for section in SECTIONS:
        if section.key not in ("log", "co_organisers"):
            assert second[section.key] == first[section.key], section.key
    head = {k: v for k, v in again["campaign"].items() if k not in ("organiser", "results_version")}
    assert head == {
        k: v for k, v in document["campaign"].items() if k not in ("organiser", "results_version")
    }
    assert again["campaign"]["organiser"] == "importer"


def test_it_ties_none_of_the_files_people_to_an_account(played: Campaign) -> None:
    document, copy = _import(played)
    again = json.loads(json.dumps(campaign_export(campaign=copy)))
    assert document["co_organisers"]
    assert again["co_organisers"] == []
    # Who acted keeps the file's name for them where a row has room for it (the log, the ledger): a player's
    # the name their place is shown under, anyone else's the username; every other person column is empty.
    shown = {row["player"]: row["placeholder_name"] for row in document["enrolments"] if row["player"]}
    assert shown["x1"] == "X1"
    for section in SECTIONS:
        if section.key == "co_organisers":
            continue  # none is imported (above)
        rows = again[section.key][:-1] if section.key == "log" else again[section.key]
        for name in section.users:
            kept = [
                shown.get(row[name], row[name]) if name in section.names else None
                for row in document[section.key]
            ]
            assert [row[name] for row in rows] == kept, (section.key, name)
    assert again["log"][-1]["actor"] == "importer"  # the import's own entry is the importer's
    assert LogEntry.objects.filter(campaign=copy).exclude(actor=None).count() == 1
    assert any(row["actor"] for row in again["ledger"])


def test_it_keeps_the_bloc_each_battle_was_fought_for(played: Campaign) -> None:
    # x1 fought its battles for the Axis; its place says SSU now (history made before the rejoin rule).
    Enrolment.objects.filter(campaign=played, player__username="x1").update(bloc="SSU")
    _document, copy = _import(played)

    # Imported players are placeholders, named as the file shows them.
    fought = Battle.objects.filter(campaign=copy, attacker__placeholder_name="X1").values_list(
        "attacker_bloc", flat=True
    )
    assert set(fought) == {"Axis"}
    assert Enrolment.objects.get(campaign=copy, placeholder_name="X1").bloc == "SSU"
    assert campaign_check(campaign=copy).ok
    standings_recompute(campaign_id=played.pk, force=True)
    standings_recompute(campaign_id=copy.pk, force=True)
    mine, theirs = standings_for(campaign=played), standings_for(campaign=copy)
    assert mine is not None
    assert theirs is not None
    assert [(g.key, g.players, g.won, g.lost, g.points) for g in theirs.blocs] == [
        (g.key, g.players, g.won, g.lost, g.points) for g in mine.blocs
    ]


def test_it_fills_an_older_files_battles_from_their_enrolments(played: Campaign) -> None:
    document = json.loads(json.dumps(campaign_export(campaign=played)))
    places = {row["id"]: row for row in document["enrolments"]}
    for row in document["enrolments"]:
        if row["player"] == "a1":
            row["faction"] = "coastal-raiders"
    for row in document["battles"]:
        for name in BATTLE_SIDES:
            del row[name]

    copy = campaign_import(document=document, user=UserFactory(username="importer"))

    battles = Battle.objects.filter(campaign=copy).select_related("attacker", "defender").order_by("id")
    assert len(battles) == len(document["battles"])
    for battle, row in zip(battles, document["battles"], strict=True):
        for side in ("attacker", "defender"):
            place = places[row[side]]
            assert (battle.side(side).bloc, battle.side(side).faction, battle.side(side).mercenary) == (
                place["bloc"], place["faction"], place["mercenary"],
            )  # fmt: skip
    assert "coastal-raiders" in {b.attacker_faction for b in battles} | {b.defender_faction for b in battles}
    assert campaign_check(campaign=copy).ok


def test_it_makes_every_player_a_placeholder_with_a_claim_link(played: Campaign) -> None:
    document = json.loads(json.dumps(campaign_export(campaign=played)))
    for row in document["enrolments"]:
        if row["player"] == "x1":
            row["player"], row["placeholder_name"] = "nobody-here", ""  # an older file: no name shown
    copy = campaign_import(document=document, user=UserFactory(username="importer"))
    places = Enrolment.objects.filter(campaign=copy)
    assert places.count() == len(document["enrolments"])
    assert not places.exclude(player=None).exists()
    assert places.filter(claim_token=None).count() == 0
    assert len(set(places.values_list("claim_token", flat=True))) == places.count()
    assert places.filter(placeholder_name="nobody-here").exists()  # the username, where no name was given
    assert places.filter(placeholder_name="A1").exists()  # a1's display name, as the export gave it
    assert campaign_check(campaign=copy).ok


def test_it_leaves_secrets_out_of_the_export(played: Campaign) -> None:
    text = json.dumps(campaign_export(campaign=played))
    assert played.invite_token not in text
    for token in (
        Enrolment.objects.filter(campaign=played)
        .exclude(claim_token=None)
        .values_list("claim_token", flat=True)
    ):
        assert token not in text
    assert "claim_token" not in text
    assert "invite_token" not in text
