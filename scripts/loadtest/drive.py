"""The campaign night's traffic: requests started on a fixed schedule whatever the latency (an open model),
with a small asyncio HTTP/1.1 client (one connection per request, as a buffering proxy talks to gunicorn).

Every request goes to 127.0.0.1 as a TLS proxy would pass it on (`X-Forwarded-Proto: https`, which the
production settings trust), with the user's session cookie; writes carry the CSRF cookie, its header and
the site's own Origin, as the browser's would. A poll answered 200 with an ETag or a Last-Modified date is
asked again with them, as a browser's cache does, so a 304 counts as the cheap answer it is.
"""

from __future__ import annotations

import asyncio
import html
import json
import math
import random
import re
import secrets
import string
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from loadtest.plan import MIX, Sample, error_of, kinds

HOST = "127.0.0.1"
# What the status line polls next (the versions it shows), as the page's hx-get carries it.
SEEN = re.compile(rb'standings/status/\?([^"]*)"')
POLLS = frozenset({"status", "bell"})
TRIVIAL = "/api/accounts/me/"
REPORT = {
    "fortification": "none", "turns": 6, "ending": "turn_limit", "conceded_by": None,
    "attacker": {"lost": [], "reserves": [], "objective": False, "scenario_vp": 0},
    "defender": {"lost": ["e1"], "reserves": [], "objective": False, "scenario_vp": 0},
}  # fmt: skip


def refuse_other_hosts(host: str) -> str:
    """The load test only ever talks to this machine."""
    if host != HOST:
        raise SystemExit(f"the load test drives {HOST} only, not {host!r}")
    return host


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


def _dechunk(body: bytes) -> bytes:
    out, rest = bytearray(), body
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out += rest[:size]
        rest = rest[size + 2 :]
    return bytes(out)


