"""The load test's pure parts: the campaign-night mix, the schedule of arrivals and the figures of a step.

No Django, no network: `tests/scripts/test_loadtest_plan.py` checks them in milliseconds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

# What a campaign night asks for, as shares of the arrivals (issue 19). They add up to 98: each share is
# taken of their sum. A report submission brings its confirmation by the opponent on top of the mix, so a
# site that keeps up serves about 1.05 requests per arrival.
MIX: dict[str, int] = {
    "status": 30,  # the standings page's status poll
    "bell": 29,  # the notification bell's poll
    "battle": 12,  # a battle's page
    "standings": 7,
    "round": 7,  # the open round's page with its 250 battles
    "campaign": 5,
    "dashboard": 3,  # the organisers' dashboard
    "report": 5,  # a report through the API, then the opponent's confirmation
}
WRITES = frozenset({"report", "confirm"})
HTMX_STOP_POLLING = 286
BUSY = 503  # the site's refusal when it cannot serve a request in time (config/shedding.py)


def arrivals(rate: float, seconds: float) -> list[float]:
    """When each request of a step starts, in seconds from the step's start: evenly ``1 / rate`` apart
    (an open model: the schedule never waits for an answer)."""
    if rate <= 0 or seconds <= 0:
        raise ValueError("a step needs a positive rate and duration")
    return [n / rate for n in range(math.floor(rate * seconds + 1e-9))]


def kinds(count: int, mix: Mapping[str, int] = MIX) -> list[str]:
    """``count`` request kinds in the mix's proportions, interleaved (smooth weighted round robin), so that
    any stretch of the schedule holds each kind in its share, to within one request."""
    total = sum(mix.values())
    credit = dict.fromkeys(mix, 0)
    chosen = []
    for _ in range(count):
        for kind, weight in mix.items():
            credit[kind] += weight
        best = max(credit, key=lambda kind: credit[kind])
        credit[best] -= total
        chosen.append(best)
    return chosen


def reports_in(rate: float, seconds: float, mix: Mapping[str, int] = MIX) -> int:
    """How many report submissions a step of ``rate`` for ``seconds`` makes (each needs its own battle)."""
    return kinds(len(arrivals(rate, seconds)), mix).count("report")


def percentile(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (0 to 100) of ``values``, interpolated between the nearest ranks."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = (len(ordered) - 1) * p / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


@dataclass(frozen=True)
class Sample:
    """One request: its kind, how long it took from its scheduled start, when it ended and how."""

    kind: str
    seconds: float
    status: int  # 0 when no answer came (a timeout or a refused connection)
    error: str = ""  # "" if it succeeded; else "timeout", "connection", "no-battle-left" or "http-<status>"
    finished: float = 0.0  # when it ended, on the clock the step's start is given on


def error_of(status: int, exception: str = "") -> str:
    """The kind of error of an answer, "" for success. A 304 is a success (the poll had nothing new); any
    other redirect is an error, since a logged-in player's page never redirects (a 302 to the log-in page
    would be a lost session, a 301 a request the TLS proxy's header did not cover), and so is htmx's 286,
    which a poll answers only to a visitor whose session ended."""
    if exception:
        return exception
    failed = status >= 400 or status == HTMX_STOP_POLLING or (300 <= status < 400 and status != 304)
    return f"http-{status}" if failed else ""


@dataclass(frozen=True)
class StepFigures:
    offered: float
    served: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    writes_p95_ms: float
    requests: int
    errors: dict[str, int]
    fresh_seconds: float | None  # None: the standings were not fresh within the bound
    cpu_ms_per_request: dict[str, float] = field(default_factory=dict)
    late_ms: float = 0.0  # how far behind its schedule the client started a request, at worst
    by_kind: dict[str, tuple[int, float, float]] = field(default_factory=dict)  # count, p50 and p95 (ms)
    served_p95_ms: float = math.nan  # p95 of the answers without error: what the people served waited
    refused: int = 0  # answers 503 "busy, come back later"
    refused_p95_ms: float = math.nan  # how long those took: a refusal must come at once
    trivial_ms: float = math.nan  # gunicorn's CPU for a trivial signed-in answer, measured in the same run


def summarise(
    samples: Iterable[Sample],
    *,
    offered: float,
    began: float,
    seconds: float,
    fresh_seconds: float | None,
    cpu_seconds: Mapping[str, float],
    late_ms: float = 0.0,
    trivial_ms: float = math.nan,
) -> StepFigures:
    """A step's row. ``served`` counts the answers without error that came within the step's ``seconds``
    from ``began``, per second: what the site kept up with, not what it answered once the arrivals stopped.
    The site's refusals (503) are counted apart too, with how long they took; ``trivial_ms`` is what a
    trivial answer cost gunicorn in the same run, the yardstick the mix's CPU is read against."""
    done = list(samples)
    latencies = [s.seconds * 1000 for s in done]
    writes = [s.seconds * 1000 for s in done if s.kind in WRITES]
    errors: dict[str, int] = {}
    for sample in done:
        if sample.error:
            errors[sample.error] = errors.get(sample.error, 0) + 1
    ok = sum(1 for s in done if not s.error and s.finished <= began + seconds)
    refused = [s.seconds * 1000 for s in done if s.status == BUSY]
    per = max(len(done), 1)
    by_kind = {
        kind: (len(times), percentile(times, 50), percentile(times, 95))
        for kind in sorted({s.kind for s in done})
        for times in [[s.seconds * 1000 for s in done if s.kind == kind]]
    }
    return StepFigures(
        offered=offered,
        served=ok / seconds,
        p50_ms=percentile(latencies, 50),
        p95_ms=percentile(latencies, 95),
        p99_ms=percentile(latencies, 99),
        writes_p95_ms=percentile(writes, 95),
        requests=len(done),
        errors=dict(sorted(errors.items())),
        fresh_seconds=fresh_seconds,
        cpu_ms_per_request={name: cpu * 1000 / per for name, cpu in cpu_seconds.items()},
        late_ms=late_ms,
        by_kind=by_kind,
        served_p95_ms=percentile([s.seconds * 1000 for s in done if not s.error], 95),
        refused=len(refused),
        refused_p95_ms=percentile(refused, 95),
        trivial_ms=trivial_ms,
    )
