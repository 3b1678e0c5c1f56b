"""Faces as people type them, and the dice a roll wants in words (issue 26): one reader for the pages and
the API (``steps._faces`` through ``dice.read_faces``), and refusals in plain sentences."""

from __future__ import annotations

import re

import pytest

from rules.engine.battle import step_from_dict
from rules.engine.battle.rolls import DiceShort, purpose_words
from rules.engine.dice import Face, read_faces
from rules.engine.errors import EngineInputError

B, T, S = Face.BLOC, Face.TARGET, Face.SHIELD


@pytest.mark.parametrize(
    ("typed", "faces"),
    [
        ("BBB", (B, B, B)),
        ("b b b", (B, B, B)),
        ("b,b,t", (B, B, T)),
        ("TT", (T, T)),
        ("  s, S ,t;b ", (S, S, T, B)),
        ("Bloc target SHIELD", (B, T, S)),
        ("bts tsb", (B, T, S, T, S, B)),
        ("", ()),
    ],
)
def test_it_reads_faces_in_any_case_with_or_without_spaces_or_commas(typed, faces):
    assert read_faces(typed) == (faces, None)


def test_it_names_the_first_word_it_cannot_read():
    assert read_faces("b t bx s") == ((B, T), "bx")


@pytest.mark.parametrize(
    "faces", ["BBT", "b, b, t", ["BLOC", "BLOC", "TARGET"], ["b", "B", "t"], ["bb", "target"]]
)
def test_a_step_reads_the_same_faces_as_text_or_as_a_list(faces):
    step = step_from_dict({"kind": "reactive", "by": "defender", "unit": "u1", "faces": faces})

    assert step.faces == (B, B, T)  # type: ignore[attr-defined]


@pytest.mark.parametrize("faces", ["B Q", [[]], [{}], ["BLOC", 3], "b" * 5000])
def test_a_step_refuses_faces_it_cannot_read_in_a_sentence(faces):
    with pytest.raises(EngineInputError) as refused:
        step_from_dict({"kind": "reactive", "by": "defender", "unit": "u1", "faces": faces})

    assert refused.value.code == "invalid-step"
    assert refused.value.message[0].isupper()
    assert refused.value.message.endswith(".")


# Every purpose the engine gives its dice (rules/engine: rolling, reactive, suppression, initiative, the
# battle's commands, third actions and escapes).
PURPOSES = [
    "weapons[0] hit", "weapons[1] re-roll of a miss", "weapons[0] follow-up", "weapons[0] damage resilient",
    "weapons[0] forced re-roll of a hit (targeting system damaged)", "weapons[0] cover save",
    "weapons[0] improved_evade save", "weapons[0] cover save: re-roll of a failure",
    "weapons[0] infantry save: forced re-roll of a success", "strike back: weapons[0] hit",
    "critical hit check", "critical hit table", "cheat death", "pilot escape", "reactive: attempt",
    "reactive: rally before reacting", "suppression: hit roll", "suppression: rally (command)",
    "initiative: Anna", "third action: Wren", "makeshift repair: Tank", "get up: Rangers", "rally: Rangers",
    "ammo drop: Rangers", "get moving: Rangers", "weather: severity", "weather: does it end",
]  # fmt: skip


@pytest.mark.parametrize("purpose", PURPOSES)
def test_every_purpose_reads_as_words_with_no_key_colon_or_bracket(purpose):
    words = purpose_words(purpose, {0: "Rifles"})

    assert not re.search(r"[\[\]():_]", words), words
    assert "weapons" not in words


def test_a_reactive_attempt_short_of_dice_says_so_in_a_sentence_with_the_face_that_succeeds():
    short = DiceShort("reactive: attempt", 2, frozenset({B}))

    assert short.code == "dice-too-few"
    assert short.message == "2 more dice are needed, for the reactive attack attempt, where a bloc counts."


def test_a_hit_roll_short_of_one_die_names_the_faces_that_hit():
    assert DiceShort("weapons[0] hit", 1, frozenset({B, T})).message == (
        "1 more die is needed, for the hit roll, where a bloc or a target counts."
    )
