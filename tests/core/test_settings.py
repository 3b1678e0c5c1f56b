"""Production settings: refuse to start without a secret, and pass `check --deploy`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.env import (
    ConfigurationError,
    env_bool,
    env_int,
    env_optional_int,
    env_path,
    env_port,
    env_rate,
    env_site_url,
)

ROOT = Path(__file__).resolve().parents[2]
GOOD_SECRET = "k" * 20 + "-production-secret-value-that-is-long-enough-0123456789"


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True, check=False
    )


def test_it_refuses_to_start_production_without_a_secret_key():
    result = _manage("check", DJANGO_SETTINGS_MODULE="config.settings.production")

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set in production" in result.stderr


def test_it_refuses_a_short_production_secret_key():
    result = _manage("check", DJANGO_SETTINGS_MODULE="config.settings.production", DJANGO_SECRET_KEY="short")

    assert result.returncode != 0
    assert "long random value" in result.stderr


def test_it_passes_the_deployment_checklist_without_warnings():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY=GOOD_SECRET,
    )

    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def _proxies(**env: str) -> str:
    shown = "from django.conf import settings; print(settings.REST_FRAMEWORK['NUM_PROXIES'])"
    result = _manage(
        "shell", "-c", shown, DJANGO_SETTINGS_MODULE="config.settings.production", DJANGO_SECRET_KEY=GOOD_SECRET,
        **env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_it_reads_the_callers_address_from_the_proxy_in_production_not_from_the_client():
    # One proxy appends: its last entry is the caller, whatever a client wrote in the header itself.
    assert _proxies(ZVEROGRAD_PROXY_COUNT="") == "1"
    assert _proxies(ZVEROGRAD_PROXY_COUNT="2") == "2"
    assert _proxies(ZVEROGRAD_PROXY_COUNT="0") == "0"


def test_it_refuses_a_short_production_health_token():
    result = _manage(
        "check",
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY=GOOD_SECRET,
        ZVEROGRAD_HEALTH_TOKEN="guessable",
    )

    assert result.returncode != 0
    assert "ZVEROGRAD_HEALTH_TOKEN must be a long random value" in result.stderr


@pytest.mark.parametrize("value", ["20/hour", "5/minute", "1/s", "300/day"])
def test_it_reads_a_rate_as_drf_writes_it(monkeypatch, value):
    monkeypatch.setenv("ZVEROGRAD_RATE", value)

    assert env_rate("ZVEROGRAD_RATE", "1/hour") == value


@pytest.mark.parametrize("value", ["20", "20/fortnight", "0/hour", "-1/hour", "twenty/hour", "20 / hour"])
def test_it_refuses_a_malformed_rate(monkeypatch, value):
    monkeypatch.setenv("ZVEROGRAD_RATE", value)

    with pytest.raises(ConfigurationError, match="ZVEROGRAD_RATE must be a rate"):
        env_rate("ZVEROGRAD_RATE", "1/hour")


def test_it_reads_an_unset_optional_integer_as_none(monkeypatch):
    monkeypatch.delenv("ZVEROGRAD_PROXY_COUNT", raising=False)
    assert env_optional_int("ZVEROGRAD_PROXY_COUNT") is None
    monkeypatch.setenv("ZVEROGRAD_PROXY_COUNT", "1")
    assert env_optional_int("ZVEROGRAD_PROXY_COUNT") == 1


def test_it_refuses_a_malformed_boolean(monkeypatch):
    monkeypatch.setenv("ZVEROGRAD_FLAG", "perhaps")

    with pytest.raises(ConfigurationError, match="ZVEROGRAD_FLAG must be a boolean"):
        env_bool("ZVEROGRAD_FLAG", False)


def test_it_refuses_a_malformed_integer(monkeypatch):
    monkeypatch.setenv("ZVEROGRAD_NUMBER", "ten")

    with pytest.raises(ConfigurationError, match="ZVEROGRAD_NUMBER must be an integer"):
        env_int("ZVEROGRAD_NUMBER", 1)


def test_it_reads_the_sites_address_without_a_trailing_slash(monkeypatch):
    monkeypatch.setenv("ZVEROGRAD_SITE_URL", "https://zverograd.example.org/")

    assert env_site_url("ZVEROGRAD_SITE_URL", "http://localhost:8000") == "https://zverograd.example.org"


@pytest.mark.parametrize(
    "value", ["zverograd.example.org", "ftp://zverograd.example.org", "https://x.org/?a=1"]
)
def test_it_refuses_a_site_address_that_is_not_http(monkeypatch, value):
    monkeypatch.setenv("ZVEROGRAD_SITE_URL", value)

    with pytest.raises(ConfigurationError, match="ZVEROGRAD_SITE_URL must be an http"):
        env_site_url("ZVEROGRAD_SITE_URL", "http://localhost:8000")


def _media_root(**env: str) -> str:
    shown = "from django.conf import settings; print(settings.MEDIA_ROOT)"
    result = _manage("shell", "-c", shown, DJANGO_SETTINGS_MODULE="config.settings.dev", **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_it_reads_the_media_folder_from_the_environment(tmp_path):
    assert _media_root(ZVEROGRAD_MEDIA_ROOT=str(tmp_path / "shared")) == str(tmp_path / "shared")


def test_it_keeps_the_media_folder_under_var_when_unset():
    assert _media_root(ZVEROGRAD_MEDIA_ROOT="") == str(ROOT / "var" / "media")


def test_it_takes_a_relative_media_folder_from_the_projects_top(monkeypatch):
    monkeypatch.setenv("ZVEROGRAD_MEDIA_ROOT", "uploads/media")

    assert env_path("ZVEROGRAD_MEDIA_ROOT", Path("/unused")) == ROOT / "uploads" / "media"


def _site_url(**env: str) -> str:
    shown = "from django.conf import settings; print(settings.SITE_URL)"
    result = _manage("shell", "-c", shown, DJANGO_SETTINGS_MODULE="config.settings.dev", **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_it_links_mail_to_the_port_make_run_serves_on():
    assert _site_url(ZVEROGRAD_SITE_URL="", ZVEROGRAD_PORT="8123") == "http://127.0.0.1:8123"
    assert _site_url(ZVEROGRAD_SITE_URL="", ZVEROGRAD_PORT="") == "http://127.0.0.1:8000"


def test_it_prefers_the_sites_address_when_set_over_the_port():
    address = _site_url(ZVEROGRAD_SITE_URL="https://zverograd.example.org", ZVEROGRAD_PORT="8123")

    assert address == "https://zverograd.example.org"


@pytest.mark.parametrize("value", ["0", "70000", "-1"])
def test_it_refuses_a_port_out_of_range(monkeypatch, value):
    monkeypatch.setenv("ZVEROGRAD_PORT", value)

    with pytest.raises(ConfigurationError, match="ZVEROGRAD_PORT must be a port from 1 to 65535"):
        env_port("ZVEROGRAD_PORT", 8000)
