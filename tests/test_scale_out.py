"""Scale out: two web processes and two workers sharing one PostgreSQL and one Redis serve one campaign night.

The test starts two gunicorn servers (``config/gunicorn.conf.py``) on two free ports and two Celery
workers with different names, all with production's settings (``tests/scale_out_settings.py``) on the
test database and the test Redis, as a load balancer's machines would run, and then sends each step of a
player's evening to one and the next step to the other: nothing a process keeps to itself may matter
(sessions, throttles, progress, uploads). The servers are reached over plain HTTP with
``X-Forwarded-Proto: https``, as a TLS proxy in front of them sends it (the cookies are Secure).

Needs PostgreSQL and Redis: skipped without them, a failure under CI=true.
"""

# ruff: noqa: F811 (the battle fixtures are imported below, and named as arguments)

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
import requests
from django.conf import settings
from django.db import connection

from campaign.models import Battle, Campaign, Registration
from config.celery import app
from exchange.export import campaign_export
from tests.battles.conftest import battle, lists_of, round_one  # noqa: F401
from tests.conftest import PASSWORD, _database_url_of_the_test_database, need

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[1]
SIGN_UPS_PER_HOUR = 4
START_SECONDS = 60.0
WAIT_SECONDS = 30.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Web:
    """One gunicorn server, as the load balancer reaches it."""

    name: str
    port: int
    process: subprocess.Popen[bytes]

    @property
    def origin(self) -> str:
        """The address the browser sees: the TLS proxy's, for this server's host and port."""
        return f"https://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@dataclass
