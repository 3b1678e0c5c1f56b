"""Lists typed as text (armies/textlists.py): the site's chat export read back, typed lines, typos, garbage, bounds."""

from __future__ import annotations

import pytest

from armies import validation as v
from armies.selectors import catalogue_for_validation
from armies.services.demo import demo_documents
from armies.textlists import COST_DIFFERS, read_text_list, read_text_list_for
from armies.validation import limits
from tests.armies.validation.builders import FACTIONS, unit

UNITS = (
    unit("allies.laser-grenadier-squad", name="Laser Grenadier Squad", ap=15, bloc="Allies"),
    unit("allies.ranger-squad", name="Ranger Squad", ap=10, bloc="Allies", faction="usmc"),
    unit("allies.hero", name="Captain Cohen", ap=7, bloc="Allies", hero=True),
    unit("axis.heavy-flak-grenadiers", name="Heavy Flak Grenadiers (1947)", ap=22, bloc="Axis"),
    unit("axis.barwolf", name="Bärwolf", ap=14, bloc="Axis", unit_type="vehicle"),
    unit("mercenaries.gunmen", name="Brass Gunmen", ap=7, bloc="Mercenaries", mercenary=True),
)


def read(text: str, **extra: object) -> v.ArmyList:
    return v.army_list_from_json(read_text_list(text, UNITS, catalogue_version="t-1", **extra).document)  # type: ignore[arg-type]


def problems(text: str) -> list[str]:
    with pytest.raises(v.ListFormatError) as caught:
        read_text_list(text, UNITS, catalogue_version="t-1", factions=FACTIONS)
    return [message for _, message in caught.value.errors]


@pytest.mark.django_db
def test_it_reads_the_sites_chat_export_of_every_demo_list_back_to_the_same_list(demo_catalogue):
    catalogue = catalogue_for_validation(catalogue=demo_catalogue)
    documents = [doc for docs in demo_documents(demo_catalogue).values() for doc in docs]
    assert len(documents) > 5
    for document in documents:
        army = v.army_list_from_json(document)
        text = v.army_list_to_text(army, catalogue, v.validate(army, catalogue))
        back = v.army_list_from_json(read_text_list_for(text, catalogue).document)
        # Entry order: the export shows a joined hero under the unit it joins.
        assert sorted(back.entries, key=lambda e: e.id) == sorted(army.entries, key=lambda e: e.id), text
        assert (back.name, back.bloc, back.points_limit, back.role) == (
            army.name,
            army.bloc,
            army.points_limit,
            army.role,
        )
        assert back.fortifications == army.fortifications
        assert back.catalogue_version == army.catalogue_version


@pytest.mark.django_db
def test_it_reads_platoons_and_a_strongpoint_of_the_export_back(demo_catalogue):
    catalogue = catalogue_for_validation(catalogue=demo_catalogue)
    document = {
        **demo_documents(demo_catalogue)["karl"][1],
        "entries": [
            {**v.army_list_to_json(v.ArmyList("x", "Axis", 1, "1", entries=(v.ListEntry("a", "b"),)))["entries"][0],
             "id": f"e{n}", "unit": key, "platoon": "p1", "slot": slot}
            for n, (key, slot) in enumerate(
                [("axis.grauwolf-command-squad", "Command"), ("axis.grauwolf-rifle-squad", "Combat 1"),
                 ("axis.grauwolf-rifle-squad", "Combat 2"), ("axis.keiler", "Combat 3"),
                 ("axis.barwolf", "Support 1")], start=1)
        ],
        "platoons": [{"id": "p1", "chart": "axis.grauwolf-platoon", "members": ["e1", "e2", "e3", "e4", "e5"]}],
        "fortifications": [{"id": "f1", "kind": "strongpoint", "unit": None}],
        "role": "defender",
    }  # fmt: skip
    army = v.army_list_from_json(document)
    text = v.army_list_to_text(army, catalogue, v.validate(army, catalogue))
    back = v.army_list_from_json(read_text_list_for(text, catalogue).document)
    assert back.entries == army.entries
    assert back.platoons == army.platoons
    assert back.fortifications == army.fortifications
    assert v.validate(back, catalogue).codes == v.validate(army, catalogue).codes


