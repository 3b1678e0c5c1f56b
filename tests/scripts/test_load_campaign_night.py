"""The load test's pure parts: the schedule, the mix, percentiles, the table (scripts/loadtest/)."""

from __future__ import annotations

import itertools
import math
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from loadtest import drive, plan, report, stack


def figures(**changes: object) -> plan.StepFigures:
    shown: dict[str, object] = {
        "offered": 5.0, "served": 5.2, "p50_ms": 35.2, "p95_ms": 292.0, "p99_ms": 454.4, "writes_p95_ms": 495.0,
        "requests": 52, "errors": {}, "fresh_seconds": 1.25,
        "cpu_ms_per_request": {"gunicorn": 36.0, "postgresql": 23.0, "worker": 13.0, "client": 0.4},
    }  # fmt: skip
    shown.update(changes)
    return plan.StepFigures(**shown)  # type: ignore[arg-type]


def test_it_starts_requests_evenly_at_the_offered_rate() -> None:
    offsets = plan.arrivals(50, 2)

    assert len(offsets) == 100
    assert offsets[0] == 0
    assert {round(b - a, 9) for a, b in itertools.pairwise(offsets)} == {0.02}


def test_it_refuses_a_step_without_a_rate_or_a_duration() -> None:
    with pytest.raises(ValueError, match="positive"):
        plan.arrivals(0, 10)
    with pytest.raises(ValueError, match="positive"):
        plan.arrivals(10, 0)


def test_it_keeps_the_mix_in_its_proportions() -> None:
    total = sum(plan.MIX.values())

    counts = Counter(plan.kinds(total * 100))

    assert counts == {kind: weight * 100 for kind, weight in plan.MIX.items()}


def test_it_holds_each_kind_to_its_share_in_any_stretch_of_the_schedule() -> None:
    total = sum(plan.MIX.values())
    chosen = plan.kinds(total * 5)

    for start in range(0, len(chosen) - total, 7):
        window = Counter(chosen[start : start + total])
        for kind, weight in plan.MIX.items():
            assert abs(window[kind] - weight) <= 1, (start, kind, window[kind])


def test_it_counts_the_battles_a_step_reports() -> None:
    assert plan.reports_in(100, 20) == round(2000 * plan.MIX["report"] / sum(plan.MIX.values()))
    assert plan.reports_in(200, 20) <= 250  # the default steps fit in a round of 250 battles


def test_it_interpolates_percentiles_as_statistics_does() -> None:
    values = [float(n * n % 97) for n in range(1, 301)]
    cuts = statistics.quantiles(values, n=100, method="inclusive")

    assert plan.percentile(values, 95) == pytest.approx(cuts[94])
    assert plan.percentile(values, 50) == pytest.approx(statistics.median(values))
    assert plan.percentile([7.0], 99) == 7.0
    assert math.isnan(plan.percentile([], 50))


def test_it_counts_as_served_only_the_answers_without_error_within_the_step() -> None:
    samples = [
        plan.Sample("bell", 0.010, 200, finished=100.5),
        plan.Sample("status", 0.020, 304, finished=101.0),
        plan.Sample("report", 0.300, 201, finished=101.5),
        plan.Sample("confirm", 0.500, 409, plan.error_of(409), finished=102.0),
        plan.Sample("battle", 30.0, 0, plan.error_of(0, "timeout"), finished=131.0),
        plan.Sample("round", 3.0, 200, finished=103.5),  # answered after the step's 2 seconds
    ]

    step = plan.summarise(samples, offered=3, began=100.0, seconds=2.0, fresh_seconds=0.8,
                          cpu_seconds={"gunicorn": 0.6})  # fmt: skip

    assert step.served == 1.5
    assert step.requests == 6
    assert step.errors == {"http-409": 1, "timeout": 1}
    assert step.writes_p95_ms == pytest.approx(490.0)
    assert step.cpu_ms_per_request == {"gunicorn": pytest.approx(100.0)}
    assert step.by_kind["report"] == (1, 300.0, 300.0)


@pytest.mark.parametrize(("status", "error"), [(200, ""), (201, ""), (304, ""), (302, "http-302"),
                                               (301, "http-301"), (286, "http-286"), (409, "http-409"),
                                               (502, "http-502")])  # fmt: skip
def test_it_counts_refusals_failures_redirects_and_stopped_polls_as_errors(status: int, error: str) -> None:
    assert plan.error_of(status) == error


def test_it_writes_a_row_as_the_issue_does() -> None:
    row = report.row(figures())

    assert row == ["5", "5.2", "35 / 292 / 454 ms", "495 ms", "none", "1.2 s", "36.0 / 23.0 / 13.0 / 0.4",
                   "none", "-", "-"]  # fmt: skip


