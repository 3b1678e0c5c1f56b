"""The campaign import's costliest admissible files: the worker's peak memory on each, against its 512 MB.

Run from the repository root:  .venv/bin/python scripts/bench_import_limits.py [--shape NAME ...]

Each shape is built as large as the request lets through (``MAX_FILE_BYTES``
and ``MAX_JSON_VALUES``, whichever binds first) and handed to the request's
own service (``exchange.jobs.import_start``: the size, the first byte and the
value count), so a file the request would refuse is never measured. The
payload sits where a hostile file can put it: in the free JSON column of log
rows (``before``, any JSON), each row within ``MAX_ROW_CHARACTERS``, inside
an otherwise valid export (the bench campaign's head, players and map). Then
the import job runs as the worker runs it (``exchange.jobs.import_run``) in a
fresh interpreter, and its peak resident memory (VmHWM) is printed with how
the import ended (written, or refused and why). The worst shape is named; the
exit status is 1 if any shape takes the worker past ``MEMORY_BUDGET_MB``.

The shapes: the parser's costliest per byte and per counted value (short
distinct keys and texts in objects, where one comma buys two strings; small
objects; one-key objects nested as deep as the parser goes; lists nested),
long ASCII texts holding one emoji (the whole text then takes four bytes a
character), short texts with an emoji, short texts, numbers, as many small log
rows as the bounds allow, and the bench's real export (bench_exchange.py)
scaled up with copies of its battles, reports and their log entries.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bench_exchange  # noqa: E402
import bench_standings  # noqa: E402
from benchenv import bench_sqlite  # noqa: E402

MB = 1024 * 1024
MEMORY_BUDGET_MB = bench_exchange.MEMORY_BUDGET_MB
# Room left under the bounds for the envelope's closing brackets.
_SLACK = 64
# Nesting depth of the nested shapes: deep, yet within what the parser takes under a worker's stack.
DEPTH = 500


def _hex(n: int) -> bytes:
    return b"%x" % n


# name -> (opening, closing, the n-th item, items per row at most): items are joined by commas.
Item = Callable[[int], bytes]
PAYLOADS: dict[str, tuple[bytes, bytes, Item, int]] = {
    "short distinct keys and texts": (b"{", b"}", lambda n: b'"%x":"%x"' % (n, n), 10**9),
    "one-key objects": (b"[", b"]", lambda n: b'{"k":0}', 10**9),
    "empty objects": (b"[", b"]", lambda n: b"{}", 10**9),
    "nested one-key objects": (b"", b"", lambda n: b'{"k":' * DEPTH + b"0" + b"}" * DEPTH, 1),
    "nested lists": (b"", b"", lambda n: b"[" * DEPTH + b"]" * DEPTH, 1),
    "short texts": (b"[", b"]", lambda n: b'"ab"', 10**9),
    "short texts with an emoji": (b"[", b"]", lambda n: '"\U0001f600"'.encode(), 10**9),
    "long ASCII texts with one emoji": (
        b"",
        b"",
        lambda n: b'"' + b"x" * 980_000 + '\U0001f600"'.encode(),
        1,
    ),
    "numbers": (b"[", b"]", lambda n: b"%d.5" % n, 10**9),
}
# Characters of payload per row: within MAX_ROW_CHARACTERS with the row's other columns.
ROW_CHARS = 990_000


def _envelope(real: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A valid export of the bench campaign's head, players and map, with no log; and a log row to copy."""
    template = next(row for row in real["log"] if row["kind"] != "sector-changed")
    envelope = {key: ([] if isinstance(value, list) else value) for key, value in real.items()}
    for key in ("co_organisers", "enrolments", "sectors"):
        envelope[key] = real[key]
    return envelope, dict(template, subject="campaign", before=None, after=None, actor=None)


def _with_log(envelope: dict[str, Any], rows: Iterator[bytes]) -> bytes:
    """``envelope`` as JSON with ``rows`` as its log (the log is its last key)."""
    rest = {key: value for key, value in envelope.items() if key != "log"}
    head = json.dumps({**rest, "log": []}, separators=(",", ":")).encode()
    assert head.endswith(b'"log":[]}')
    return head[:-2] + b",".join(rows) + b"]}"


def payload_file(envelope: dict[str, Any], template: dict[str, Any], shape: str) -> bytes:
    """Log rows holding ``shape``'s items in ``before``, as many as the request's bounds let through."""
    from exchange import limits
    from exchange.reading import json_values

    opening, closing, item, per_row = PAYLOADS[shape]
    base = _with_log(envelope, iter([]))
    size, values = len(base) + _SLACK, json_values(base) + 8
    row = json.dumps(dict(template, id=0, before="@"), separators=(",", ":")).encode()
    prefix, suffix = row.split(b'"@"')
    rows: list[bytes] = []
    n = 0
    while len(rows) < limits.MAX_LOG:
        start = prefix.replace(b'"id":0', b'"id":%d' % (len(rows) + 1))
        over = len(start) + len(suffix) + len(opening) + len(closing) + 1
        counted = json_values(start + suffix + opening) + 1
        parts: list[bytes] = []
        room, chars = limits.MAX_FILE_BYTES - size - over, 0
        left = limits.MAX_JSON_VALUES - values - counted
        while len(parts) < per_row:
            piece = item(n)
            cost, marks = len(piece) + 1, json_values(piece) + 1
            if cost > room or marks > left or chars + cost > ROW_CHARS:
                break
            parts.append(piece)
            room, left, chars, n = room - cost, left - marks, chars + cost, n + 1
        if not parts:
            break
        body = start + opening + b",".join(parts) + closing + suffix
        rows.append(body)
        size, values = size + len(body) + 1, values + json_values(body) + 1
    return _with_log(envelope, iter(rows))


