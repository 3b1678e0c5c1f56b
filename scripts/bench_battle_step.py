"""Benchmark: a battle session's step through the whole stack, and the phones' poll (issue 20).

A session of the 6-turn battle of scripts/bench_battle_replay.py (two 200 AP lists of eleven units,
RtZ, played by random legal steps preferring attacks) is stored with all but its last ``--tail`` steps
behind it; those are then sent one at a time through the API (``POST /api/battle-sessions/<id>/steps/``
with the version each follows, Django's test client, the one-phone player logged in), answered with the
whole session (cards, log, legal steps). Timed twice: with the state kept in the process (the usual
case: the previous step left it there), and with the process's cache emptied before each step (a
worker that never saw the session: the state replayed from the stored steps). Then the version poll
with nothing changed (If-None-Match: a 304). Targets: step median < 50 ms; poll median < 10 ms.

    .venv/bin/python scripts/bench_battle_step.py [--tail 40] [--postgres]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bench_battle_replay  # noqa: E402
from benchenv import bench_database, django_migrated  # noqa: E402

STEP_TARGET_MS, POLL_TARGET_MS = 50.0, 10.0


def stored_session(setup_data: dict[str, Any], steps: list[dict[str, Any]], user: Any) -> Any:
    from battles.sessions.models import BattleSession, SessionStep

    session = BattleSession.objects.create(
        setup=setup_data, code="BENCH2", attacker_player=user, defender_player=user, created_by=user,
        version=len(steps),
    )  # fmt: skip
    SessionStep.objects.bulk_create(
        SessionStep(
            session=session, number=i, data=data, side=data["by"], sent_by=user, seed=data.get("seed")
        )
        for i, data in enumerate(steps, 1)
    )
    return session


def timed_steps(client: Any, session: Any, steps: list[dict[str, Any]], *, cold: bool) -> list[float]:
    from battles.sessions import live

    times = []
    for number, step in enumerate(steps, session.version + 1):
        if cold:
            live.forget_all()
        body = json.dumps({"expected": number - 1, "step": step})
        start = time.perf_counter()
        answer = client.post(
            f"/api/battle-sessions/{session.pk}/steps/", body, content_type="application/json"
        )
        times.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 200, answer.content[:300]
    return times


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tail", type=int, default=40, help="steps sent through the API (each way)")
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    with bench_database(args.postgres) as engine_name:
        django_migrated()
        from django.test import Client

        from accounts.models import User
        from battles.sessions.models import BattleSession, SessionStep
        from rules.engine import battle

        data = bench_battle_replay.setup_data(rtz=True)
        setup = battle.setup_from_dict(data)
        steps = [battle.step_to_dict(step) for step in bench_battle_replay.play(battle, setup, seed=20)]
        user = User.objects.create_user(username="bench-player", email="bench@example.org", password="x" * 12)
        client = Client()
        client.force_login(user)
        results = {}
        for cold in (False, True):
            behind, tail = steps[: -args.tail], steps[-args.tail :]
            SessionStep.objects.all().delete()
            BattleSession.objects.all().delete()
            session = stored_session(data, behind, user)
            client.get(f"/api/battle-sessions/{session.pk}/")  # the state replayed once, as a phone opens it
            results["cold" if cold else "kept"] = timed_steps(client, session, tail, cold=cold)
        url = f"/api/battle-sessions/{session.pk}/version/"
        tag = client.get(url)["ETag"]
        polls = []
        for _ in range(200):
            start = time.perf_counter()
            answer = client.get(url, HTTP_IF_NONE_MATCH=tag)
            polls.append((time.perf_counter() - start) * 1000)
            assert answer.status_code == 304
        print(
            f"{engine_name}: a battle of {len(steps)} steps, {sum(u.ap for u in setup.attacker.units)} AP a side, RtZ"
        )
        for name, times in results.items():
            print(f"step ({name}): median {statistics.median(times):.1f} ms, max {max(times):.1f} ms "
                  f"over the last {len(times)} steps (target median < {STEP_TARGET_MS:.0f} ms)")  # fmt: skip
        print(f"poll (304): median {statistics.median(polls):.2f} ms, p95 "
              f"{statistics.quantiles(polls, n=20)[18]:.2f} ms (target median < {POLL_TARGET_MS:.0f} ms)")  # fmt: skip
        ok = statistics.median(results["kept"]) < STEP_TARGET_MS and statistics.median(polls) < POLL_TARGET_MS
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