def test_it_reads_plain_lines_with_bullets_counts_costs_and_headings():
    army = read(
        "My beach party\n"
        "Allies | 150 AP | defender\n"
        "\n"
        "Infantry:\n"
        "- Laser Grenadier Squad (15 AP)\n"
        "* 2x ranger   SQUAD\n"
        "Captain Cohen - 7 pts\n"
        "Barwolf (captured) (14)\n"
        "  1. brass gunmen x2\n"
    )
    assert (army.name, army.bloc, army.points_limit, army.role) == (
        "My beach party",
        "Allies",
        150,
        "defender",
    )
    assert [(e.id, e.unit, e.captured) for e in army.entries] == [
        ("e1", "allies.laser-grenadier-squad", False),
        ("e2", "allies.ranger-squad", False),
        ("e3", "allies.ranger-squad", False),
        ("e4", "allies.hero", False),
        ("e5", "axis.barwolf", True),
        ("e6", "mercenaries.gunmen", False),
        ("e7", "mercenaries.gunmen", False),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "Ranger Squad (10 AP)", "Ranger Squad(10)", "Ranger Squad - 10 pts", "Ranger Squad: 10",
        "Ranger Squad 10 AP", "Ranger Squad, 10 points", "Ranger Squad = 10", "Ranger Squad (10",
        "Ranger Squad 10ap)", "Ranger Squad\t\t( 10 AP )", "Ranger Squad" + " " * 500 + "- 10 pts",
    ],
)  # fmt: skip
def test_it_reads_every_way_of_typing_a_cost_after_a_name(line):
    found = read_text_list(f"Allies\n{line}", UNITS, catalogue_version="t-1")
    assert [entry["unit"] for entry in found.document["entries"]] == ["allies.ranger-squad"]
    assert found.document["points_limit"] == 10  # the cost was read: no warning that it differs
    assert [w.code for w in found.warnings] == ["text-not-read"]


@pytest.mark.parametrize("line", ["Ranger Squad 1234567 AP", "Ranger Squad10", "Ranger Squad (10 AP) x"])
def test_it_does_not_take_what_is_no_cost_for_one(line):
    assert problems(f"Allies\nRanger Squad\n{line}")[0].startswith("line 3: no unit called")


def test_it_reads_a_line_at_the_bound_made_of_spaces_as_one_with_single_spaces():
    # A run of spaces is one space before any pattern sees the line: no pattern splits the run (a
    # cost's pattern did, every way, in time cubic in the line). The line is at the bound.
    name = "Rattlesnake" + " " * (limits.MAX_TEXT_LINE_LENGTH - len("Rattlesnake") - 1) + "x"
    assert len(name) == limits.MAX_TEXT_LINE_LENGTH
    assert problems(f"Allies\nRanger Squad\n{name}") == [
        'line 3: no unit called "Rattlesnake x" in the catalogue.'
    ]
    spaced = "\t".join(["Ranger", " " * 900, "Squad", " " * 900, "(10 AP)"])
    assert [e.unit for e in read(f"Allies  \u00a0 |   10 AP\n{spaced}").entries] == ["allies.ranger-squad"]


def test_it_does_not_cut_a_name_that_holds_digits_in_brackets():
    army = read("Heavy Flak Grenadiers (1947) (22 AP)\nheavy flak grenadiers (1947)")
    assert [e.unit for e in army.entries] == ["axis.heavy-flak-grenadiers"] * 2
    assert army.bloc == "Axis"


def test_it_warns_when_a_stated_cost_differs_from_the_catalogue():
    found = read_text_list(
        "Allies\nRanger Squad (17 AP)\n2x Ranger Squad (20 AP)\n", UNITS, catalogue_version="t"
    )
    assert [(w.field, w.code, w.message) for w in found.warnings if w.code == COST_DIFFERS] == [
        ("line 2", COST_DIFFERS, "line 2: the text says 17 AP for Ranger Squad, the catalogue 10 AP; "
         "the catalogue's cost is used."),
    ]  # fmt: skip


def test_it_takes_the_units_cost_as_the_limit_when_none_is_given_and_says_so():
    found = read_text_list("Ranger Squad\nLaser Grenadier Squad", UNITS, catalogue_version="t")
    assert found.document["points_limit"] == 25
    assert [w.message for w in found.warnings] == [
        "The text gives no points limit: it is taken as 25 AP, what the units cost."
    ]


def test_it_suggests_the_closest_name_for_a_typo():
    assert problems("Allies\nRanger Squad\nLaser Granadier Squad (15 AP)\n") == [
        'line 3: no unit called "Laser Granadier Squad" in the catalogue. Did you mean Laser Grenadier Squad?'
    ]