class Visitor:
    """A browser behind the load balancer: its cookies go to whichever server answers the next request."""

    address: str = field(default_factory=lambda: f"2001:db8::{uuid.uuid4().hex[:4]}")
    cookies: dict[str, str] = field(default_factory=dict)

    def send(self, web: Web, method: str, path: str, **kwargs: Any) -> requests.Response:
        headers = {
            "X-Forwarded-Proto": "https",  # what the TLS proxy adds
            "X-Forwarded-For": self.address,  # nginx's $proxy_add_x_forwarded_for (ZVEROGRAD_PROXY_COUNT=1)
            "Origin": web.origin,
            **kwargs.pop("headers", {}),
        }
        if self.cookies:
            # Sent by hand: requests keeps Secure cookies for https addresses, and the proxy speaks http here.
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        if method != "GET" and "csrftoken" in self.cookies:
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        response = requests.request(
            method, web.url(path), headers=headers, allow_redirects=False, timeout=WAIT_SECONDS, **kwargs
        )
        for line in response.raw.headers.getlist("Set-Cookie"):
            for name, morsel in SimpleCookie(line).items():
                if morsel["max-age"] == "0":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        return response

    def log_in(self, web: Web, username: str) -> None:
        self.send(web, "GET", "/accounts/log-in/")
        form = {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": self.cookies["csrftoken"]}
        response = self.send(web, "POST", "/accounts/log-in/", data=form)
        assert response.status_code == 302, response.text[:500]
        assert "sessionid" in self.cookies


@dataclass
class Site:
    a: Web
    b: Web
    workers: dict[str, subprocess.Popen[bytes]]


def _environment(media: str) -> dict[str, str]:
    """What every process of the site is given: one database, one Redis, one media folder."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.scale_out_settings",
        "DJANGO_SECRET_KEY": "scale-out-" + "s" * 40 + uuid.uuid4().hex,
        "DATABASE_URL": _database_url_of_the_test_database(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "CELERY_RESULT_BACKEND": settings.CELERY_RESULT_BACKEND,
        "ZVEROGRAD_MEDIA_ROOT": media,
        "ZVEROGRAD_PROXY_COUNT": "1",
        "ZVEROGRAD_THROTTLE_SIGN_UP": f"{SIGN_UPS_PER_HOUR}/hour",
        "ZVEROGRAD_WEB_WORKERS": "1",
        "ZVEROGRAD_WORKER_CONCURRENCY": "1",
    }


def _gunicorn(name: str, env: dict[str, str]) -> Web:
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "-c", "config/gunicorn.conf.py"]
    process = subprocess.Popen(command, cwd=ROOT, env={**env, "ZVEROGRAD_WEB_BIND": f"127.0.0.1:{port}"})
    return Web(name, port, process)


def _worker(name: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", f"--hostname={name}",
               "--loglevel=WARNING", "--without-gossip", "--without-mingle"]  # fmt: skip
    return subprocess.Popen(command, cwd=ROOT, env=env)


def wait_until(condition: Callable[[], bool], what: str, site: Site | None = None) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if condition():
            return
        if site is not None:
            gone = [p.args for p in (site.a.process, site.b.process, *site.workers.values()) if p.poll()]
            assert not gone, f"a process of the site exited before {what}: {gone}"
        time.sleep(0.2)
    pytest.fail(f"{what} did not happen within {START_SECONDS:.0f}s", pytrace=False)


def _answers(web: Web) -> bool:
    try:
        # As the proxy sends it: over plain http the site redirects to https, which gunicorn does not speak.
        answer = requests.get(web.url("/api/health/"), headers={"X-Forwarded-Proto": "https"}, timeout=10)
        return answer.status_code in (200, 503)
    except requests.RequestException:  # not listening yet, or still loading the site
        return False


def _workers_answering() -> set[str]:
    return {name for reply in app.control.ping(timeout=1.0) for name in reply}


@pytest.fixture
def site(transactional_db: None) -> Iterator[Site]:
    need(
        connection.vendor == "postgresql" and not settings.BROKER_IS_EMBEDDED,
        f"PostgreSQL and Redis (database {connection.vendor}, broker {settings.CELERY_BROKER_URL})",
    )
    app.control.purge()  # earlier tests' messages are not this site's work
    media = tempfile.mkdtemp(prefix="zverograd-scale-media-")
    env = _environment(media)
    names = [f"scale-{letter}-{uuid.uuid4().hex[:6]}@127.0.0.1" for letter in "ab"]
    started = Site(_gunicorn("A", env), _gunicorn("B", env), {name: _worker(name, env) for name in names})
    try:
        wait_until(lambda: _answers(started.a) and _answers(started.b), "both web servers answered", started)
        wait_until(lambda: set(names) <= _workers_answering(), "both workers answered a ping", started)
        yield started
    finally:
        for process in (started.a.process, started.b.process, *started.workers.values()):
            process.terminate()
        for process in (started.a.process, started.b.process, *started.workers.values()):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=30)


def test_two_web_servers_and_two_workers_serve_one_campaign_night_together(
    site: Site, battle: Battle, lists_of: dict[str, Registration]
) -> None:
    campaign, attacker, defender = battle.campaign, battle.attacker.player, battle.defender.player
    assert attacker is not None
    assert defender is not None

    # A session made by A is B's too: it lives in the shared Redis and the database, signed with the key both share.
    x1 = Visitor()
    x1.log_in(site.a, attacker.username)
    me = x1.send(site.b, "GET", "/api/accounts/me/")
    assert me.status_code == 200, f"B did not know A's session: {me.status_code}"
    assert me.json()["username"] == attacker.username

    # Reported through A, confirmed through B by the opponent, who logged in through B.
    report = f"/api/campaigns/{campaign.pk}/battles/{battle.pk}/report/"
    body = {
        "attacker_registration": lists_of["attacker"].pk, "defender_registration": lists_of["defender"].pk,
        "fortification": "none", "turns": 6, "ending": "turn_limit", "conceded_by": None,
        "attacker": {"lost": [], "reserves": [], "objective": False, "scenario_vp": 0},
        "defender": {"lost": ["e1"], "reserves": [], "objective": False, "scenario_vp": 0},
    }  # fmt: skip
    submitted = x1.send(site.a, "POST", report, json=body)
    assert submitted.status_code == 201, submitted.text[:500]
    a1 = Visitor()
    a1.log_in(site.b, defender.username)
    confirmed = a1.send(site.b, "POST", f"{report}confirm/")
    assert (confirmed.status_code, confirmed.json()["status"]) == (200, "confirmed"), confirmed.text[:500]

    # One of the workers recomputes the standings; both servers show them.
    status = f"/api/campaigns/{campaign.pk}/standings/status/"

    def counted_everywhere() -> bool:
        return all(x1.send(web, "GET", status).json()["reports_counted"] == 1 for web in (site.a, site.b))

    wait_until(counted_everywhere, "the standings counted the confirmed report on both servers", site)

    # A throttle counts one caller's requests on both servers together: the limit falls at the sum.
    caller = Visitor()
    codes = [caller.send(web, "POST", "/api/accounts/sign-up/", json={}).status_code
             for web in [site.a, site.b] * SIGN_UPS_PER_HOUR][: SIGN_UPS_PER_HOUR + 2]  # fmt: skip
    assert codes == [400] * SIGN_UPS_PER_HOUR + [429, 429]
    assert Visitor().send(site.b, "POST", "/api/accounts/sign-up/", json={}).status_code == 400

    # An upload posted to A waits in the shared media folder for a worker; its progress is read through B.
    document = json.dumps(campaign_export(campaign=Campaign.objects.get(pk=campaign.pk))).encode()
    accepted = x1.send(site.a, "POST", "/api/campaigns/imports/",
                       files={"file": ("export.json", document, "application/json")})  # fmt: skip
    assert accepted.status_code == 202, accepted.text[:500]
    job = f"/api/campaigns/imports/{accepted.json()['id']}/"
    seen: list[dict[str, Any]] = []

    def finished() -> bool:
        seen.append(x1.send(site.b, "GET", job).json())
        return seen[-1]["status"] in ("succeeded", "failed")

    wait_until(finished, "the import finished", site)
    assert (seen[-1]["status"], seen[-1]["progress"]) == ("succeeded", 100), seen[-1]
    made = Campaign.objects.get(pk=seen[-1]["campaign"])
    assert (made.organiser_id, made.battles.count()) == (attacker.pk, 1)