def test_it_counts_the_busy_refusals_apart_with_their_time_and_the_served_p95() -> None:
    samples = [
        plan.Sample("bell", 0.010, 200, finished=100.5),
        plan.Sample("bell", 0.004, 503, plan.error_of(503), finished=100.6),
        plan.Sample("status", 0.006, 503, plan.error_of(503), finished=100.7),
        plan.Sample("battle", 0.810, 200, finished=101.0),
    ]

    step = plan.summarise(samples, offered=2, began=100.0, seconds=2.0, fresh_seconds=0.8,
                          cpu_seconds={"gunicorn": 0.04}, trivial_ms=4.0)  # fmt: skip

    assert (step.refused, step.refused_p95_ms) == (2, pytest.approx(5.9))
    assert step.served_p95_ms == pytest.approx(770.0)
    assert step.errors == {"http-503": 2}
    row = report.row(step)
    assert row[-3:] == ["2 (6 ms)", "770 ms", "2.5 (4.00 ms)"]
    assert report.sheds_well(step)


def test_a_step_beyond_capacity_sheds_well_only_with_quick_refusals_a_quick_served_p95_and_no_other_error():
    good = figures(refused=30, refused_p95_ms=40.0, served_p95_ms=700.0, errors={"http-503": 30})

    assert report.sheds_well(good)
    assert not report.sheds_well(figures(refused=30, refused_p95_ms=400.0, served_p95_ms=700.0))
    assert not report.sheds_well(figures(refused=30, refused_p95_ms=40.0, served_p95_ms=1200.0))
    assert not report.sheds_well(figures(refused=30, refused_p95_ms=40.0, served_p95_ms=700.0,
                                         errors={"http-503": 30, "timeout": 1}))  # fmt: skip


def test_it_writes_long_latencies_in_seconds_and_errors_by_kind() -> None:
    row = report.row(figures(offered=50.0, p50_ms=6800.0, p95_ms=14_800.0, p99_ms=15_200.0,
                             errors={"http-502": 3, "timeout": 2}, fresh_seconds=None))  # fmt: skip

    assert row[2] == "6800 / 14.8 s / 15.2 s"
    assert row[4] == "3 http-502, 2 timeout"
    assert row[5] == "not within the bound"


def test_it_prints_a_markdown_table_with_a_row_per_step() -> None:
    lines = report.table([figures(), figures(offered=10.0)]).splitlines()

    assert lines[0].startswith("| offered/s | served/s | p50 / p95 / p99 | writes p95 | errors |")
    assert len(lines) == 4
    assert lines[3].startswith("| 10 | 5.2 |")


def test_it_names_the_most_offered_rate_under_a_second_at_p95() -> None:
    steps = [
        figures(offered=100.0, p95_ms=200.0),
        figures(offered=150.0, p95_ms=900.0),
        figures(offered=200.0, p95_ms=1400.0),
        figures(offered=175.0, p95_ms=800.0, errors={"timeout": 1}),
    ]

    assert report.most_served_under(steps) == 150.0
    assert report.most_served_under([figures(p95_ms=1500.0)]) is None


def test_it_refuses_to_drive_any_other_host() -> None:
    assert drive.refuse_other_hosts("127.0.0.1") == "127.0.0.1"
    with pytest.raises(SystemExit):
        drive.refuse_other_hosts("zverograd.example.org")


def test_it_reads_a_chunked_answer() -> None:
    assert drive._dechunk(b"5\r\nhello\r\n7;x=1\r\n, world\r\n0\r\n\r\n") == b"hello, world"


def test_it_takes_the_gunicorn_settings_from_the_conf_file_when_there_is_one(tmp_path: Path) -> None:
    conf = stack.GUNICORN_CONF
    command = stack.gunicorn_command(8123)

    assert command[1] == "config.wsgi"
    assert command[-2:] == ["--bind", "127.0.0.1:8123"]
    assert command[2:4] == (["-c", str(conf)] if conf.exists() else ["--workers", "3"])


def test_it_counts_the_cpu_of_a_process_and_of_its_children_that_ended() -> None:
    # The parent waits for a child that burns 0.8 s of CPU and ends, says so, then waits idle. The kernel
    # counts CPU in ticks sampled as the process runs, so the figure read back is only near what the child
    # measured itself: 0.6 leaves room for that and is still far above the parent's own few hundredths.
    child = "import time\nwhile time.process_time() < 0.8: pass"
    parent_code = (
        f"import subprocess, sys; subprocess.run([sys.executable, '-c', {child!r}]); "
        "print('ended', flush=True); input()"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", parent_code], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert parent.stdout is not None
        assert parent.stdout.readline() == b"ended\n"

        assert stack.tree_cpu_seconds(parent.pid) >= 0.6
    finally:
        parent.kill()
        parent.wait()
