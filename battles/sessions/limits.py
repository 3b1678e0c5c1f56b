"""Every bound of a battle session, in one place: read by the models, services, serializers and schema.

The setup and each step have the engine's own bounds (``rules.engine.battle.setup``, ``steps``).
"""

from __future__ import annotations

# A join code: 6 characters from 31 with no look-alikes (no 0/O, 1/I/L): 31**6, about 887 million.
JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 6
JOIN_CODE_TRIES = 8  # fresh codes drawn before giving up (a collision among open sessions is rare)
JOIN_RATE = "20/h"  # join attempts per account: a code cannot be guessed by trying them
MAX_STEPS = 5000  # steps a session holds; a 6-turn battle of two 200 AP lists is a few hundred
MAX_STEP_NUMBER = MAX_STEPS  # the largest ``step`` (a live step's number) or ``to`` a request may name
# Changes a session takes in all (each step, undo and undo asked for): the version a phone sends back as
# ``expected`` only ever grows, so a taken-back step's number never names another state; this bounds it
# and the rows that undone steps leave.
MAX_VERSION = 4 * MAX_STEPS
PROBLEM_MAX_LENGTH = 300  # why the report written at the end was not filed
SIDE_MAX_LENGTH = 8
