"""Every page of the demo, per viewer, for the tests that must cover every page by themselves.

The word scan (``tests/core/test_words.py``) and the accessibility walk
(``tests/core/test_browser_accessibility.py``) share this: the demo's set-up, what
each route parameter is filled with (the demo's own ids: each battle, sector,
player, list, round and challenge of the demo campaign), and the pages each
viewer reaches. The addresses are not listed by hand: every page route of the
URL conf (not the API, the admin, the health check, the downloads or log-out) is
filled in, so a page added later is walked without anyone listing it.

A viewer asks for each address as a browser would, following redirects; what
counts is the page reached (a visitor sent to the log-in page is checked on the
log-in page). Answers that are not 200 HTML (a route that only answers a POST,
a page the viewer may not see) are no page of theirs.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from django.contrib.auth.tokens import default_token_generator
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import resolve, reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import User
from armies.blocs import Bloc
from armies.models import ArmyList, Catalogue, CatalogueImport
from armies.selectors import army_list_rosz
from battles.sessions.models import BattleSession
from campaign.models import Battle, Campaign, Challenge, Enrolment, Registration, Sector
from campaign.services.players import placeholder_add, placeholder_claim_link
from exchange.models import CampaignImport, ImportStatus
from tests.urlconf import PARAMETER, filled, routes

# Routes that are not pages of the site's own words, or that only answer a POST.
SKIPPED_PREFIXES = ("api/", "admin/", "health/")
SKIPPED_SUFFIXES = (".json", ".txt", ".csv", "/export/", "/log-out/")
# Addresses a GET acts on: opening a notification marks it read and sends the reader to its subject (a page
# walked already), which would change the pages walked after it.
SKIPPED_NAMES = ("notifications:open",)

# Who looks at the demo (usernames; None is an anonymous visitor): its organiser, a player, a visitor, and the
# players whose pages the demo leaves in a state of their own (Karl keeps a list with problems, Boris has a
# challenge, Lena joined late and has a report to confirm).
VIEWERS: dict[str, str | None] = {
    "the organiser": "organiser",
    "anna": "anna",
    "a visitor": None,
    "karl": "karl",
    "boris": "boris",
    "lena": "lena",
}


# Whose password-reset link is walked: nobody who views the demo (logging in changes what the link holds).
RESET_FOR = "mila"


def demo_load() -> None:
    """The demo of ``make run`` (its campaign with two rounds, reports waiting and disputed, players and lists),
    with the rows behind the pages only a one-off link reaches: a club member's place waiting to be claimed,
    a finished catalogue import and a refused campaign import."""
    call_command("seed_demo", verbosity=0)
    campaign = Campaign.objects.get()
    organiser = campaign.organiser
    member = placeholder_add(campaign=campaign, actor=organiser, name="Vera from the club", bloc=Bloc.SSU)
    placeholder_claim_link(enrolment=member, actor=organiser)
    CatalogueImport.objects.create(
        created_by=organiser, status=CatalogueImport.Status.SUCCEEDED, progress=100, stage="done",
        catalogue=campaign.catalogue, finished_at=timezone.now(),
    )  # fmt: skip
    CampaignImport.objects.create(
        created_by=organiser, file_name="Winter campaign.json", status=ImportStatus.FAILED, finished_at=timezone.now(),
        problems=[{"field": "campaign.name", "code": "required", "message": "The campaign has no name."}],
    )  # fmt: skip


def _one_off_fillings(name: str) -> dict[str, list[str]]:
    """The keys of one-off links: invitations, claims, password resets and import jobs."""
    campaign = Campaign.objects.get()
    claims = Enrolment.objects.exclude(claim_token=None).order_by("pk").values_list("claim_token", flat=True)
    reset_for = User.objects.get(username=RESET_FOR)
    return {
        "token": [default_token_generator.make_token(reset_for)] if name == "accounts:password_reset_confirm"
        else [str(token) for token in claims] if name == "campaign:claim"
        else [str(campaign.invite_token)],
        "uidb64": [urlsafe_base64_encode(force_bytes(reset_for.pk))],
        "import_id": [str(pk) for pk in CatalogueImport.objects.values_list("pk", flat=True)],
        "job_id": [str(pk) for pk in CampaignImport.objects.values_list("pk", flat=True)],
    }  # fmt: skip


def _fillings(name: str) -> dict[str, list[str]]:
    campaign = Campaign.objects.get()
    army_lists = [str(pk) for pk in ArmyList.objects.order_by("pk").values_list("pk", flat=True)]
    return _one_off_fillings(name) | {
        # ``pk`` is the campaign's in campaign routes, a list's in the builder's, a catalogue's in its own.
        "pk": army_lists if name.startswith("armies:") and "catalogue" not in name
        else [str(pk) for pk in Catalogue.objects.values_list("pk", flat=True)] if name.startswith("armies:")
        else [str(campaign.pk)],
        "battle_id": [str(pk) for pk in Battle.objects.order_by("pk").values_list("pk", flat=True)],
        "number": [str(number) for number in range(1, campaign.current_round + 1)],
        "key": list(Sector.objects.filter(campaign=campaign).order_by("key").values_list("key", flat=True)),
        "enrolment_id": [str(pk) for pk in Enrolment.objects.order_by("pk").values_list("pk", flat=True)],
        "registration_id": [str(pk) for pk in Registration.objects.order_by("pk").values_list("pk", flat=True)],
        "challenge_id": [str(pk) for pk in Challenge.objects.order_by("pk").values_list("pk", flat=True)],
        "session_id": [str(pk) for pk in BattleSession.objects.order_by("pk").values_list("pk", flat=True)],
    }  # fmt: skip


def demo_addresses() -> dict[str, str]:
    """Every page address of the demo, with its route's name."""
    addresses: dict[str, str] = {}
    for route, name in routes():
        if route.startswith(SKIPPED_PREFIXES) or route.endswith(SKIPPED_SUFFIXES) or name in SKIPPED_NAMES:
            continue
        parameters = PARAMETER.findall(route)
        fillings = _fillings(name)
        if any(param not in fillings for _converter, param in parameters):
            continue  # answers, decisions, actions and the builder's rows: routes that only take a POST
        addresses.update(dict.fromkeys(filled(route, fillings), name))
    return dict(sorted(addresses.items()))


