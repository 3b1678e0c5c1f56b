"""Counting requests outside DRF's throttles (a page's form), in the cache every process shares.

The ``default`` cache is the shared one (Redis, or files under var/: config/settings/base.py),
as for DRF's throttles, so three gunicorn workers count together. A window is fixed (the
current minute, hour...): at most ``limit`` hits in each, which lets through at most twice
the limit across a window's edge, a price paid for one atomic increment per hit.
"""

from __future__ import annotations

import hashlib
import logging
import time

from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"3/hour"`` as (3, 3600): the format of DRF's throttle rates (config.env.env_rate checked it)."""
    count, period = rate.split("/")
    return int(count), PERIODS[period.strip()[0]]


def client_address(request: HttpRequest) -> str:
    """The caller's address, found as DRF's throttles find it (``REST_FRAMEWORK["NUM_PROXIES"]``)."""
    # get_ident reads only the headers and META, which a page's request has as DRF's does.
    return str(BaseThrottle().get_ident(request) or "")  # type: ignore[arg-type]


def rate_limit_hit(scope: str, ident: str, rate: str) -> bool:
    """Count one hit of ``ident`` (an address, an e-mail) in ``scope``; False once past ``rate``.

    ``ident`` is stored hashed, so the cache holds no e-mail address. A cache that
    cannot be reached lets the hit through (logged): the limit guards against floods,
    and must not take the feature down with the cache.
    """
    limit, period = parse_rate(rate)
    window = int(time.time() // period)
    digest = hashlib.sha256(ident.encode()).hexdigest()[:32]
    key = f"ratelimit:{scope}:{digest}:{window}"
    try:
        cache.add(key, 0, timeout=period + 1)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between the two calls
            cache.set(key, 1, timeout=period + 1)
            count = 1
    except Exception:  # any cache backend's failure
        logger.warning("could not count a hit of %s; let through", scope, exc_info=True)
        return True
    return bool(count <= limit)
