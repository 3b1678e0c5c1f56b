"""Every page of the demo speaks in words: no keys, no ``kind:id`` strings, no bracketed codes.

The addresses are not listed by hand: every page route of the URL conf (not the
API, the admin or the downloads) is filled with the demo's own ids (each battle,
sector, player, list, round and challenge of the demo campaign) and asked for by
the organiser, the demo's players and an anonymous visitor (``tests/demo_pages.py``,
shared with the accessibility walk; a redirect is followed to the page it leads to).
The visible text of each page (tags, scripts, styles and attributes stripped) must
hold none of:

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

from armies.models import Faction
from campaign.engine.missions import MISSIONS_BY_KEY
from campaign.models import Battle, LogKind, Sector
from tests.demo_pages import VIEWERS, demo_addresses, demo_load, viewer_pages

pytestmark = pytest.mark.django_db

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
    demo_load()


def test_every_demo_page_speaks_in_words(demo):
    addresses = demo_addresses()
    keys = internal_keys()
    problems: dict[str, list[str]] = {}
    read = 0
    for persona, username in VIEWERS.items():
        for page in viewer_pages(username, addresses):
            read += page.name != "accounts:login"
            html_ = CODE_ELEMENT.sub(" ", page.html) if page.name in PAGES_SHOWING_KEYS else page.html
            found = findings(html_, keys)
            if found:
                problems[f"{page.reached} ({persona})"] = sorted(set(found))
    # The walk is worth its name: it read the demo's pages, not only refusals and the log-in page.
    assert read > 250
    words: dict[str, list[str]] = {}
    for where, found in problems.items():
        for word in found:
            words.setdefault(word, []).append(where)
    assert not problems, f"{len(problems)} pages speak in codes: " + "; ".join(
        f"{word} on {', '.join(pages[:3])}{f' and {len(pages) - 3} more' if len(pages) > 3 else ''}"
        for word, pages in sorted(words.items())
    )
