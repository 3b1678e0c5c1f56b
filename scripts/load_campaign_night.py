"""Load test: a campaign night at fixed arrival rates on the production setup of this machine (issue 19).

Starts PostgreSQL 15, Redis, gunicorn (production settings; `config/gunicorn.conf.py` when it exists, else
three workers), one Celery worker and beat in a temporary folder, on free ports of 127.0.0.1; builds one
500-player campaign per step (registered lists, a round of 250 open battles) and a session per user; then
for each offered rate warms up on the mix's reads and drives the campaign-night mix (`loadtest/plan.py`)
for a fixed time, requests starting on schedule whatever the latency. Prints one table row per step:
offered/s, served/s, p50 / p95 / p99, the writes' p95, errors by kind, how long after the step's last
confirmation the standings were fresh, the CPU per request of gunicorn, PostgreSQL, the worker and
this client, the requests refused as busy (503) with their p95, the p95 of those served, and gunicorn's
CPU per request of the mix as a multiple of a trivial signed-in answer's, measured just before the step.
Stops everything and removes its folder whatever happens; `--out` keeps the figures as JSON.

    .venv/bin/python scripts/load_campaign_night.py [--rates 25,50,100,150,200] [--seconds 20]
        [--warmup 5] [--timeout 30] [--out figures.json]
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import json
import os
import resource
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadtest import drive, plan, report
from loadtest.stack import BIN, HOST, ROOT, Stack, gunicorn_command, say

BATTLES = 250  # each step's campaign has 250 open battles, each reported once
FRESH_BOUND = 60.0


def rates(text: str) -> list[float]:
    found = [float(part) for part in text.split(",") if part.strip()]
    if not found or any(rate <= 0 or rate > 1000 for rate in found):
        raise argparse.ArgumentTypeError("rates are positive numbers up to 1000 a second, comma-separated")
    return found


def bounded(low: float, high: float) -> Callable[[str], float]:
    def parse(text: str) -> float:
        value = float(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be between {low:g} and {high:g}")
        return value

    return parse


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rates", type=rates, default=[25, 50, 100, 150, 200], help="offered requests a second"
    )
    parser.add_argument("--seconds", type=bounded(1, 600), default=20.0, help="measured seconds per step")
    parser.add_argument(
        "--warmup", type=bounded(0, 120), default=5.0, help="seconds of reads before each step"
    )
    parser.add_argument("--timeout", type=bounded(1, 120), default=30.0, help="a request's time limit (s)")
    parser.add_argument("--host", type=drive.refuse_other_hosts, default=HOST, help="127.0.0.1 only")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args()
    for rate in args.rates:
        needed = plan.reports_in(rate, args.seconds)
        if needed > BATTLES:
            most = BATTLES / (rate * plan.MIX["report"] / sum(plan.MIX.values()))
            parser.error(f"{rate:g}/s for {args.seconds:g} s submits {needed} reports, more than a round's "
                         f"{BATTLES} battles: at most --seconds {int(most)} at that rate")  # fmt: skip
    return args


async def step(night: drive.Night, stack: Stack, rate: float, args: argparse.Namespace) -> plan.StepFigures:
    if args.warmup:
        offsets = plan.arrivals(rate, args.warmup)
        await drive.run_schedule(night, offsets, drive.reads_only(len(offsets)))
        night.samples.clear()
    trivial = await drive.trivial_cost(night, lambda: stack.cpu_seconds()["gunicorn"])
    offsets = plan.arrivals(rate, args.seconds)
    cpu, client, began = stack.cpu_seconds(), time.process_time(), time.monotonic()
    late = await drive.run_schedule(night, offsets, plan.kinds(len(offsets)))
    used = {part: seconds - cpu[part] for part, seconds in stack.cpu_seconds().items()}
    used["client"] = time.process_time() - client
    fresh = await drive.fresh_after(night, FRESH_BOUND)
    return plan.summarise(night.samples, offered=rate, began=began, seconds=args.seconds, fresh_seconds=fresh,
                          cpu_seconds=used, late_ms=late, trivial_ms=trivial)  # fmt: skip


def world_builder(campaigns: int, world: list[dict[str, Any]]) -> Callable[[Stack], None]:
    """What fills the database once it is migrated: ``campaigns`` campaigns, appended to ``world``."""

    def fill(stack: Stack) -> None:
        out = stack.folder / "world.json"
        began = time.perf_counter()
        stack.run("world", [str(BIN / "python"), str(ROOT / "scripts" / "loadtest" / "world.py"),
                            "--campaigns", str(campaigns), "--out", str(out)], seconds=1800)  # fmt: skip
        world.extend(json.loads(out.read_text())["campaigns"])
        say(f"{campaigns} campaign(s) of 500 players with their lists and 250 open battles built in "
            f"{time.perf_counter() - began:.0f} s")  # fmt: skip

    return fill


def open_files_as_allowed() -> None:
    """An overloaded step holds a connection per request in flight: let the client (only: the servers are
    started before, with the shell's limit) open as many as allowed."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def main() -> int:
    args = arguments()
    stack = Stack()
    atexit.register(stack.close)

    def stop(signum: int, frame: FrameType | None) -> None:
        say(f"stopped by signal {signum}: stopping everything it started")
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)
    steps: list[plan.StepFigures] = []
    try:
        campaigns: list[dict[str, Any]] = []
        stack.start(world_builder(len(args.rates), campaigns))
        open_files_as_allowed()
        say(
            f"serving on {HOST}:{stack.web_port}; steps of {args.seconds:g} s after {args.warmup:g} s of reads"
        )
        for rate, campaign in zip(args.rates, campaigns, strict=True):
            night = drive.Night(port=stack.web_port, campaign=campaign, timeout=args.timeout)
            figures = asyncio.run(step(night, stack, rate, args))
            steps.append(figures)
            say(f"{rate:g}/s: {' | '.join(report.row(figures))}")
            say(
                f"  {report.kinds_line(figures)}; the client started a request {figures.late_ms:.0f} ms late at worst"
            )
    finally:
        stack.close()
        print_results(steps, args)
    return 0


def print_results(steps: list[plan.StepFigures], args: argparse.Namespace) -> None:
    """The table of the steps that ran (all of them, or those before a failure) and, with --out, the JSON."""
    if not steps:
        return
    print()
    print(report.table(steps))
    most = report.most_served_under(steps)
    print(f"\nthe most offered with p95 < 1 s and no error: {'none' if most is None else f'{most:g}/s'}")
    for step in steps:
        if step.refused or step.errors:
            verdict = "as it must" if report.sheds_well(step) else "NOT as it must"
            print(f"{step.offered:g}/s, beyond capacity, was handled {verdict}: the served waited "
                  f"{report.duration(step.served_p95_ms)} at p95, {step.refused} were refused in "
                  f"{report.duration(step.refused_p95_ms)} at p95")  # fmt: skip
    if args.out:
        setup = {"rates": args.rates, "seconds": args.seconds, "warmup": args.warmup,
                 "web": " ".join(gunicorn_command(0)[1:-2]), "cores": os.cpu_count()}  # fmt: skip
        args.out.write_text(json.dumps(report.figures(steps, setup), indent=2))


if __name__ == "__main__":
    sys.exit(main())
