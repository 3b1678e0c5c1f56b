"""Standings: players, blocs and factions ranked from the confirmed results, computed by a Celery job."""
