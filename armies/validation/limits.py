"""The input bounds of an army list: one constant each.

The list format's JSON Schema (``schema/army-list.v1.json``, pinned to these by a
test), the pages' forms, the API's serializers and the ``ArmyList`` model all
read them, so a list one of them accepts is never refused by another.

The numbers are game-sized with a wide margin: a big Dust 1947 game is 300 to
500 AP, and a 1,000 AP force of the cheapest real units (about 10 AP each)
has about 100 entries. So a list may have three times that many entries, and a
points limit ten times the largest game anyone plays.
"""

from __future__ import annotations

NAME_MAX_LENGTH = 120
BLOC_MAX_LENGTH = 64
KEY_MAX_LENGTH = 128  # unit, faction, platoon chart and slot keys
ID_MAX_LENGTH = 64  # entry, platoon and fortification ids, local to a list
CATALOGUE_VERSION_MAX_LENGTH = 64
POINTS_LIMIT_MIN = 1
POINTS_LIMIT_MAX = 10_000
MAX_ENTRIES = 300
MAX_PLATOONS = 60
MAX_PLATOON_MEMBERS = 30
MAX_FORTIFICATIONS = 60

# Campaign terms (terms.py). A sector holds one fortification and a mission
# grants a side at most one or two; a mission's "Reserve (#)" is a handful, so
# 50 placements is far beyond any table.
MAX_GRANTED_FORTIFICATIONS = 2
RESERVE_LIMIT_MAX = 50

# A list document is a few kilobytes; 300 entries take about 45 kB. Pasted text
# and uploaded files larger than this are refused before they are parsed.
MAX_DOCUMENT_BYTES = 256 * 1024

# A BattleScribe or New Recruit roster (armies/rosters/): its file (zipped or not) and the .ros
# inside a .rosz. Rosters repeat every card's profiles and rules, so a 150 AP roster is 50-150 kB
# of XML; four times the largest seen is plenty. Its selections are counted and its nesting
# measured while it is read, before anything is matched against the catalogue.
MAX_ROSTER_BYTES = 1024 * 1024
MAX_ROSTER_SELECTIONS = 3_000
MAX_ROSTER_DEPTH = 12
MAX_ROSTER_FORCES = 10
# How much of a selection's customNotes is read: our export's lines about a unit are under 300
# characters; and of the roster's own (a line per platoon, each under 2,000 characters).
MAX_SELECTION_NOTES_LENGTH = 2_000
MAX_ROSTER_NOTES_LENGTH = 64 * 1024
# A list typed as text (armies/textlists.py): the chat export of a 300-entry list
# with its platoons, fortifications and problems is under 1,000 lines of at most a
# few hundred characters. The text's size is bounded by MAX_DOCUMENT_BYTES, as
# pasted JSON is.
MAX_TEXT_LIST_LINES = 2_000
MAX_TEXT_LINE_LENGTH = 2_000

# A number in JSON text a user gives (a list, a New Recruit export, a file of platoon charts): no
# number of theirs comes near 100 digits, and Python refuses to read more than 4,300 as an int.
MAX_JSON_NUMBER_DIGITS = 100

# An error message quotes at most this much of what was sent.
EXCERPT_LENGTH = 40
# An answer lists at most this many problems, errors and warnings alike (a list's format errors, the
# sentences of a list typed as text, a roster's import warnings), then one line counting the rest
# ("and 2,979 more"): a file of thousands of faults gets an answer of a few kilobytes.
MAX_LISTED_PROBLEMS = 20


def excerpt(value: object, limit: int = EXCERPT_LENGTH) -> str:
    """A short quotation of an input for an error message: never the whole of a large value."""
    if isinstance(value, dict):
        return f"an object with {len(value):,} keys"
    if isinstance(value, list):
        return f"a list of {len(value):,} items"
    text = repr(value[: limit + 1] if isinstance(value, str) else value)
    if len(text) > limit:
        return (
            f"{text[:limit]}… ({len(value):,} characters)" if isinstance(value, str) else f"{text[:limit]}…"
        )
    return text


# Platoon charts entered on the site (armies/services/platoon_charts.py): read by the
# PlatoonChart model, the page's form, the API's serializers, the import of charts and the JSON
# catalogue format's schema (importers/schema/catalogue.v1.json, pinned to these by a test) alike.
# A real chart has one command, three or four combat and two or three support slots, each open to
# a handful of units.
CATALOGUE_KEY_MAX_LENGTH = 120  # the JSON catalogue format's keys (charts, units): within KEY_MAX_LENGTH
CHART_NAME_MAX_LENGTH = 160  # PlatoonChart.name (the JSON catalogue format allows 200: longer is refused)
CHART_ADVANTAGE_MAX_LENGTH = 2_000
MAX_CHART_SLOTS = 20
MAX_SLOT_UNITS = 100
MAX_SLOT_CATEGORIES = 10
MAX_CHARTS_IMPORTED = 60
# A slot's name, as a list entry names it in ``slot`` (KEY_MAX_LENGTH): a slot given a ``count`` is
# stored as single slots "<name> 1" ... "<name> 20", so the name leaves room for that suffix.
SLOT_NAME_MAX_LENGTH = KEY_MAX_LENGTH - len(f" {MAX_CHART_SLOTS}")
# What a slot's name may not hold: a roster's notes say "..., slot <name>." and read back what follows
# the last ", slot " on one line (armies/rosters/notes.py), so a comma or a line break is lost there.
SLOT_NAME_FORBIDDEN = (",", "\n", "\r")
# A unit's name, as the catalogue stores it (Unit.name) and as the page's slot boxes take it.
UNIT_NAME_MAX_LENGTH = 160
# A file of charts is a few kilobytes; the API reads JSON bodies up to 512 kB, and so does the page.
MAX_CHARTS_FILE_BYTES = 512 * 1024
# Charts in use (not retired) of a whole catalogue (staff's and the data's, not a campaign's own): a real
# game has a few dozen; entering more is refused until staff retire some.
MAX_LIVE_CHARTS = 300
# Charts in use that one campaign's organisers entered for it (PlatoonChart.campaign): the whole
# catalogue's bound above is staff's alone, so no account can use up room other clubs depend on.
MAX_CAMPAIGN_CHARTS = 30
