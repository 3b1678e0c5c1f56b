"""The bounds of an import: one constant each, read by the form, the API's parser and the service.

Sized from the largest campaign the project supports (500 players, 20 rounds,
20,000 reports: scripts/bench_exchange.py), whose export is 30 MB holding 1.9
million JSON values, with a margin. The file and value bounds are checked in the
request before the file is stored (cheap: a byte scan), and again by the worker
as it reads. They cannot bound memory alone (what a value costs once parsed
depends on its shape), so the worker reads the file a row at a time and counts
what the parsed document takes, refusing it past ``MAX_DOCUMENT_MEMORY``: one
import then stays within a worker's memory budget of 512 MB whatever the file's
shape (scripts/bench_import_limits.py searches for the costliest shapes at these
bounds and measures the worker's peak on each). The work of an import is checked
against the row bounds before anything is written.
"""

from __future__ import annotations

MAX_FILE_BYTES = 64 * 1024 * 1024
# Values a file may hold, counted as its commas and opening brackets before it is parsed (exchange/reading.py).
MAX_JSON_VALUES = 4_000_000
# The name an upload is shown under (its bytes are what count).
FILE_NAME_MAX_LENGTH = 120
# Imports one user may have waiting or running at once: each holds a file on disk and a worker's time.
MAX_UNFINISHED_IMPORTS = 2
MAX_CO_ORGANISERS = 10
MAX_ENROLMENTS = 2_000
MAX_SECTORS = 500
MAX_REGISTRATIONS = 20_000
MAX_ROUNDS = 100
MAX_BATTLES = 50_000
MAX_LEDGER = 100_000
MAX_LOG = 400_000
# Every row of every section together: the budget of one import.
MAX_TOTAL_ITEMS = 600_000
# Problems named in one refusal: enough to fix a file, never a wall of text.
MAX_PROBLEMS = 50
# The longest text a row's plain string may hold when the column itself has no bound (a TextField without one).
MAX_TEXT = 10_000
# The text of one row of a section (or of the campaign's head, its map included), in characters: the
# worker parses one row at a time, so this bounds what a row costs before its memory can be counted.
MAX_ROW_CHARACTERS = 1_000_000
# What the parsed document may take in the worker's memory (counted row by row as it is read): the bound
# that holds whatever the file's shape (scripts/bench_import_limits.py measures the costliest ones).
MAX_DOCUMENT_MEMORY = 256 * 1024 * 1024
