"""What a name may hold: the one check of a list's or a platoon chart's name, wherever it is entered.

A name is shown on pages and written into a ``.rosz`` export (the roster's name, a platoon chart's
name in its notes), so it holds no control character nor an invisible one (``core.names``, the check every name
shares: usernames, display names, campaigns, places, sectors). The pages' forms, the API's serializers and
the services all call ``name_problem`` (the Django side through ``armies.validators``); a roster
read from a file has its name cleaned by ``name_cleaned`` instead of being refused for it.
"""

from __future__ import annotations

import re

from core.names import NAME_CONTROL_CODE, NAME_CONTROL_MESSAGE, name_cleaned, name_problem

# What XML 1.0 cannot hold at all (its Char production): the export drops it from any text.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

__all__ = ["NAME_CONTROL_CODE", "NAME_CONTROL_MESSAGE", "name_cleaned", "name_problem", "xml_text"]


def xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold, so a written document is always well formed."""
    return _NOT_XML.sub("", text)
