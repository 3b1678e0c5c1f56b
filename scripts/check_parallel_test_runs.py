"""Two pytest runs at once in this checkout must not meet: each passes, on files of its own.

Starts two runs of the same small test files at the same moment, on SQLite and
the embedded broker as `make test` does without CI, each building its test
database (``--create-db``) and starting a real Celery worker
(``tests/core/test_worker_process.py``), and exits 0 only if both pass. Without
a folder per run (``config/settings/test.py``) they would share
``var/test-db.sqlite3`` and one queue folder, and break each other.

    .venv/bin/python scripts/check_parallel_test_runs.py [pytest arguments instead of the default files]
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ARGS = ["tests/core/test_worker_process.py", "tests/campaign/test_services_economy.py"]
TIMEOUT_SECONDS = 600


def main(args: list[str]) -> int:
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings.test")
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "ZVEROGRAD_EMBEDDED_BROKER_DIR",
                 "ZVEROGRAD_TEST_RUN_DIR", "CI", "ZVEROGRAD_REQUIRE_SERVICES"):  # fmt: skip
        env.pop(name, None)
    command = [sys.executable, "-m", "pytest", "-q", "--create-db", *(args or DEFAULT_ARGS)]
    started = time.monotonic()
    runs = [
        subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        for _ in range(2)
    ]
    codes = []
    for number, run in enumerate(runs, start=1):
        output, _ = run.communicate(timeout=TIMEOUT_SECONDS)
        codes.append(run.returncode)
        last = output.strip().splitlines()[-1] if output.strip() else "(no output)"
        print(f"[parallel] run {number} (pid {run.pid}): exit {run.returncode}: {last}")
        if run.returncode != 0:
            print(output)
    print(f"[parallel] both finished in {time.monotonic() - started:.0f}s")
    # The run that found var/ taken used a folder of its own, and removed it as it ended.
    leftovers = [str(run.pid) for run in runs if (ROOT / "var" / "test-runs" / str(run.pid)).exists()]
    if leftovers:
        print(f"[parallel] folders left under var/test-runs: {leftovers}")
    return 0 if codes == [0, 0] and not leftovers else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
