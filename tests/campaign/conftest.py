"""The campaign fixtures live in tests/conftest.py, shared with the battles tests.

The battle workflow's fixtures (a round, one scheduled battle, registered lists, report data) are
offered here too, for the tests of what a confirmed result does to the campaign; a test file that
defines its own ``round_one`` or ``battle`` keeps its own.
"""

from tests.battles.conftest import battle, lists_of, report_data, round_one  # noqa: F401
