"""The campaign night's world, written into the load test's database by a Django process of its own.

    python scripts/loadtest/world.py --campaigns N --out world.json   (run by scripts/load_campaign_night.py)

One 500-player campaign per step of the load test (so every step starts from the same night: 250 open
battles, none reported), each in three blocs (bench_standings' shape) on its 30-sector grid, a registered
list per player, and round 1 open with 250 scheduled battles pairing players of different blocs. The lists
are real ones on the demo catalogue, registered through the service once per bloc and copied to the bloc's
other players with bulk_create (the rest is bulk_create too), so the reports the load test submits are
judged against real lists. A logged-in session for the organiser and every player is written last; the
JSON names what the driver needs: ids, session keys, and for each battle both sides and their lists.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent.parent
ROOT = SCRIPTS.parent
sys.path[:0] = [str(ROOT), str(SCRIPTS)]

# A legal 150 AP list per bloc on the demo catalogue; each side's first entry (e1) is what a report loses.
LISTS = {
    "Allies": ("allies.gulfport-marine-squad", "allies.prairie-dog"),
    "Axis": ("axis.grauwolf-rifle-squad", "axis.keiler"),
    "SSU": ("ssu.volga-rifle-squad", "ssu.medved"),
}


def session_for(user: Any) -> str:
    """A logged-in session for ``user``, as the log-in page would leave it; returns its key."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "accounts.backends.AccountBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return str(session.session_key)


def template_registrations(campaign: Any, places: list[Any]) -> dict[str, Any]:
    """Register one real list per bloc through the services (the first player of each bloc); returns them."""
    from armies.services.army_lists import army_list_import, entry_document
    from campaign.services.registrations import army_list_register

    found = {}
    for bloc, units in LISTS.items():
        place = next(p for p in places if p.bloc == bloc)
        document = {
            "format": "zverograd-army-list",
            "version": 1,
            "name": f"{bloc} night list",
            "bloc": bloc,
            "faction": None,
            "points_limit": 150,
            "catalogue_version": campaign.catalogue.version,
            "role": None,
            "entries": [entry_document(f"e{n}", unit) for n, unit in enumerate(units, start=1)],
            "platoons": [],
            "fortifications": [],
        }
        army_list = army_list_import(owner=place.player, document=document, catalogue=campaign.catalogue)
        found[bloc] = army_list_register(enrolment=place, army_list=army_list, actor=place.player)
    return found


def build(
    number: int, catalogue: Any, password: str, *, scale: int = 1, sessions: bool = True
) -> dict[str, Any]:
    """One campaign of the night (``500 // scale`` players); returns what the driver needs of it (without
    ``sessions``, no session is written and the accounts are named by their ids instead)."""
    import bench_standings
    from django.utils import timezone

    from accounts.models import User
    from campaign.models import (
        Battle,
        BattleSource,
        BattleStatus,
        Campaign,
        Enrolment,
        EnrolmentStatus,
        Registration,
        Round,
        sides_recorded,
    )
    from campaign.options import Status
    from campaign.services.map import campaign_map_load

    name = f"night{number}"
    organiser = User.objects.create_user(username=f"{name}-olga", password=None)
    organiser.password = password
    organiser.save(update_fields=["password"])
    campaign = Campaign.objects.create(
        name=f"Campaign night {number}",
        organiser=organiser,
        points_limit=150,
        catalogue=catalogue,
        catalogue_version=catalogue.version,
    )
    campaign_map_load(campaign=campaign, actor=organiser, document=bench_standings.grid_map())
    Campaign.objects.filter(pk=campaign.pk).update(status=Status.RUNNING, current_round=1)
    campaign.refresh_from_db()
    shape = {bloc: count // scale for bloc, count in bench_standings.SHAPE.items()}
    users = User.objects.bulk_create(
        User(username=f"{name}-{bloc.lower()}{n}", password=password)
        for bloc, count in shape.items()
        for n in range(count)
    )
    blocs = [bloc for bloc, count in shape.items() for _ in range(count)]
    places = Enrolment.objects.bulk_create(
        Enrolment(campaign=campaign, player=user, bloc=bloc, status=EnrolmentStatus.ADMITTED)
        for user, bloc in zip(users, blocs, strict=True)
    )
    for place, user in zip(places, users, strict=True):
        place.player = user
    templates = template_registrations(campaign, places)
    copied = {
        "name",
        "bloc",
        "faction",
        "document",
        "catalogue_name",
        "catalogue_version",
        "profiles",
        "costs",
        "total_ap",
        "terms",
        "verdict",
    }
    registrations = {r.enrolment_id: r for r in templates.values()}
    registrations |= {
        r.enrolment_id: r
        for r in Registration.objects.bulk_create(
            Registration(
                campaign=campaign,
                enrolment=place,
                catalogue=catalogue,
                registered_by=place.player,
                **{f: getattr(templates[place.bloc], f) for f in copied},
            )
            for place in places
            if place.pk not in registrations
        )
    }
    round = Round.objects.create(campaign=campaign, number=1, deadline=timezone.now() + timedelta(days=7))
    sectors = list(campaign.sectors.order_by("position"))
    # The places are ordered by bloc, so n and n + half are of different blocs.
    half = len(places) // 2
    pairs = [(places[n], places[n + half]) for n in range(half)]
    battles = Battle.objects.bulk_create(
        Battle(
            campaign=campaign,
            round=round,
            sector=sectors[n % len(sectors)],
            attacker=a,
            defender=d,
            **sides_recorded(attacker=a, defender=d),
            mission="hold-the-line",
            points_limit=150,
            status=BattleStatus.SCHEDULED,
            source=BattleSource.PAIRING,
        )
        for n, (a, d) in enumerate(pairs)
    )
    index = {place.pk: n for n, place in enumerate(places)}
    return {
        "id": campaign.pk,
        "organiser": session_for(organiser) if sessions else organiser.pk,
        "players": [session_for(place.player) if sessions else place.player_id for place in places],
        "battles": [
            {
                "id": b.pk,
                "attacker": index[b.attacker_id],
                "defender": index[b.defender_id],
                "attacker_registration": registrations[b.attacker_id].pk,
                "defender_registration": registrations[b.defender_id].pk,
            }
            for b in battles
        ],
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--campaigns", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    import django

    django.setup()
    from django.contrib.auth.hashers import make_password

    from armies.services.demo import demo_catalogue_load

    began = time.perf_counter()
    catalogue = demo_catalogue_load()
    # One hash for every account: hashing a password 500 times would take longer than the rest.
    password = make_password(secrets.token_urlsafe(24))
    world = {"campaigns": [build(n, catalogue, password) for n in range(1, args.campaigns + 1)]}
    # A real database has statistics; a freshly filled one has none until autovacuum gets round to it,
    # and without them the planner picks the wrong index for the dashboard's counts (10-30x slower).
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    args.out.write_text(json.dumps(world))
    print(
        f"built {args.campaigns} campaign(s) of 500 players in {time.perf_counter() - began:.1f} s",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
