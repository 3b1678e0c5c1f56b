"""Local development: the embedded defaults (SQLite, filesystem broker, console mail)."""

from config.env import env_bool
from config.settings.base import *  # noqa: F403

DEBUG = env_bool("DJANGO_DEBUG", True)

# Serve static files straight from the apps and static/ without collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
