"""The one bloc vocabulary: the names the catalogues, the lists and the campaigns all use.

Plain Python (no Django), so the validator, the importers and the campaign's map
engine share it. The spelling is the catalogue's ("Allies", "Axis", "SSU"),
because imported data and list documents already carry it; a campaign stores
the same strings.

"Mercenaries" is fielded like a bloc (a list may be a mercenary force) but is
not a side of the war: a mercenary player fights for one of the three blocs,
and the map knows only those.
"""

from __future__ import annotations

from enum import StrEnum


class Bloc(StrEnum):
    """A side of the war: it holds sectors, has a headquarters and players."""

    ALLIES = "Allies"
    AXIS = "Axis"
    SSU = "SSU"


MERCENARIES = "Mercenaries"

# What a catalogue or a list may name as its bloc: the three sides and the mercenaries.
FIELDED_BLOCS: tuple[str, ...] = (*(bloc.value for bloc in Bloc), MERCENARIES)

BLOC_CHOICES: tuple[tuple[str, str], ...] = tuple((bloc.value, bloc.value) for bloc in Bloc)