@dataclass(frozen=True)
class Page:
    """A page a viewer reached by asking for ``address``: ``reached`` (path and query) after any redirect."""

    address: str
    reached: str
    name: str
    html: str

    @property
    def is_document(self) -> bool:
        """A whole page, not a fragment that htmx swaps into one (those are checked inside their page)."""
        return "<html" in self.html[:500].lower()


def client_for(username: str | None) -> Client:
    client = Client()
    if username:
        client.force_login(User.objects.get(username=username))
    return client


def viewer_pages(username: str | None, addresses: dict[str, str] | None = None) -> Iterator[Page]:
    """The pages ``username`` (None: a visitor) reaches from every address of the demo, each reached once."""
    client = client_for(username)
    seen: set[str] = set()
    for address in addresses if addresses is not None else demo_addresses():
        response: Any = client.get(address, follow=True)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        reached = response.redirect_chain[-1][0] if response.redirect_chain else address
        if reached in seen:
            continue
        seen.add(reached)
        name = resolve(reached.split("?", 1)[0]).view_name
        yield Page(address=address, reached=reached, name=name, html=response.content.decode())


def _roster_a_club_would_bring() -> bytes:
    """Anna's demo list as BattleScribe would hand it back after a data revision: one unit's entry id and name
    that no catalogue of ours has, and one unit priced differently (so the import says what it did)."""
    army_list = ArmyList.objects.filter(owner__username="anna").order_by("pk").first()
    assert army_list is not None
    with zipfile.ZipFile(io.BytesIO(army_list_rosz(army_list=army_list, filename="demo.ros"))) as archive:
        xml = archive.read(archive.namelist()[0]).decode()
    selections = list(re.finditer(r'<selection [^>]*?(name="[^"]*" entryId="[^"]*")', xml))
    unknown = selections[-1].span(1)
    xml = f'{xml[: unknown[0]]}name="Leopold Sledge" entryId="0f3a-77c1-9e2b-4d10"{xml[unknown[1] :]}'
    cost = r'(<selection [^>]*>\s*<costs>\s*<cost name=" pts" typeId="points" value=")[\d.]+'
    return re.sub(cost, r"\g<1>99.0", xml, count=1).encode()


