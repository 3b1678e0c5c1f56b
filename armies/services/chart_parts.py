"""An export of platoon charts cut into files the charts' import takes whole.

The import reads at most ``limits.MAX_CHARTS_IMPORTED`` charts from a file of at most
``limits.MAX_CHARTS_FILE_BYTES``, while a catalogue may hold ``limits.MAX_LIVE_CHARTS`` charts in
use: an export in one file could not be imported again. So the export comes in parts, each within
both bounds as the page writes it (indented JSON in UTF-8, the larger of the page's and the API's
writings), and each a whole catalogue document the import takes as it is.
"""

from __future__ import annotations

import json
from typing import Any

from armies.validation import limits

KEY = "platoon_charts"
# The page's writing of an export (the API's is compact, so never larger).
INDENT = 2
# A chart sits two levels down in the document: each of its lines is indented this much more there.
_NESTED_INDENT = 2 * INDENT


def written_bytes(document: Any) -> int:
    """The size of ``document`` as the page writes it."""
    return len((json.dumps(document, indent=INDENT, ensure_ascii=False) + "\n").encode())


def _cost(chart: Any) -> int:
    text = json.dumps(chart, indent=INDENT, ensure_ascii=False)
    # Its own bytes, its lines indented further, and the comma and line break before the next one.
    return len(text.encode()) + _NESTED_INDENT * (text.count("\n") + 1) + 2


def export_parts(head: dict[str, Any], charts: list[Any]) -> list[list[Any]]:
    """``charts`` in their order, cut into parts that ``head`` plus one part keeps within the import's bounds;
    at least one part (empty when there is no chart)."""
    room = limits.MAX_CHARTS_FILE_BYTES - written_bytes({**head, KEY: []}) - 16  # the list's own brackets
    parts: list[list[Any]] = [[]]
    used = 0
    for chart in charts:
        cost = _cost(chart)
        if parts[-1] and (len(parts[-1]) == limits.MAX_CHARTS_IMPORTED or used + cost > room):
            parts.append([])
            used = 0
        parts[-1].append(chart)
        used += cost
    return parts
