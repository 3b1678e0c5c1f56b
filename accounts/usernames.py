"""When two usernames are the same name: their skeletons, and which scripts a name mixes.

Plain Python over the Unicode confusables table that ``confusable-homoglyphs``
ships (the one django-registration uses), so a name is judged the same way at
sign-up, in the admin and in the migration that filled the stored skeletons.

A skeleton is what a name looks like, as Unicode TR39 defines it, made case
insensitive: NFKC (fullwidth and styled letters become plain ones), every
character mapped to the prototype it is confusable with (Cyrillic ``а`` to
``a``, ``0`` to ``O``, ``m`` to ``rn``), case folded, and mapped again. Because
a capital ``I`` looks like a small ``l`` while it is the capital of ``i``, a
case-insensitive comparison of looks cannot tell ``i`` from ``l``: they count
as one letter, so ``iena`` is refused beside ``lena``. Two names are the same
when their skeletons are equal; the users table keeps each user's skeleton
under a unique constraint.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import categories, confusables

# A username has at most 150 characters; its skeleton is stored cut to this length. Only names of
# dozens of ligatures (one character that NFKC spells as many) reach it, and two of those that agree
# on their first 450 characters of looks count as the same name.
SKELETON_MAX_LENGTH = 450

# Characters of these scripts go with any script: digits, punctuation, combining accents.
_ANY_SCRIPT = frozenset({"COMMON", "INHERITED"})
# Writing systems that mix scripts by nature: Japanese, Korean and Chinese (Bopomofo) with Han.
_ONE_WRITING = (
    frozenset({"HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"HAN", "HANGUL"}),
    frozenset({"HAN", "BOPOMOFO"}),
)
# Right-to-left characters are listed between left-to-right marks in the table.
_MARK = "\u200e"


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character and the prototype it looks like.

    The table lists, for a prototype, the characters confusable with it, and for
    each of those the prototype alone. A pair listing only each other cannot say
    which is the prototype: the smaller code point is taken, the same for both.
    """
    table = {
        key.replace(_MARK, ""): [glyph["c"].replace(_MARK, "") for glyph in glyphs]
        for key, glyphs in confusables.confusables_data.items()
    }
    prototypes: dict[str, str] = {}
    for char, glyphs in table.items():
        if len(glyphs) != 1:
            continue  # a prototype: it lists the characters that look like it
        (target,) = glyphs
        if table.get(target) == [char]:
            if target < char:
                prototypes[char] = target
        else:
            prototypes[char] = target
    return prototypes


def _map(text: str) -> str:
    prototypes = _prototypes()
    return "".join(prototypes.get(char, char) for char in text)


def username_skeleton(username: str) -> str:
    """What ``username`` looks like, ignoring case: equal skeletons are the same name."""
    shape = _map(_map(unicodedata.normalize("NFKC", username)).casefold())
    return shape.replace("i", "l")[:SKELETON_MAX_LENGTH]


def username_scripts(username: str) -> list[str]:
    """The scripts (``LATIN``, ``CYRILLIC``...) of ``username``'s letters, sorted; digits and marks have none."""
    found = {categories.alias(char) for char in unicodedata.normalize("NFKC", username)}
    return sorted(found - _ANY_SCRIPT)


def mixes_scripts(username: str) -> bool:
    """Whether ``username`` mixes letters of several scripts (Japanese, Korean or Chinese writing aside)."""
    scripts = set(username_scripts(username))
    return len(scripts) > 1 and not any(scripts <= writing for writing in _ONE_WRITING)


def name_skeleton(name: str) -> str:
    """What a display name (or a username read as one) looks like: its username skeleton's letters and
    digits alone, so that spaces, dots and underscores, invisible characters and look-alike letters
    do not make another name of it ("Olga the Organiser", "olga_the_0rganiser"). Empty when the
    name has no letter or digit (it is then compared with nothing)."""
    return "".join(char for char in username_skeleton(name) if char.isalnum())[:SKELETON_MAX_LENGTH]


def username_forms(name: str) -> set[str]:
    """The usernames' skeletons a display name could be spelled as: its words run together or joined
    by the punctuation a username may hold."""
    words = name.split()
    return {username_skeleton(joiner.join(words)) for joiner in ("", "_", ".", "-")} if words else set()