def test_it_names_every_unknown_line_and_reads_a_lone_typo_as_a_typo():
    assert problems("Rangr Squad\nGunmen of Brass\n") == [
        'line 1: no unit called "Rangr Squad" in the catalogue. Did you mean Ranger Squad?',
        'line 2: no unit called "Gunmen of Brass" in the catalogue.',
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Hello there, how are you?\nI would like to play on Sunday.",
        "lorem ipsum\n\n\n42",
        "$: Extra data 1 3",
    ],
)
def test_it_answers_arbitrary_text_with_one_sentence(text):
    assert problems(text) == [
        "No line of this text names a unit of the catalogue: write one unit a line, with its cost if you "
        'like, such as "Rifle Squad (6 AP)" or "2x Rifle Squad".'
    ]


def test_it_says_a_document_that_is_not_text_is_not_a_typed_list():
    (message,) = problems('{"format": "something", "x": 1}{')
    assert message.startswith("This looks like a JSON or XML file")
    assert problems("   \n") == ['The text is empty: write one unit a line, such as "Rifle Squad (6 AP)".']


def test_it_asks_for_the_bloc_of_a_list_of_mercenaries_alone():
    assert problems("Brass Gunmen\n") == [
        'The text names only mercenaries and no bloc: add a line with the bloc they fight for, such as "Allies".'
    ]
    assert read("Brass Gunmen\n", bloc="SSU").bloc == "SSU"


def test_it_refuses_text_past_its_bounds():
    # How long the worst text within the bounds takes is scripts/bench_text_lists.py's to say (printed).
    too_many_lines = "Ranger Squad\n" * (limits.MAX_TEXT_LIST_LINES + 1)
    assert problems(too_many_lines) == [
        f"This text has {limits.MAX_TEXT_LIST_LINES + 1:,} lines: a list is at most "
        f"{limits.MAX_TEXT_LIST_LINES:,} lines."
    ]
    assert problems("x" * (limits.MAX_DOCUMENT_BYTES + 1)) == [
        "This text is too large: a list is at most 256 kB of text."
    ]
    assert problems("Allies\n" + "Ranger Squad " * 1000) == [
        f"line 2 is 13,000 characters long: a line of a list is at most {limits.MAX_TEXT_LINE_LENGTH:,}."
    ]
    assert problems(f"Allies\n{limits.MAX_ENTRIES + 1}x Ranger Squad") == [
        f"This list has {limits.MAX_ENTRIES + 1} units: a list holds at most {limits.MAX_ENTRIES}."
    ]
    assert problems("Allies\n9999x Ranger Squad") == ["This list has 9,999 units: a list holds at most 300."]
    # Lines at the bound, every one a near miss: still answered at once, and by at most 20 sentences.
    assert len(problems("Allies\n" + "Rangr Squad\n" * (limits.MAX_TEXT_LIST_LINES - 1))) == 20
    # Lines at the longest a line may be, none a unit: one sentence for the whole text.
    assert problems(("Rangr Squad " + "z" * (limits.MAX_TEXT_LINE_LENGTH - 20) + "\n") * 100) == [
        "No line of this text names a unit of the catalogue: write one unit a line, with its cost if you "
        'like, such as "Rifle Squad (6 AP)" or "2x Rifle Squad".'
    ]


@pytest.mark.django_db
def test_it_reads_real_units_whose_names_hold_brackets_and_apostrophes(bsdata_files):
    from armies.models import Catalogue
    from armies.services.catalogue_import import catalogue_import_from_paths

    real = Catalogue.objects.get(pk=catalogue_import_from_paths(paths=bsdata_files).catalogue_id)
    catalogue = catalogue_for_validation(catalogue=real)

    found = read_text_list_for(
        "Night shift\nSSU, 100 AP\n- Nina (TSh) (PLA) (9 AP)\n- 2x grand'ma\n- Red Army Rifle Squad x2 (10 AP)\n",
        catalogue,
    )

    assert [entry["unit"] for entry in found.document["entries"]] == [
        "ssu.nina-tsh-pla", "ssu.grand-ma", "ssu.grand-ma", "ssu.red-army-rifle-squad", "ssu.red-army-rifle-squad",
    ]  # fmt: skip
    assert found.warnings == ()
    assert v.validate(v.army_list_from_json(found.document), catalogue).totals.gross_ap == 9 + 22 + 10
