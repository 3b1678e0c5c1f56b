"""What the standings recompute tells whoever listens (nothing in the site itself does).

``recompute_half_written`` is sent inside the recompute's transaction once the
header is rewritten and the old tables are deleted, before the new tables are
written (keyword argument ``campaign_id``). It lets a test stop a worker there
(tests/worker_hooks.py, loaded only into the worker that test starts) and kill
it, to show that readers never see the half-written state.
"""

from __future__ import annotations

from django.dispatch import Signal

recompute_half_written = Signal()