def posted_pages(username: str | None) -> Iterator[Page]:
    """The pages a viewer reaches by sending the demo's forms whose answer is a page of its own, as a club
    would send them: a roster checked by the validator and imported as a list (what the import did, in
    words), the battle session joined by its code, and a battle scheduled on a sector the attacker's own
    side holds (the refusal beside the field; only organisers reach it). The pages a viewer may not reach
    are no page of theirs."""
    client = client_for(username)
    campaign = Campaign.objects.get()
    roster = _roster_a_club_would_bring()
    session = BattleSession.objects.order_by("pk").first()
    held = Sector.objects.filter(campaign=campaign, owner=Bloc.ALLIES).order_by("key").first()
    anna, boris = (
        Enrolment.objects.get(campaign=campaign, player__username=name) for name in ("anna", "boris")
    )
    posts: list[tuple[str, dict[str, Any]]] = [
        (reverse("armies:validator"), {"file": SimpleUploadedFile("raid.ros", roster)}),
        (reverse("armies:list_import"), {"file": SimpleUploadedFile("raid.ros", roster)}),
        (reverse("battles:session-join"), {"code": session.code if session else ""}),
        (
            reverse("campaign:battle_schedule", args=[campaign.pk, campaign.current_round]),
            {"attacker": anna.pk, "defender": boris.pk, "sector": held.key if held else "", "mission": ""},
        ),
    ]
    for address, data in posts:
        response: Any = client.post(address, data, follow=True)
        if response.status_code not in (200, 400) or "text/html" not in response.get("Content-Type", ""):
            continue
        reached = response.redirect_chain[-1][0] if response.redirect_chain else address
        name = resolve(reached.split("?", 1)[0]).view_name
        yield Page(
            address=f"{address} (sent)",
            reached=f"{reached} (sent)",
            name=name,
            html=response.content.decode(),
        )


# Attributes that differ between two pages of one shape (ids, addresses, values, names): only whether each is
# there (and not empty) is part of the shape.
_SHAPELESS_ATTRIBUTES = {
    "href", "action", "value", "id", "for", "name", "content", "title", "alt", "placeholder", "src",
    "aria-label", "aria-labelledby", "aria-describedby", "aria-controls", "hx-get", "hx-post", "hx-vals",
    "hx-target", "hx-headers", "hx-include", "list", "form", "min", "max", "d", "x", "y", "x1", "x2", "y1",
    "y2", "cx", "cy", "points", "transform", "width", "height", "viewbox", "datetime",
    "selected", "checked",
}  # fmt: skip
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Shape(HTMLParser):
    """Each element as the path of tags and telling attributes that leads to it, and whether it holds text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.path: list[str] = []
        self.paths: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        kept = sorted(
            # Of an attribute that names or points, whether it is there and not empty; of the rest, its value.
            f"{key}{'' if value else '=-'}" if key in _SHAPELESS_ATTRIBUTES
            else f"{key}={' '.join(sorted((value or '').split())) if key == 'class' else value}"
            for key, value in attrs
            if not key.startswith("data-")
        )  # fmt: skip
        head = f"{tag}[{','.join(kept)}]"
        self.paths.add(" > ".join([*self.path, head]))
        if tag not in _VOID:
            self.path.append(head)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if data.strip() and self.path:
            self.paths.add(" > ".join([*self.path, "text"]))

    def handle_endtag(self, tag: str) -> None:
        # Up to the element this closes (an element the page left open is closed with it); a stray end tag is
        # ignored, as a browser does.
        if any(head.startswith(f"{tag}[") for head in self.path):
            while not self.path.pop().startswith(f"{tag}["):
                pass


def page_shape(html: str) -> str:
    """What two pages of one template share when they differ only in their data: the same elements in the
    same places, with the same classes, roles and states, the same attributes given and the same elements
    holding text, whatever that text, the addresses and the number of alike rows.

    Two pages of one route with one shape are one case for a check of the markup (names, roles, contrast
    of each class of element): the accessibility walk checks one of them."""
    parser = _Shape()
    parser.feed(html)
    parser.close()
    return "\n".join(sorted(parser.paths))
