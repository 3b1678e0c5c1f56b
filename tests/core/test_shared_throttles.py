"""Request counts are shared by every process: DRF's throttles and the rate limits use the shared cache.

Under CI=true that cache is Redis (the broker's server), else files under var/; a per-process
cache (LocMem) would let three gunicorn workers each count alone, so under CI these tests fail
rather than pass on anything but Redis.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import caches

from core.ratelimit import rate_limit_hit
from tests.conftest import services_required

ROOT = Path(__file__).resolve().parents[2]
SHARED_BACKENDS = {
    "django.core.cache.backends.redis.RedisCache",
    "django.core.cache.backends.filebased.FileBasedCache",
}


def _require_a_shared_cache() -> None:
    backend = settings.CACHES["default"]["BACKEND"]
    if services_required():
        assert backend == "django.core.cache.backends.redis.RedisCache", f"{backend} is not Redis under CI"
    assert backend in SHARED_BACKENDS, f"{backend} is not shared between processes"


def test_a_count_made_through_one_cache_client_is_read_through_another(fresh_request_counts: str) -> None:
    _require_a_shared_cache()
    first, second = caches.create_connection("default"), caches.create_connection("default")
    first.key_prefix = second.key_prefix = fresh_request_counts

    first.add("count", 0)
    first.incr("count")
    second.incr("count")

    assert (first.get("count"), second.get("count")) == (2, 2)


def test_a_rate_limit_counts_hits_from_every_client_together() -> None:
    _require_a_shared_cache()

    hits = [rate_limit_hit("test-scope", "198.51.100.20", "3/hour") for _ in range(4)]

    assert hits == [True, True, True, False]


@pytest.mark.services
@pytest.mark.django_db
def test_sign_ups_counted_in_another_process_throttle_this_one(api_client, fresh_request_counts: str) -> None:
    _require_a_shared_cache()
    limit = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["sign-up"].split("/")[0])
    address = "198.51.100.77"
    script = (
        "import django; django.setup()\n"
        "from django.core.cache import caches\n"
        "from django.test import Client\n"
        "from django.test.utils import setup_test_environment\n"
        "setup_test_environment()\n"
        f"caches['default'].key_prefix = {fresh_request_counts!r}\n"
        "client = Client()\n"
        f"codes = {{client.post('/api/accounts/sign-up/', {{}}, content_type='application/json',"
        f" REMOTE_ADDR={address!r}).status_code for _ in range({limit})}}\n"
        "assert codes == {400}, codes\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL}  # fmt: skip
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, timeout=120)

    here = api_client.post("/api/accounts/sign-up/", {}, format="json", REMOTE_ADDR=address)
    elsewhere = api_client.post("/api/accounts/sign-up/", {}, format="json", REMOTE_ADDR="198.51.100.78")

    assert here.status_code == 429
    assert elsewhere.status_code == 400
