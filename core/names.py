"""What any name may hold (a username, a display name, a campaign's, a list's, a sector's, a place's).

Plain Python with no Django imports, so the pure engines check names with it too
(``armies.validation.names`` re-exports it for the lists and charts).

A name is shown to other people and written into exports, so it may hold nothing that
is not seen or that changes how the text around it reads:

- control characters (C0, C1, lone surrogates, the non-characters XML never allows): a tab or
  a line break in a name is a slip of the keyboard, and XML 1.0 cannot carry most of them;
- format characters (Unicode's category Cf): direction overrides and isolates (U+202E turns
  "Olga" around), zero-width spaces, the soft hyphen, word joiners, tags; and the line and
  paragraph separators;
- the letters Unicode draws as nothing (the Hangul fillers) and the combining grapheme joiner.

One exception: the zero-width joiner and non-joiner between two characters that are neither
ASCII nor Latin, Greek or Cyrillic letters, where they are spelling (Persian, the Indic
scripts) or make one emoji of several; between the letters of the alphabets a name could be
taken for, they are refused.
"""

from __future__ import annotations

import re
import unicodedata

NAME_CONTROL_CODE = "name-control-character"
NAME_CONTROL_MESSAGE = (
    "A name cannot hold a control character or an invisible one (a tab, a line break, a direction "
    "mark or a zero-width space): type it again without one."
)

# Unicode's format characters (Cf) and the line and paragraph separators (Zl, Zp), as of Unicode 14
# (tests/core/test_names.py holds this list to the running Python's Unicode data), the Hangul fillers
# and the combining grapheme joiner.
HIDDEN_BMP = (
    "\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u180e\u200b-\u200f"
    "\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
)
HIDDEN_ASTRAL = (
    "\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f"
)
# C0 and C1 controls, lone surrogates and the two non-characters XML never allows.
CONTROL = "\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff"

_CONTROL = re.compile(f"[{CONTROL}]")
_REFUSED = re.compile(f"[{CONTROL}{HIDDEN_BMP}{HIDDEN_ASTRAL}]")
_JOINERS = frozenset("\u200c\u200d")
_ALPHABETS = ("LATIN", "GREEK", "CYRILLIC")


def _spelling_joiner(name: str, at: int) -> bool:
    """Whether the joiner at ``at`` stands between two characters of a script that spells with it."""
    if name[at] not in _JOINERS or at == 0 or at == len(name) - 1:
        return False
    return all(
        not char.isascii() and not unicodedata.name(char, "").startswith(_ALPHABETS)
        for char in (name[at - 1], name[at + 1])
    )


def hidden_characters(name: str) -> list[str]:
    """The characters of ``name`` a name may not hold, in order."""
    return [m.group() for m in _REFUSED.finditer(name) if not _spelling_joiner(name, m.start())]


def name_problem(name: str) -> str | None:
    """The sentence saying why ``name`` cannot be a name, None when it can."""
    if _REFUSED.search(name) is None:
        return None
    return NAME_CONTROL_MESSAGE if hidden_characters(name) else None


def name_cleaned(name: str) -> str:
    """``name`` with each run of control characters read as one space and invisible ones dropped
    (a roster's name from a file, which is cleaned rather than refused)."""
    if _REFUSED.search(name) is None:
        return name
    spaced = _CONTROL.sub(" ", name)
    kept = "".join(
        char for at, char in enumerate(spaced) if _REFUSED.match(char) is None or _spelling_joiner(spaced, at)
    )
    return " ".join(kept.split())
