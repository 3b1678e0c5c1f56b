"""Benchmark: the public validator endpoint on a 40-entry list (target: median under 30 ms).

Runs the real Django stack in-process (URL routing, DRF parsing, the catalogue
lookup, validation, rendering) against a throw-away SQLite database holding the
demo catalogue. Prints the median and p95 of the request time.

    .venv/bin/python scripts/bench_validator_endpoint.py [--requests 300]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchenv import bench_sqlite  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    bench_sqlite()
    os.environ["ZVEROGRAD_THROTTLE_VALIDATE"] = "1000000/minute"

    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from armies.services.army_lists import entry_document
    from armies.services.demo import demo_catalogue_load

    setup_test_environment()
    call_command("migrate", verbosity=0)
    catalogue = demo_catalogue_load()
    units = list(catalogue.units.filter(bloc="Allies", hero=False).values_list("key", flat=True))
    entries = [entry_document(f"e{i + 1}", units[i % len(units)]) for i in range(40)]
    document = {
        "format": "zverograd-army-list", "version": 1, "name": "Forty", "bloc": "Allies", "faction": None,
        "points_limit": 1000, "catalogue_version": catalogue.version, "role": None, "entries": entries,
        "platoons": [], "fortifications": [],
    }  # fmt: skip
    client = Client()
    url = "/api/army-lists/validate/"
    for _ in range(20):  # warm up: imports, caches, the catalogue's plain copy
        assert client.post(url, {"list": document}, content_type="application/json").status_code == 200
    times = []
    for _ in range(args.requests):
        started = time.perf_counter()
        response = client.post(url, {"list": document}, content_type="application/json")
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    times.sort()
    p95 = times[int(len(times) * 0.95) - 1]
    print(f"validator endpoint, 40-entry list, {args.requests} requests")
    print(f"  median {statistics.median(times):.2f} ms   p95 {p95:.2f} ms   (target: median < 30 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
