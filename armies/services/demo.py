"""The demo catalogue and demo lists that `make run` shows (invented data, written by the project)."""

from __future__ import annotations

from pathlib import Path

from accounts.models import User
from armies.models import ArmyList, Catalogue
from armies.services import army_lists as lists
from armies.services.army_lists import entry_document
from armies.services.catalogue_import import catalogue_import_from_paths

DEMO_CATALOGUE_PATH = Path(__file__).resolve().parents[1] / "demo" / "catalogue.json"


def demo_catalogue_load() -> Catalogue:
    summary = catalogue_import_from_paths(paths=[DEMO_CATALOGUE_PATH])
    return Catalogue.objects.get(pk=summary.catalogue_id)


def _list(catalogue: Catalogue, name: str, bloc: str, limit: int, **rest: object) -> dict[str, object]:
    return {
        "format": "zverograd-army-list", "version": 1, "name": name, "bloc": bloc, "faction": None,
        "points_limit": limit, "catalogue_version": catalogue.version, "role": None, "entries": [],
        "platoons": [], "fortifications": [], **rest,
    }  # fmt: skip


def demo_documents(catalogue: Catalogue) -> dict[str, list[dict[str, object]]]:
    """Lists per demo username: legal ones for the demo campaign's players, and one that breaks several rules."""
    raiders = _list(
        catalogue, "Coastal Raiders landing party", "Allies", 50, faction="coastal-raiders",
        entries=[
            entry_document("e1", "allies.gulfport-marine-squad"),
            entry_document("e2", "allies.gulfport-assault-squad"),
            entry_document("e3", "allies.wren-calloway", joined_to="e1"),
            entry_document("e4", "allies.jude-calloway", joined_to="e1"),
            entry_document("e5", "allies.gulfport-marine-squad"),
            entry_document("e6", "allies.prairie-dog"),
        ],
    )  # fmt: skip
    volga = _list(
        catalogue, "Volga shock group", "SSU", 60,
        entries=[
            entry_document("e1", "ssu.volga-rifle-squad"),
            entry_document("e2", "ssu.commissar-yelena-orlova", joined_to="e5"),
            entry_document("e3", "ssu.volga-close-assault-squad", reserve=True),
            entry_document("e4", "ssu.medved"),
            entry_document("e5", "ssu.taiga-scout-squad"),
        ],
    )  # fmt: skip
    broken = _list(
        catalogue, "Overloaded Grauwolf column (has problems)", "Axis", 40, role="attacker",
        entries=[
            entry_document("e1", "axis.grauwolf-rifle-squad"),
            entry_document("e2", "axis.oberst-kalt", joined_to="e1"),
            entry_document("e3", "axis.oberst-kalt"),
            entry_document("e4", "allies.prairie-dog", captured=True),
            entry_document("e5", "ssu.medved", captured=True),
            entry_document("e6", "axis.donnerkeil"),
        ],
        fortifications=[{"id": "f1", "kind": "bunker", "unit": None}],
    )  # fmt: skip
    return {
        "anna": [raiders],
        "boris": [volga],
        "karl": [
            broken,
            _simple(
                catalogue,
                "Grauwolf patrol",
                "Axis",
                "axis.grauwolf-command-squad",
                "axis.grauwolf-rifle-squad",
                "axis.keiler",
            ),
        ],
        **_campaign_lists(catalogue),
    }


def _simple(catalogue: Catalogue, name: str, bloc: str, *units: str) -> dict[str, object]:
    entries = [entry_document(f"e{n}", unit) for n, unit in enumerate(units, start=1)]
    return _list(catalogue, name, bloc, 150, entries=entries)


def _campaign_lists(catalogue: Catalogue) -> dict[str, list[dict[str, object]]]:
    """One legal list for each of the other players of the demo campaign."""
    plans = {
        "mila": ("Ridgeback fire base", "Allies", "allies.ridgeback-command-squad", "allies.prairie-dog",
                 "allies.ridgeback-mortar-team"),
        "tom": ("Iron Prairie spearhead", "Allies", "allies.ironside-heavy-squad", "allies.longhorn"),
        "dmitri": ("Volga breakthrough", "SSU", "ssu.volga-rifle-squad", "ssu.volga-close-assault-squad",
                   "ssu.zubr"),
        "ivan": ("Taiga eyes", "SSU", "ssu.taiga-scout-squad", "ssu.volga-rifle-squad", "ssu.strekoza"),
        "greta": ("Eisenwacht wall", "Axis", "axis.eisenhund-heavy-squad", "axis.barwolf-nordlicht"),
        "otto": ("Sturmfalke strike", "Axis", "axis.sturmfalke-jump-squad", "axis.grauwolf-rifle-squad",
                 "axis.nachtfalke"),
    }  # fmt: skip
    return {user: [_simple(catalogue, name, bloc, *units)] for user, (name, bloc, *units) in plans.items()}


def demo_lists_create(*, catalogue: Catalogue, users: dict[str, User]) -> int:
    """Create the demo lists that do not exist yet (matched by owner and name); returns how many."""
    created = 0
    for username, documents in demo_documents(catalogue).items():
        owner = users[username]
        for document in documents:
            if ArmyList.objects.filter(owner=owner, name=document["name"]).exists():
                continue
            lists.army_list_import(owner=owner, document=document, catalogue=catalogue)
            created += 1
    return created