def small_rows_file(envelope: dict[str, Any], template: dict[str, Any]) -> bytes:
    """As many small log rows as the bounds let through (the row count's own bound included)."""
    from exchange import limits
    from exchange.reading import json_values

    base = _with_log(envelope, iter([]))
    row = json.dumps(dict(template, id=10**6), separators=(",", ":")).encode()
    count = min(limits.MAX_LOG, (limits.MAX_FILE_BYTES - len(base) - _SLACK) // (len(row) + 1),
                (limits.MAX_JSON_VALUES - json_values(base) - 8) // (json_values(row) + 1))  # fmt: skip
    return _with_log(envelope, (row.replace(b'"id":1000000', b'"id":%d' % (n + 1)) for n in range(count)))


def scaled_file(real: dict[str, Any]) -> bytes:
    """The real export with copies of its battles, their reports and log entries, up to the first bound."""
    from exchange import limits
    from exchange.reading import json_values

    document = json.loads(json.dumps(real))
    battles, reports = real["battles"], real["reports"]
    log = [row for row in real["log"] if row["kind"] == "result-recorded"]
    copies = 0
    while True:
        top = {
            key: max([row["id"] for row in document[key]], default=0) for key in ("battles", "reports", "log")
        }
        new_battles = [dict(row, id=row["id"] + top["battles"], result_order=None) for row in battles]
        if len(document["battles"]) + len(new_battles) > limits.MAX_BATTLES:
            break
        extra = {
            "battles": new_battles,
            "reports": [dict(row, id=row["id"] + top["reports"], battle=row["battle"] + top["battles"])
                        for row in reports],
            "log": [dict(row, id=row["id"] + top["log"]) for row in log],
        }  # fmt: skip
        grown = {**document, **{key: document[key] + rows for key, rows in extra.items()}}
        text = json.dumps(grown, separators=(",", ":")).encode()
        if len(text) > limits.MAX_FILE_BYTES or json_values(text) > limits.MAX_JSON_VALUES:
            break
        document, copies = grown, copies + 1
    print(
        f"  (the real export with {copies} copies of its {len(battles):,} battles, reports and result entries)"
    )
    return json.dumps(document, separators=(",", ":")).encode()


def measure(name: str, body: bytes, user: Any) -> dict[str, Any]:
    """The request's own checks on ``body`` (refused: not admissible), then the worker in a fresh interpreter."""
    from django.core.files.base import ContentFile

    from exchange.jobs import import_start
    from exchange.reading import json_values

    job = import_start(upload=ContentFile(body, name=f"{name}.json"), user=user)
    worker = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_exchange.py"), "--run-job", str(job.pk)],
        env=os.environ, check=True, capture_output=True, text=True,
    )  # fmt: skip
    measured = json.loads(worker.stdout.strip().splitlines()[-1])
    job.refresh_from_db()
    ended = "written" if job.status == "succeeded" else ", ".join(sorted({p["code"] for p in job.problems}))
    return {"shape": name, "mb": len(body) / MB, "values": json_values(body), "ended": ended, **measured}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shape", action="append", help="measure only these shapes (repeatable)")
    args = parser.parse_args()
    bench_sqlite()
    import django

    django.setup()
    from django.core.management import call_command

    from accounts.models import User
    from exchange import limits
    from exchange.export import campaign_export

    call_command("migrate", verbosity=0)
    began = time.perf_counter()
    original = bench_standings.build("large", bench_standings.REPORTS, seed=1)
    bench_exchange.enrich(original, seed=1)
    real = campaign_export(campaign=original)
    envelope, template = _envelope(real)
    print(f"the costliest files the request admits ({limits.MAX_FILE_BYTES // MB} MB, "
          f"{limits.MAX_JSON_VALUES:,} values); set up in {time.perf_counter() - began:.0f} s")  # fmt: skip
    makers: dict[str, Callable[[], bytes]] = {
        name: partial(payload_file, envelope, template, name) for name in PAYLOADS
    }
    makers["small log rows"] = lambda: small_rows_file(envelope, template)
    makers["the real export"] = lambda: json.dumps(real, separators=(",", ":")).encode()
    makers["the real export scaled up"] = lambda: scaled_file(real)
    found = []
    for number, (name, make) in enumerate(makers.items()):
        if args.shape and name not in args.shape:
            continue
        body = make()
        found.append(measure(name, body, User.objects.create_user(username=f"importer{number}")))
        del body
        row = found[-1]
        print(f"  {row['shape']:<34} {row['mb']:5.1f} MB {row['values']:>10,} values   peak {row['peak_mb']:4.0f} MB"
              f"   {row['seconds']:5.1f} s   {row['ended']}", flush=True)  # fmt: skip
    worst = max(found, key=lambda row: row["peak_mb"])
    print(f"worst: {worst['shape']}, peak {worst['peak_mb']:.0f} MB (the worker {worst['baseline_mb']:.0f} MB "
          f"before it); budget {MEMORY_BUDGET_MB} MB")  # fmt: skip
    return 0 if worst["peak_mb"] <= MEMORY_BUDGET_MB else 1


if __name__ == "__main__":
    sys.exit(main())
