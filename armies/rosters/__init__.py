"""BattleScribe and New Recruit rosters: read (``read``), matched against our catalogue (``resolve``)
and written back (``write``). Plain Python: the Django side is ``armies.list_intake``."""

from armies.rosters.read import Roster, RosterError, roster_from_bytes, roster_from_new_recruit
from armies.rosters.resolve import ImportWarning, ResolvedRoster, RosterIndex, resolve_roster
from armies.rosters.write import RosterIds, roster_to_rosz, roster_to_xml

__all__ = [
    "ImportWarning",
    "ResolvedRoster",
    "Roster",
    "RosterError",
    "RosterIds",
    "RosterIndex",
    "resolve_roster",
    "roster_from_bytes",
    "roster_from_new_recruit",
    "roster_to_rosz",
    "roster_to_xml",
]
