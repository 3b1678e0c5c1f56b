"""Battle sessions (issue 20): two players play a battle with the site as referee, step by step.

The rules are ``rules.engine.battle`` (plain Python); this package is the Django side around it:
the rows (``models``), the setup built from two lists (``setup``), the writes (``services``), the
reads (``selectors``), the per-process cache of replayed states (``live``) and the API (``api``).
See docs/battle-sessions.md.
"""
