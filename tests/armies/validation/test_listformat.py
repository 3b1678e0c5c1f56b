"""The JSON list format: exact round trips, schema refusals with paths, plain-text export."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from armies.validation import (
    ListFormatError,
    army_list_from_json,
    army_list_to_json,
    army_list_to_text,
    limits,
    validate,
)
from armies.validation.listformat import army_list_from_json_text, army_list_schema

from .builders import army, catalogue, entry, fort, legal_army, platoon


def document() -> dict[str, Any]:
    return army_list_to_json(legal_army())


def test_it_round_trips_a_list_exactly() -> None:
    army_list = army(
        *legal_army().entries,
        entry("crew", "bunker-crew", reserve=False),
        name="Zoo defence",
        faction="red-guard",
        role="defender",
        platoons=legal_army().platoons,
        forts=[fort("f1", "bunker", "crew"), fort("f2", "strongpoint")],
    )
    data = army_list_to_json(army_list)
    assert army_list_from_json(data) == army_list
    assert army_list_to_json(army_list_from_json(data)) == data
    assert army_list_from_json(json.loads(json.dumps(data))) == army_list


def test_it_round_trips_through_pasted_text() -> None:
    text = json.dumps(document(), indent=2)
    assert army_list_from_json_text(text) == legal_army()


def test_it_writes_the_format_marker_and_version() -> None:
    data = document()
    assert data["format"] == "zverograd-army-list"
    assert data["version"] == 1


def test_it_ships_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(army_list_schema())
    jsonschema.validate(document(), army_list_schema())


def broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(document())
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        (lambda d: d.update(format="battlescribe"), "$.format", "zverograd-army-list"),
        (lambda d: d.update(version=2), "$.version", "1"),
        (lambda d: d.update(points_limit="200"), "$.points_limit", "integer"),
        (lambda d: d.update(points_limit=0), "$.points_limit", "minimum"),
        (lambda d: d.update(role="ambusher"), "$.role", "ambusher"),
        (lambda d: d.pop("entries"), "$", "entries"),
        (lambda d: d.update(colour="red"), "$", "colour"),
        (lambda d: d["entries"][1].pop("unit"), "$.entries[1]", "unit"),
        (lambda d: d["entries"][2].update(captured="yes"), "$.entries[2].captured", "boolean"),
        (lambda d: d["entries"][0].update(id="bad id!"), "$.entries[0].id", "bad id!"),
        (lambda d: d["platoons"][0].update(members=["cmd", "cmd"]), "$.platoons[0].members", "unique"),
        (
            lambda d: d["fortifications"].append({"id": "f", "kind": "trench", "unit": None}),
            "$.fortifications[0].kind",
            "trench",
        ),
    ],
)
def test_it_refuses_a_bad_document_with_the_path_and_reason(change: Any, path: str, words: str) -> None:
    with pytest.raises(ListFormatError) as caught:
        army_list_from_json(broken(change))
    assert caught.value.path == path
    assert words in caught.value.reason
    assert caught.value.errors[0] == (path, caught.value.reason)
    assert str(caught.value).startswith(path)


def test_it_refuses_a_document_that_is_not_an_object() -> None:
    with pytest.raises(ListFormatError) as caught:
        army_list_from_json(["not", "a", "list"])
    assert caught.value.path == "$"


def test_it_reports_the_format_marker_before_other_complaints() -> None:
    with pytest.raises(ListFormatError) as caught:
        army_list_from_json({"format": "other", "version": 1})
    assert caught.value.path == "$.format"
    assert len(caught.value.errors) > 1


def test_it_refuses_text_that_is_not_json() -> None:
    with pytest.raises(ListFormatError) as caught:
        army_list_from_json_text("{not json")
    assert caught.value.path == "$"
    assert caught.value.reason == (
        "This is not a list in the JSON format: a name is not in double quotes (or a comma is left over), "
        "at line 1"
    )


def test_it_says_pasted_plain_text_is_not_a_json_list() -> None:
    with pytest.raises(ListFormatError) as caught:
        army_list_from_json_text("My list\n2x Grauwolf rifle squad")
    assert caught.value.code == "list-format"  # the API's code stays
    assert caught.value.reason.startswith("This is plain text, not a list in the JSON format")


def test_it_says_where_text_follows_the_list() -> None:
    with pytest.raises(ListFormatError) as caught:
        army_list_from_json_text("{} x")
    assert caught.value.reason == (
        "This is not a list in the JSON format: more text follows the end of the list, at line 1"
    )


def test_it_renders_a_legal_list_as_text() -> None:
    cat = catalogue()
    army_list = legal_army()
    text = army_list_to_text(army_list, cat, validate(army_list, cat))
    assert text.startswith("Test list\nSSU | faction force | Red Guard 79.1% | role not set\n")
    assert "Points: 177 / 200 AP paid (gross 197 AP, faction bonus 20 of 20 AP)" in text
    assert "  Rg Squad [sq1]: 25 AP  (platoon p1/combat-1)\n    joined by Koshka [kosh]: 20 AP" in text
    assert "    piloted by Nikolai [nik]: 25 AP" in text
    assert "Axis Walker [axis]: 35 + 2 AP captured" in text
    assert "[p1] Red Guard Rifle Platoon: command: Rg Command [cmd]" in text
    assert "faction bonus 20 of 20 AP: Koshka [kosh] 20 AP" in text
    assert text.endswith("No problems: the list may be registered.\n")


def test_it_renders_problems_and_odd_lists_as_text() -> None:
    cat = catalogue()
    army_list = army(
        entry("a", "koshka", joined_to="b"),
        entry("b", "nikolai", joined_to="a"),
        entry("g", "ghost"),
        role="attacker",
        platoons=[platoon("p", "nope", "zz")],
        forts=[fort("f", "bunker")],
    )
    text = army_list_to_text(army_list, cat, validate(army_list, cat))
    assert "unknown unit 'ghost' [g]: ? AP" in text
    assert "Koshka [a]: 20 AP (joined by another hero)" in text
    assert "[p] unknown chart 'nope': missing [zz]" in text
    assert "[f] bunker, bought" in text
    assert "ERROR fortification-not-defender:" in text
    assert "Problems: " in text


def test_it_reads_the_example_in_the_format_document() -> None:
    doc = (Path(__file__).parents[3] / "docs" / "army-list-format.md").read_text(encoding="utf-8")
    example = json.loads(doc.split("```json", 1)[1].split("```", 1)[0])
    army_list = army_list_from_json(example)
    assert army_list_to_json(army_list) == example
    assert army_list.entries[2].joined_to == "sq1"


def test_it_documents_the_points_limit_the_validator_accepts() -> None:
    doc = (Path(__file__).parents[3] / "docs" / "army-list-format.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `points_limit` |"))
    bounds = army_list_schema()["properties"]["points_limit"]

    assert f"integer, {limits.POINTS_LIMIT_MIN}-{limits.POINTS_LIMIT_MAX} " in row
    assert (bounds["minimum"], bounds["maximum"]) == (limits.POINTS_LIMIT_MIN, limits.POINTS_LIMIT_MAX)
