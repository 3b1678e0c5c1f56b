"""The one place that reads the process environment.

Every setting that varies between machines comes from an environment variable
read here, with a typed helper that refuses values it cannot understand. A
``.env`` file at the project root is read first when present (values already in
the environment win), so a developer can keep local overrides out of git.
"""

from __future__ import annotations

import re
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
_dotenv = BASE_DIR / ".env"
if _dotenv.is_file():
    environ.Env.read_env(str(_dotenv), overwrite=False)


class ConfigurationError(RuntimeError):
    """A setting is missing or malformed; the process must not start."""


def env_str(name: str, default: str) -> str:
    return str(env.str(name, default=default))


def env_bool(name: str, default: bool) -> bool:
    raw = env.str(name, default="").strip().lower()
    if raw == "":
        return default
    if raw in {"1", "true", "yes", "on"}:
        return True
    if raw in {"0", "false", "no", "off"}:
        return False
    raise ConfigurationError(f"{name} must be a boolean (true/false), got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = env.str(name, default="").strip()
    if raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ConfigurationError(f"{name} must be an integer, got {raw!r}") from exc


def env_seconds(name: str, default: int) -> int:
    """A duration in whole seconds, 0 or more."""
    seconds = env_int(name, default)
    if seconds < 0:
        raise ConfigurationError(f"{name} must be 0 or more seconds, got {seconds}")
    return seconds


def env_list(name: str, default: list[str]) -> list[str]:
    raw = env.str(name, default="").strip()
    if raw == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_path(name: str, default: Path) -> Path:
    """A folder: an absolute path, or one relative to the project's top folder."""
    raw = env.str(name, default="").strip()
    if raw == "":
        return default
    path = Path(raw).expanduser()
    return path if path.is_absolute() else BASE_DIR / path


RATE_PATTERN = re.compile(r"^[1-9][0-9]{0,8}/(s|sec|second|m|min|minute|h|hour|d|day)$")


def env_rate(name: str, default: str) -> str:
    """A rate as DRF's throttles write it: a count, a slash and a period (``20/hour``, ``5/minute``)."""
    raw = env.str(name, default="").strip() or default
    if not RATE_PATTERN.match(raw):
        raise ConfigurationError(f"{name} must be a rate such as 20/hour or 5/minute, got {raw!r}")
    return str(raw)


def env_optional_int(name: str) -> int | None:
    """An integer, or None when the variable is unset or empty."""
    if not env.str(name, default="").strip():
        return None
    return env_int(name, 0)


def env_required(name: str) -> str:
    raw = env.str(name, default="").strip()
    if not raw:
        raise ConfigurationError(f"{name} must be set in production")
    return str(raw)


def env_port(name: str, default: int) -> int:
    """A TCP port number, 1 to 65535."""
    port = env_int(name, default)
    if not 1 <= port <= 65535:
        raise ConfigurationError(f"{name} must be a port from 1 to 65535, got {port}")
    return port


def env_site_url(name: str, default: str) -> str:
    """An absolute http(s) address with no trailing slash, to which site paths are appended."""
    raw = env.str(name, default="").strip() or default
    if not raw.startswith(("http://", "https://")) or "?" in raw or "#" in raw:
        raise ConfigurationError(f"{name} must be an http:// or https:// address, got {raw!r}")
    return str(raw).rstrip("/")


def env_database(default: str) -> dict[str, object]:
    return dict(env.db_url_config(env_str("DATABASE_URL", default)))


def env_email(url: str) -> dict[str, object]:
    return dict(env.email_url_config(url))
