"""Every page of the demo speaks in words: no keys, no ``kind:id`` strings, no bracketed codes.

The addresses are not listed by hand: every page route of the URL conf (not the
API, the admin or the downloads) is filled with the demo's own ids (each battle,
sector, player, list, round and challenge of the demo campaign) and asked for by
the organiser, a player and an anonymous visitor. The visible text of each page
(tags, scripts, styles and attributes stripped) must hold none of:

- a ``kind:id`` string (``registration:10``, ``round:1``);
- a bracketed code (``[balance-too-low]``);
- a key of the demo's data or a code the site uses (a sector's ``memorial-park``, a faction's
  ``coastal-raiders``, a mission's, a log kind's, a battle status's, a pairing note's code);
- any other lower-case hyphenated run of letters that is not in the short list of English words below.
"""

from __future__ import annotations

import html
import re

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from armies.models import ArmyList, Catalogue, Faction
from campaign.engine.missions import MISSIONS_BY_KEY
from campaign.models import Battle, Campaign, Challenge, Enrolment, LogKind, Registration, Sector
from tests.urlconf import PARAMETER, filled, routes

pytestmark = pytest.mark.django_db

# Pages whose route is not a page of the site's own words, or that only answer a POST.
SKIPPED_PREFIXES = ("api/", "admin/", "health/")
SKIPPED_SUFFIXES = (".json", ".txt", ".csv", "/export/", "/log-out/")

KIND_ID = re.compile(r"\b[a-z_]+:\d+\b")
BRACKETED_CODE = re.compile(r"\[[a-z][a-z-]*\]")
HYPHENATED = re.compile(r"(?<![\w-])[a-z]+(?:-[a-z]+)+(?![\w-])")
# Genuine English words and names written with a hyphen, each with where it is used.
HYPHENATED_WORDS = {
    "co-organiser", "co-organisers",  # people who help run a campaign
    "e-mail", "e-mails",  # the account's address
    "sign-up", "log-in", "read-only", "built-in", "up-to-date",  # plain English
    "re-registered", "re-register", "re-check",  # a list entered again
    "head-to-head",  # the tiebreaker between tied players
    "per-player", "per-bloc", "so-called", "one-off", "in-game",  # plain English
    "well-known", "follow-up", "self-propelled", "anti-tank", "anti-aircraft",  # unit and weapon words
    "short-range", "long-range", "close-combat", "multi-player", "two-thirds", "one-third",  # rules words
    "fan-made",  # the footer: the site is a fan-made tool
    "re-roll", "re-rolls", "under-fire", "reactive-attack", "automatic-kill",  # the rulebook's own terms
}  # fmt: skip
# The catalogue's page is the reference for the JSON list format (docs/army-list-format.md): it shows each
# unit's key, as code, on purpose. Only there is text inside <code> left out.
PAGES_SHOWING_KEYS = ("armies:catalogue",)
CODE_ELEMENT = re.compile(r"<code\b.*?</code>", re.S | re.I)
TAGS_WITHOUT_TEXT = re.compile(r"<(script|style|template|title)\b.*?</\1>", re.S | re.I)
TAG = re.compile(r"<[^>]+>")
COMMENT = re.compile(r"<!--.*?-->", re.S)


def visible_text(page: str) -> str:
    text = COMMENT.sub(" ", page)
    text = TAGS_WITHOUT_TEXT.sub(" ", text)
    text = TAG.sub(" ", text)
    return html.unescape(text)


