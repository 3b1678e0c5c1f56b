"""The settings of the web and worker processes ``tests/test_scale_out.py`` starts: production's, with the
two changes a test needs and a real deployment never makes.

- Static files from the source folders, as the tests' settings serve them: production's manifest storage
  needs ``collectstatic`` first, and the pages would answer 500 without it.
- The tests' password hasher accepted too: the test's users are made with it (fast), production's own
  hasher comes first, so a changed password would be hashed as in production.

Everything else (secure cookies, the proxy header, the Redis cache, sessions in it and the database, persistent
connections, throttles) is production's, read from the environment the test gives each process.
"""

from config.settings.production import *  # noqa: F403
from config.settings.production import STORAGES

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.MD5PasswordHasher",
]
