"""The kinds of notification, and the bounds of what one holds.

Each app registers the kinds it sends when it loads (``register_kind`` in its
``AppConfig.ready`` or at import of the module that sends them), so the
accounts app, which stores and shows notifications, knows none of them by
name: the preferences page and the API list whatever was registered, and
``accounts.services.notify`` refuses a kind nobody registered.

Plain Python: no model, no Django import, so any module may import it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KIND_MAX_LENGTH = 40
# Long enough for "Olga accepted your challenge over the Tractor Works in Siege of the ..." with room
# to spare; short enough to read in a list and a mail subject line's neighbour.
MESSAGE_MAX_LENGTH = 500
LINK_MAX_LENGTH = 300
# The most ids one "mark read" request may name: a page of the list is 25, the API's 50.
MAX_READ_IDS = 100
# The most preferences one request may set: far more kinds than the site will ever register.
MAX_PREFERENCES = 50

KIND_PATTERN = rf"^[a-z][a-z0-9-]{{0,{KIND_MAX_LENGTH - 1}}}\Z"
_KIND = re.compile(KIND_PATTERN)


@dataclass(frozen=True)
class NotificationKind:
    code: str
    label: str
    description: str = ""


_kinds: dict[str, NotificationKind] = {}


def register_kind(code: str, label: str, description: str = "") -> NotificationKind:
    """Make ``code`` a kind ``notify`` accepts and users can mute by e-mail.

    Registering the same kind again with the same words is harmless (modules
    may be imported twice); the same code with other words is a programming
    error, so two apps cannot silently share a code.
    """
    if not _KIND.match(code):
        raise ValueError(f"a notification kind is a lower-case slug of at most {KIND_MAX_LENGTH} characters")
    if not label.strip():
        raise ValueError("a notification kind needs a label")
    kind = NotificationKind(code=code, label=label, description=description)
    existing = _kinds.get(code)
    if existing is not None and existing != kind:
        raise ValueError(f"the notification kind {code!r} is already registered as {existing.label!r}")
    _kinds[code] = kind
    return kind


def notification_kinds() -> tuple[NotificationKind, ...]:
    """Every registered kind, in the order they were registered."""
    return tuple(_kinds.values())


def notification_kind(code: str) -> NotificationKind | None:
    return _kinds.get(code)
