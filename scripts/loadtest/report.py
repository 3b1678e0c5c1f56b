"""The load test's table (the issue's, with errors, freshness and CPU per request) and its JSON figures."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from loadtest import plan
from loadtest.plan import StepFigures

CPU_PARTS = ("gunicorn", "postgresql", "worker", "client")
HEADER = (
    "offered/s",
    "served/s",
    "p50 / p95 / p99",
    "writes p95",
    "errors",
    "standings fresh",
    "CPU ms/request (gunicorn, PostgreSQL, worker, client)",
    "refused fast (p95)",
    "served p95",
    "gunicorn CPU x trivial",
)


def duration(ms: float) -> str:
    """A latency as the issue writes it: whole milliseconds under 10 s, else seconds with one decimal."""
    if math.isnan(ms):
        return "-"
    return f"{ms:.0f} ms" if ms < 10_000 else f"{ms / 1000:.1f} s"


def rate(value: float) -> str:
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


def row(step: StepFigures) -> list[str]:
    def plain(ms: float) -> str:
        # "35 / 292 / 454 ms": the unit once, at the end, when all three are in milliseconds.
        return duration(ms).removesuffix(" ms") if ms < 10_000 else duration(ms)

    latencies = f"{plain(step.p50_ms)} / {plain(step.p95_ms)} / {duration(step.p99_ms)}"
    errors = ", ".join(f"{count} {kind}" for kind, count in step.errors.items()) or "none"
    if step.fresh_seconds is None:
        fresh = "not within the bound"
    else:
        fresh = "no confirmation" if math.isnan(step.fresh_seconds) else f"{step.fresh_seconds:.1f} s"
    cpu = " / ".join(f"{step.cpu_ms_per_request.get(part, math.nan):.1f}" for part in CPU_PARTS)
    refused = f"{step.refused} ({duration(step.refused_p95_ms)})" if step.refused else "none"
    times = (
        step.cpu_ms_per_request.get("gunicorn", math.nan) / step.trivial_ms if step.trivial_ms else math.nan
    )
    return [
        rate(step.offered),
        f"{step.served:.1f}",
        latencies,
        duration(step.writes_p95_ms),
        errors,
        fresh,
        cpu,
        refused,
        duration(step.served_p95_ms),
        "-" if math.isnan(times) else f"{times:.1f} ({step.trivial_ms:.2f} ms)",
    ]


def kinds_line(step: StepFigures) -> str:
    """Each kind of request: how many, p50 / p95 (where a step's time went)."""
    return ", ".join(
        f"{kind} {count}: {duration(p50).removesuffix(' ms')} / {duration(p95)}"
        for kind, (count, p50, p95) in step.by_kind.items()
    )


def table(steps: Sequence[StepFigures]) -> str:
    """The steps as a Markdown table, ready for the README's benchmarks."""
    lines = [f"| {' | '.join(HEADER)} |", f"| {' | '.join('---' for _ in HEADER)} |"]
    lines += [f"| {' | '.join(row(step))} |" for step in steps]
    return "\n".join(lines)


def most_served_under(steps: Sequence[StepFigures], p95_ms: float = 1000.0) -> float | None:
    """The highest offered rate whose p95 stayed under ``p95_ms`` with no error (None: not even the first)."""
    kept = [s.offered for s in steps if s.p95_ms < p95_ms and not s.errors]
    return max(kept) if kept else None


def sheds_well(step: StepFigures, served_p95_ms: float = 1000.0, refused_p95_ms: float = 100.0) -> bool:
    """Whether a step beyond capacity was handled as the site must (issue 26): the answers served within
    ``served_p95_ms`` at p95, every refusal a quick 503 (p95 under ``refused_p95_ms``), no other error."""
    others = {kind: count for kind, count in step.errors.items() if kind != f"http-{plan.BUSY}"}
    quick = not step.refused or step.refused_p95_ms < refused_p95_ms
    return not others and quick and step.served_p95_ms < served_p95_ms


def figures(steps: Sequence[StepFigures], setup: dict[str, Any]) -> dict[str, Any]:
    """What ``--out`` writes: the setup the run measured and each step's figures."""
    return {"setup": setup, "steps": [asdict(step) for step in steps]}
