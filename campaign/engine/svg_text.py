"""Drawing primitives of the map picture: escaped text and attributes, numbers, the ink and paper colours.

Shared by ``campaign.engine.svg`` (the map) and ``campaign.engine.svg_marks`` (its marks and legend).
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from armies.blocs import Bloc
from campaign.engine.geometry import Polygon

INK = "#1B1B1B"
PAPER = "#FFFFFF"

NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(value: object) -> str:
    """Text content, escaped; characters XML cannot carry at all become U+FFFD."""
    return escape(NOT_XML.sub("\ufffd", str(value)))


def xml_attr(value: object) -> str:
    """An attribute value for double quotes, escaped likewise."""
    return escape(NOT_XML.sub("\ufffd", str(value)), {'"': "&quot;", "\n": "&#10;", "\t": "&#9;"})


def num(value: float) -> str:
    text = f"{round(value, 1) + 0.0:.1f}"
    return text.removesuffix(".0")


def points_attr(polygon: Polygon) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in polygon)


def holder_label(owner: Bloc | None) -> str:
    return "neutral" if owner is None else owner.value
