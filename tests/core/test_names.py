"""The one check of what a name may hold (core/names.py), and the map format's pattern that says the same."""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest

from campaign.engine.map import NAME_PATTERN
from core.names import HIDDEN_BMP, NAME_CONTROL_MESSAGE, hidden_characters, name_cleaned, name_problem

INVISIBLE = [
    "Olga\u202e the Organiser",  # right-to-left override
    "Ol\u200bga",  # zero-width space
    "Olga\u2066x\u2069",  # an isolate
    "O\u00adlga",  # soft hyphen
    "Olga\u200d the Organiser",  # a joiner between Latin letters
    "\u3164",  # a Hangul filler: a letter drawn as nothing
    "Olga\ufeff",
    "Olga\u2028Organiser",
    "Olga\U000e0041",  # a tag
    "Olga\u034f",
    "Olga\x0b",
]
SEEN = [
    "Olga the Organiser",
    "Анна Каренина",
    "José O'Neil-Smith",
    "\u06a9\u062a\u0627\u0628\u200c\u0647\u0627",  # Persian spells with the non-joiner
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # one emoji of three, joined
    "Zoë \U0001f43b",
]


@pytest.mark.parametrize("name", INVISIBLE)
def test_it_refuses_a_control_or_invisible_character(name: str) -> None:
    assert name_problem(name) == NAME_CONTROL_MESSAGE
    assert hidden_characters(name)


@pytest.mark.parametrize("name", SEEN)
def test_it_takes_a_name_of_any_script_and_joined_emoji(name: str) -> None:
    assert name_problem(name) is None


def test_it_refuses_every_format_character_and_separator_of_unicode() -> None:
    missed = [
        f"U+{cp:04X}"
        for cp in range(sys.maxunicode + 1)
        if unicodedata.category(chr(cp)) in ("Cc", "Cf", "Zl", "Zp")
        and chr(cp) not in "\u200c\u200d"
        and name_problem(f"a{chr(cp)}b") is None
    ]
    assert missed == []


def test_the_map_format_refuses_what_the_check_refuses_in_the_basic_plane() -> None:
    pattern = re.compile(NAME_PATTERN)
    hidden = re.compile(f"[{HIDDEN_BMP}]")
    missed = [
        f"U+{cp:04X}" for cp in range(0x10000) if hidden.match(chr(cp)) and pattern.match(f"a{chr(cp)}b")
    ]
    assert missed == []
    assert pattern.match("Memorial Park")


def test_it_cleans_a_roster_s_name_of_invisible_characters() -> None:
    assert name_cleaned("Zoo\u202e\x0brun\u200b") == "Zoo run"
