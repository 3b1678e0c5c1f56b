"""The actor every permission predicate takes.

Who may do what is decided by each app's own ``permissions`` module
(``armies.permissions``, ``campaign.permissions``, ``battles.permissions``);
core only names the type of the one who asks: a logged-in user or an
anonymous visitor.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser, AnonymousUser

Actor = AbstractUser | AnonymousUser
