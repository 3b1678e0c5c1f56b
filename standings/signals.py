"""What the standings recompute tells whoever listens (nothing in the site itself does).

``recompute_computed`` is sent once the standings are computed, while the
snapshot they were read from is still open and before anything is written
(keyword arguments ``campaign_id`` and ``results_version``, the version they
are the standings of). A test holds a recompute there to show that players'
writes never wait for it.

``recompute_half_written`` is sent inside the short transaction that writes
them, once the header is rewritten and the old tables are deleted, before the
new tables are written (keyword argument ``campaign_id``). It lets a test stop
a worker there (tests/worker_hooks.py, loaded only into the worker that test
starts) and kill it, to show that readers never see the half-written state.
"""

from __future__ import annotations

from django.dispatch import Signal

recompute_computed = Signal()
recompute_half_written = Signal()
