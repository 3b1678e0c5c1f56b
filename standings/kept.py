"""A small bounded map kept per process, safe to share between a worker's threads.

The standings pages keep what they draw from stored standings (which never
change without a new version and time of computation) under keys holding every
input it is drawn from, so a stale entry is never asked for again and simply
ages out: ``standings/drawings.py`` (charts, players table) and
``standings/selectors.py`` (a table's players parsed).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """The ``size`` most recently used values by key."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> V:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)
        return value
