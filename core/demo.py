"""Demo data, contributed by each app: ``manage.py seed_demo`` runs every app's ``seed`` module.

An app that has demo data ships ``<app>/seed.py`` with ``seed_demo(data: DemoData)``.
They run in ``INSTALLED_APPS`` order (accounts before armies before campaign
before battles), each reading what the earlier ones made from ``data``, so core
needs to know no feature app. Every seeder is idempotent: running the command
again changes nothing.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db import transaction

SEED_MODULE = "seed"


@dataclass
class DemoData:
    """What the seeders share: the demo users by username, named objects, and lines to print."""

    users: dict[str, Any] = field(default_factory=dict)
    objects: dict[str, Any] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)


def demo_seeders() -> list[str]:
    """The modules that contribute demo data, in the order they run."""
    found = []
    for config in apps.get_app_configs():
        name = f"{config.name}.{SEED_MODULE}"
        if importlib.util.find_spec(name) is not None:
            found.append(name)
    return found


@transaction.atomic
def demo_data_seed() -> DemoData:
    data = DemoData()
    for name in demo_seeders():
        importlib.import_module(name).seed_demo(data)
    return data