async def fetch(port: int, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> Answer:
    """One request on a connection of its own, read to the end."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close",
                "X-Forwarded-Proto: https", *(f"{k}: {v}" for k, v in headers.items())]  # fmt: skip
        if body or method == "POST":
            head.append(f"Content-Length: {len(body)}")
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        raw = await reader.read()
    finally:
        writer.close()
    top, _, content = raw.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    found = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    if found.get("transfer-encoding", "").lower() == "chunked":
        content = _dechunk(content)
    return Answer(int(lines[0].split()[1]), found, content)


def csrf_secret() -> str:
    return "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))


@dataclass
class Night:
    """One campaign of the world and what the traffic has learnt about it."""

    port: int
    campaign: dict[str, Any]
    timeout: float
    rng: random.Random = field(default_factory=lambda: random.Random(19))
    seen: str = (
        ""  # the query the status line polls with (the versions it shows), as the page's hx-get carries it
    )
    cache: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)
    csrf: dict[str, str] = field(default_factory=dict)
    samples: list[Sample] = field(default_factory=list)
    last_confirmation: float = 0.0
    unreported: deque[dict[str, Any]] = field(default_factory=deque)

    def __post_init__(self) -> None:
        self.unreported.extend(self.campaign["battles"])

    def headers(self, session: str, write: bool = False) -> dict[str, str]:
        token = self.csrf.setdefault(session, csrf_secret())
        headers = {"Cookie": f"sessionid={session}; csrftoken={token}"}
        if write:
            headers |= {"X-CSRFToken": token, "Origin": f"https://{HOST}:{self.port}",
                        "Content-Type": "application/json", "Accept": "application/json"}  # fmt: skip
        return headers

    def record(self, kind: str, started: float, status: int, exception: str = "") -> None:
        now = time.monotonic()
        self.samples.append(Sample(kind, now - started, status, error_of(status, exception), finished=now))

    async def timed(self, kind: str, started: float, method: str, path: str, session: str,
                    body: Any = None) -> Answer | None:  # fmt: skip
        """Send one request and record its sample, its latency counted from ``started`` (its schedule)."""
        headers = self.headers(session, write=method == "POST")
        remembered = self.cache.get((session, path), {}) if kind in POLLS else {}
        if kind in POLLS:
            headers["HX-Request"] = "true"
            if "etag" in remembered:
                headers["If-None-Match"] = remembered["etag"]
            if "last-modified" in remembered:
                headers["If-Modified-Since"] = remembered["last-modified"]
        data = json.dumps(body).encode() if body is not None else b""
        try:
            answer = await asyncio.wait_for(fetch(self.port, method, path, headers, data), self.timeout)
        except TimeoutError:
            self.record(kind, started, 0, "timeout")
            return None
        except (OSError, ValueError, IndexError):
            self.record(kind, started, 0, "connection")
            return None
        self.record(kind, started, answer.status)
        if kind in POLLS and answer.status == 200:
            kept: dict[str, str] = {
                k: answer.headers[k] for k in ("etag", "last-modified") if k in answer.headers
            }
            if kept:
                self.cache[(session, path)] = kept
        return answer

    async def one(self, kind: str, started: float) -> None:
        c = self.campaign
        player = self.rng.choice(c["players"])
        base = f"/campaigns/{c['id']}"
        if kind == "status":
            answer = await self.timed(kind, started, "GET", f"{base}/standings/status/?{self.seen}", player)
            found = SEEN.search(answer.body) if answer is not None else None
            if found:
                self.seen = html.unescape(found.group(1).decode())
        elif kind == "bell":
            await self.timed(kind, started, "GET", "/notifications/bell/", player)
        elif kind == "battle":
            await self.timed(
                kind, started, "GET", f"{base}/battles/{self.rng.choice(c['battles'])['id']}/", player
            )
        elif kind == "standings":
            await self.timed(kind, started, "GET", f"{base}/standings/", player)
        elif kind == "round":
            await self.timed(kind, started, "GET", f"{base}/rounds/1/", player)
        elif kind == "campaign":
            await self.timed(kind, started, "GET", f"{base}/", player)
        elif kind == "dashboard":
            await self.timed(kind, started, "GET", f"{base}/dashboard/", c["organiser"])
        elif kind == "report":
            await self.report(started)
        else:
            raise ValueError(f"no such kind of request: {kind}")

    async def report(self, started: float) -> None:
        """Report the next unreported battle as its attacker, then confirm it as its defender."""
        if not self.unreported:
            self.record("report", started, 0, "no-battle-left")
            return
        battle = self.unreported.popleft()
        players = self.campaign["players"]
        path = f"/api/campaigns/{self.campaign['id']}/battles/{battle['id']}/report/"
        body = {**REPORT, "attacker_registration": battle["attacker_registration"],
                "defender_registration": battle["defender_registration"]}  # fmt: skip
        answer = await self.timed("report", started, "POST", path, players[battle["attacker"]], body)
        if answer is None or answer.status != 201:
            return
        confirmed = await self.timed(
            "confirm", time.monotonic(), "POST", f"{path}confirm/", players[battle["defender"]]
        )
        if confirmed is not None and confirmed.status == 200:
            self.last_confirmation = time.monotonic()

    async def standings_status(self) -> dict[str, Any]:
        path = f"/api/campaigns/{self.campaign['id']}/standings/status/"
        headers = {**self.headers(self.campaign["organiser"]), "Accept": "application/json"}
        answer = await asyncio.wait_for(fetch(self.port, "GET", path, headers), self.timeout)
        if answer.status != 200:
            raise RuntimeError(f"the standings status answered {answer.status}")
        return dict(json.loads(answer.body))


async def trivial_cost(night: Night, gunicorn_cpu: Callable[[], float], count: int = 200) -> float:
    """gunicorn's CPU in ms for a trivial signed-in answer (a player's own account through the API), asked
    one at a time in the same run as the mix: the yardstick that makes the mix's cost comparable from one
    machine to another (issue 26)."""
    session = night.campaign["players"][0]
    headers = {**night.headers(session), "Accept": "application/json"}
    for _ in range(20):  # every worker and thread warm
        await asyncio.wait_for(fetch(night.port, "GET", TRIVIAL, headers), night.timeout)
    before = gunicorn_cpu()
    for _ in range(count):
        answer = await asyncio.wait_for(fetch(night.port, "GET", TRIVIAL, headers), night.timeout)
        if answer.status != 200:
            raise RuntimeError(f"the trivial answer {TRIVIAL} answered {answer.status}")
    return (gunicorn_cpu() - before) * 1000 / count


async def run_schedule(night: Night, offsets: list[float], chosen: list[str]) -> float:
    """Start each request at its offset from now, whatever the ones before it are doing; wait for all.
    Returns how late (ms) the client started a request behind its schedule, at worst."""
    began, late, tasks = time.monotonic(), 0.0, []
    for offset, kind in zip(offsets, chosen, strict=True):
        due = began + offset
        wait = due - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        late = max(late, time.monotonic() - due)
        tasks.append(asyncio.create_task(night.one(kind, due)))
    await asyncio.gather(*tasks)
    return late * 1000


def reads_only(count: int) -> list[str]:
    """The mix without its writes, for warming up: a warm-up must not use up the step's battles."""
    return kinds(count, {kind: weight for kind, weight in MIX.items() if kind != "report"})


async def fresh_after(night: Night, bound: float) -> float | None:
    """Seconds from the step's last confirmation until the standings status says the standings are at the
    campaign's results version; None if not within ``bound`` seconds, NaN if the step confirmed nothing."""
    if not night.last_confirmation:
        return math.nan
    since = night.last_confirmation
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        status = await night.standings_status()
        if (
            status["computed"]
            and not status["pending"]
            and status["standings_version"] == status["results_version"]
        ):
            return time.monotonic() - since
        await asyncio.sleep(0.1)
    return None
