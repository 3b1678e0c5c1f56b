"""What a name may hold: the one check of a list's or a platoon chart's name, wherever it is entered.

A name is shown on pages and written into a ``.rosz`` export (the roster's name, a platoon chart's
name in its notes), so it holds no control character: XML 1.0 cannot carry most of them, and a tab
or a line break in a name is a slip of the keyboard. The pages' forms, the API's serializers and
the services all call ``name_problem`` (the Django side through ``armies.validators``); a roster
read from a file has its name cleaned by ``name_cleaned`` instead of being refused for it.
"""

from __future__ import annotations

import re

NAME_CONTROL_CODE = "name-control-character"
NAME_CONTROL_MESSAGE = (
    "A name cannot hold a control character (a tab, a line break or an invisible code): "
    "type it again without one."
)
# C0 and C1 controls, lone surrogates and the two non-characters XML never allows.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
# What XML 1.0 cannot hold at all (its Char production): the export drops it from any text.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

__all__ = ["NAME_CONTROL_CODE", "NAME_CONTROL_MESSAGE", "name_cleaned", "name_problem", "xml_text"]


def name_problem(name: str) -> str | None:
    """The sentence saying why ``name`` cannot be a name, None when it can."""
    return NAME_CONTROL_MESSAGE if _CONTROL.search(name) else None


def name_cleaned(name: str) -> str:
    """``name`` with each run of control characters read as one space (a roster's name from a file)."""
    return " ".join(_CONTROL.sub(" ", name).split()) if _CONTROL.search(name) else name


def xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold, so a written document is always well formed."""
    return _NOT_XML.sub("", text)
