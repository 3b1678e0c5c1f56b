"""Fixtures for the whole suite: the three personas, API clients, services and the browser.

The personas are the ones every permission test uses: the campaign's organiser,
a player enrolled in it, and a stranger with an account but no part in it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from accounts.models import User
from armies.blocs import Bloc
from armies.models import Catalogue
from armies.services.demo import DEMO_CATALOGUE_PATH, demo_catalogue_load
from campaign.models import Campaign, Enrolment
from campaign.options import Status
from campaign.services.map import campaign_map_load
from tests.factories import CampaignFactory, EnrolmentFactory, UserFactory

PASSWORD = "correct-horse-battery"
ROOT = Path(__file__).resolve().parents[1]
DEMO_CATALOGUE = DEMO_CATALOGUE_PATH
# The community BattleScribe data has no licence: it is read where the workplace keeps
# it, beside the repository, never copied in.
BSDATA_DIR = Path(
    os.environ.get("ZVEROGRAD_BSDATA_DIR") or ROOT.parent / "shared" / "data" / "bsdata-dust1947"
)

# CI explores the same examples on every run, so a red build is reproducible; on a
# developer's machine hypothesis keeps searching with fresh examples.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI", "").lower() == "true":
    hypothesis_settings.load_profile("ci")


def services_required() -> bool:
    """Under the CI test command a missing service is a failure, never a skip."""
    return os.environ.get("ZVEROGRAD_REQUIRE_SERVICES") == "1" or os.environ.get("CI", "").lower() == "true"


def need(condition: bool, what: str) -> None:
    if condition:
        return
    if services_required():
        pytest.fail(f"{what} is required under CI=true but is not available", pytrace=False)
    pytest.skip(f"{what} is not available (run `make test` with CI=true to require it)")


@pytest.fixture(autouse=True)
def fresh_request_counts() -> Iterator[str]:
    """Each test counts requests afresh: DRF's throttles and the rate limits start at zero.

    The ``default`` cache is shared by every process (files, or Redis under CI), so the
    counts would outlive a test. Emptying it is no answer: on Redis ``clear()`` flushes the
    whole database, the Celery broker's queues with it. Each test gets a key prefix of its
    own instead (returned, for a test that hands it to another process).
    """
    cache = caches["default"]
    before = cache.key_prefix
    cache.key_prefix = f"{before}test-{uuid.uuid4().hex[:12]}"
    yield cache.key_prefix
    cache.key_prefix = before


@pytest.fixture
def organiser(db: None) -> User:
    return UserFactory(username="olga", display_name="Olga")


@pytest.fixture
def campaign(organiser: User) -> Campaign:
    return CampaignFactory(name="Siege of the Tractor Works", organiser=organiser)


@pytest.fixture
def player(campaign: Campaign) -> User:
    user = UserFactory(username="pavel", display_name="Pavel")
    EnrolmentFactory(campaign=campaign, player=user, bloc=Bloc.SSU)
    return user


@pytest.fixture
def stranger(db: None) -> User:
    return UserFactory(username="sasha", display_name="Sasha")


def bsdata_files() -> list[Path]:
    """The BattleScribe game system and catalogues; missing data fails under CI, else skips."""
    files = sorted(p for p in BSDATA_DIR.glob("*") if p.suffix in {".gst", ".cat"})
    need(bool(files), f"the BattleScribe test data in {BSDATA_DIR}")
    return files


@pytest.fixture
def demo_catalogue(db: None) -> Catalogue:
    """The project's demo catalogue, imported the way `make run` imports it."""
    return demo_catalogue_load()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def api_as() -> Any:
    def make(user: User) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    return make


def _database_url_of_the_test_database() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    user = quote(db["USER"] or "")
    password = f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else ""
    return f"postgres://{user}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def start_celery_worker(
    extra_env: Mapping[str, str] | None = None, include: Sequence[str] = ()
) -> subprocess.Popen[bytes]:
    """A separate Celery worker process on the test database and broker.

    ``extra_env`` is added to its environment; ``include`` names modules it imports as it starts (Celery's
    ``--include``): test-only hooks such as ``tests.worker_hooks``, which the site never loads.
    """
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": _database_url_of_the_test_database(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "CELERY_RESULT_BACKEND": settings.CELERY_RESULT_BACKEND,
        "ZVEROGRAD_EMBEDDED_BROKER_DIR": str(settings.EMBEDDED_BROKER_DIR),
        **(extra_env or {}),
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--loglevel=WARNING",
            f"--hostname=test-{uuid.uuid4().hex[:8]}@%h",
            "--without-gossip",
            "--without-mingle",
            *(f"--include={module}" for module in include),
        ],
        cwd=ROOT,
        env=env,
    )


def stop_celery_worker(proc: subprocess.Popen[bytes]) -> None:
    """A warm shutdown; killed if it has not ended in 30 s (a task stuck mid-way must not outlive the test)."""
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=30)


@pytest.fixture
def celery_worker_process(transactional_db: None) -> Iterator[subprocess.Popen[bytes]]:
    proc = start_celery_worker()
    yield proc
    stop_celery_worker(proc)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = os.environ.get("ZVEROGRAD_CHROMIUM", "/usr/bin/chromium")
    need(Path(path).exists() or shutil.which(path) is not None, f"Chromium at {path}")
    return path


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


# --- campaigns ready to play (used by the campaign and battles tests) ---------------------------------


@pytest.fixture
def open_campaign(campaign: Campaign, organiser: User, demo_catalogue: Any) -> Campaign:
    """The shared ``campaign`` with the demo catalogue and the default map, open for registration."""
    campaign.catalogue = demo_catalogue
    campaign.catalogue_version = demo_catalogue.version
    campaign.save()
    campaign_map_load(campaign=campaign, actor=organiser)
    Campaign.objects.filter(pk=campaign.pk).update(status=Status.REGISTRATION)
    campaign.refresh_from_db()
    return campaign


@pytest.fixture
def make_player(campaign: Campaign) -> Any:
    def make(name: str, bloc: str = Bloc.AXIS, **extra: Any) -> Enrolment:
        return EnrolmentFactory(campaign=campaign, player=UserFactory(username=name), bloc=bloc, **extra)

    return make


@pytest.fixture
def running_campaign(open_campaign: Campaign) -> Campaign:
    """``open_campaign`` running, with two admitted players in each bloc (a1, a2, s1, s2, x1, x2)."""
    for name, bloc in (("a1", Bloc.ALLIES), ("a2", Bloc.ALLIES), ("s1", Bloc.SSU), ("s2", Bloc.SSU),
                       ("x1", Bloc.AXIS), ("x2", Bloc.AXIS)):  # fmt: skip
        EnrolmentFactory(campaign=open_campaign, player=UserFactory(username=name), bloc=bloc)
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.RUNNING)
    open_campaign.refresh_from_db()
    return open_campaign


@pytest.fixture
def place(running_campaign: Campaign) -> Any:
    def find(username: str) -> Enrolment:
        return running_campaign.enrolments.get(player__username=username)

    return find