def _fillings(name: str) -> dict[str, list[str]]:
    campaign = Campaign.objects.get()
    army_lists = [str(pk) for pk in ArmyList.objects.order_by("pk").values_list("pk", flat=True)]
    return {
        # ``pk`` is the campaign's in campaign routes, a list's in the builder's, a catalogue's in its own.
        "pk": army_lists if name.startswith("armies:") and "catalogue" not in name
        else [str(pk) for pk in Catalogue.objects.values_list("pk", flat=True)] if name.startswith("armies:")
        else [str(campaign.pk)],
        "battle_id": [str(pk) for pk in Battle.objects.values_list("pk", flat=True)],
        "number": [str(number) for number in range(1, campaign.current_round + 1)],
        "key": list(Sector.objects.filter(campaign=campaign).values_list("key", flat=True)),
        "enrolment_id": [str(pk) for pk in Enrolment.objects.values_list("pk", flat=True)],
        "registration_id": [str(pk) for pk in Registration.objects.values_list("pk", flat=True)],
        "challenge_id": [str(pk) for pk in Challenge.objects.values_list("pk", flat=True)],
    }  # fmt: skip


def demo_pages() -> dict[str, str]:
    """Every page address of the demo, with its route's name."""
    addresses: dict[str, str] = {}
    for route, name in routes():
        if route.startswith(SKIPPED_PREFIXES) or route.endswith(SKIPPED_SUFFIXES):
            continue
        parameters = PARAMETER.findall(route)
        fillings = _fillings(name)
        if route.count("<") > len(parameters) or any(
            param not in fillings for _converter, param in parameters
        ):
            continue  # tokens, uuids, answers and actions: addresses of one-off links and posts
        addresses.update(dict.fromkeys(filled(route, fillings), name))
    return dict(sorted(addresses.items()))


def internal_keys() -> set[str]:
    """The demo's keys and the site's codes that a page must never show as they are."""
    keys = set(Sector.objects.values_list("key", flat=True)) | set(
        Faction.objects.values_list("key", flat=True)
    )
    keys |= set(MISSIONS_BY_KEY) | {kind.value for kind in LogKind}
    for battle in Battle.objects.all():
        keys |= {str(note.get("code", "")) for note in battle.notes or []}
    return {key for key in keys if "-" in key}


def findings(page: str, keys: set[str]) -> list[str]:
    text = visible_text(page)
    found = KIND_ID.findall(text) + BRACKETED_CODE.findall(text)
    found += [word for word in HYPHENATED.findall(text) if word in keys or word not in HYPHENATED_WORDS]
    return found


def test_it_finds_what_it_looks_for_in_visible_text_only():
    page = (
        '<p data-kind="list-registered" title="round:1">Anna registered Iron Fist</p>'
        "<script>var x = 'memorial-park';</script>"
        "<p>List registered: registration:10 over memorial-park [balance-too-low]; a co-organiser helps</p>"
    )

    assert findings(page, {"memorial-park"}) == [
        "registration:10", "[balance-too-low]", "memorial-park", "balance-too-low",
    ]  # fmt: skip
    assert findings('<p data-kind="list-registered">Anna registered Iron Fist</p>', set()) == []


@pytest.fixture
def demo(db):
    call_command("seed_demo")


def test_every_demo_page_speaks_in_words(demo):
    addresses = demo_pages()
    keys = internal_keys()
    # Karl keeps the demo's list with problems; Boris has a challenge; Lena joined late.
    people = {"organiser": "organiser", "anna": "anna", "karl": "karl", "boris": "boris", "a visitor": None}
    problems: dict[str, list[str]] = {}
    read = 0
    for persona, username in people.items():
        client = Client()
        if username:
            client.force_login(User.objects.get(username=username))
        for address, name in addresses.items():
            response = client.get(address)
            if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
                continue
            read += 1
            page = response.content.decode()
            found = findings(CODE_ELEMENT.sub(" ", page) if name in PAGES_SHOWING_KEYS else page, keys)
            if found:
                problems[f"{address} ({persona})"] = sorted(set(found))
    # The walk is worth its name: it read the demo's pages, not only refusals.
    assert read > 250
    words: dict[str, list[str]] = {}
    for where, found in problems.items():
        for word in found:
            words.setdefault(word, []).append(where)
    assert not problems, f"{len(problems)} pages speak in codes: " + "; ".join(
        f"{word} on {', '.join(pages[:3])}{f' and {len(pages) - 3} more' if len(pages) > 3 else ''}"
        for word, pages in sorted(words.items())
    )
