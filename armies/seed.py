"""The demo catalogue and army lists (see core.demo)."""

from __future__ import annotations

from armies.services.demo import demo_catalogue_load, demo_lists_create
from core.demo import DemoData


def seed_demo(data: DemoData) -> None:
    catalogue = demo_catalogue_load()
    demo_lists_create(catalogue=catalogue, users=data.users)
    data.objects["catalogue"] = catalogue
