"""Every page of the demo speaks in words: no keys, no ``kind:id`` strings, no bracketed codes.

The addresses are not listed by hand: every page route of the URL conf (not the
API, the admin or the downloads) is filled with the demo's own ids (each battle,
sector, player, list, round, challenge and battle session of the demo campaign) and asked for by
the organiser, the demo's players and an anonymous visitor (``tests/demo_pages.py``,
shared with the accessibility walk; a redirect is followed to the page it leads to). Each of them also
sends the forms whose answer is a page of its own (``posted_pages``: a roster checked and imported, the
battle session joined by its code, a battle scheduled where the rules refuse it).
The visible text of each page (tags, scripts, styles and attributes stripped) must
hold none of:

- template syntax (``{#``, ``#}``, ``{%``, ``%}``, ``{{``, ``}}``): a comment or tag the template
  language printed instead of reading (a ``{# #}`` comment spanning lines is printed as it is);
- a battle, round or other thing of the site named by its number as a key (``battle 8: accepted``);
- a bracketed short id (``[e1]``, ``[f2]``) or a roster's entry id (``0f3a-77c1-9e2b-4d10``);
- a key-like label, a lower-case word and a colon where a line or a parenthesis begins
  (``(reactive: attempt)``), a die's label as the engine writes it (``the reactive: attempt roll``),
  or a ``snake_case`` key;

- a ``kind:id`` string (``registration:10``, ``round:1``);
- a bracketed code (``[balance-too-low]``);
- a key of the demo's data or a code the site uses (a sector's ``memorial-park``, a faction's
  ``coastal-raiders``, a mission's, a log kind's, a battle status's, a pairing note's code);
- any other lower-case hyphenated run of letters that is not in the short list of English words below.
"""

from __future__ import annotations

import html
import itertools
import re
from pathlib import Path

import pytest

from armies.models import Faction
from battles.session_presenters import DIE_PURPOSES
from campaign.engine.missions import MISSIONS_BY_KEY
from campaign.models import Battle, LogKind, Sector
from tests.demo_pages import VIEWERS, demo_addresses, demo_load, posted_pages, viewer_pages

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

KIND_ID = re.compile(r"\b[a-z_]+:\d+\b")
BRACKETED_CODE = re.compile(r"\[[a-z][a-z-]*\]")
TEMPLATE_SYNTAX = re.compile(r"\{#|#\}|\{%|%\}|\{\{|\}\}")
# The things of the site a page names by their name, never by their number as a key ("battle 8: accepted").
NUMBERED_KEY = re.compile(
    r"\b(?:battle|round|sector|list|entry|registration|enrolment|challenge|report|session|player|unit|platoon"
    r"|fortification|campaign|catalogue|step) \d+:(?!\d)"
)
BRACKETED_ID = re.compile(r"\[[a-z]{1,3}\d+\]")
UNKNOWN_MARK = re.compile(r"\(\?\)")  # a name a sentence did not find, said as "?" ("? (?): admitted")
ENTRY_ID = re.compile(r"\b(?:entry id|id) ['\"]?[\w:.-]*\d|\b[0-9a-f]{4,}(?:-[0-9a-f]{4,}){2,}\b")
# A key-like label: a lower-case word and a colon where a line of text or a parenthesis begins, or a die's label
# as the engine writes it ("reactive: attempt"; the session's log says them in words) anywhere.
KEY_LABEL = re.compile(
    rf"(?m)(?:^[ \t]*|\()[a-z]+: [a-z]+|\b(?:{'|'.join(map(re.escape, DIE_PURPOSES))}): [a-z]+"
)
SNAKE_KEY = re.compile(r"\b[a-z]+_[a-z_]+\b")
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
# unit's key, as code, on purpose; the validator shows the list checked in its text format, to copy, whose
# entry ids (``[e1]``) tie a hero to its unit when the text is read back. Only there is text inside <code>
# left out.
PAGES_SHOWING_KEYS = ("armies:catalogue", "armies:validator")
CODE_ELEMENT = re.compile(r"<code\b.*?</code>", re.S | re.I)
# What holds no words of the page's own: scripts, styles, templates, the title, and what a person typed, shown
# back in a text area (a roster's XML, a list's JSON).
TAGS_WITHOUT_TEXT = re.compile(r"<(script|style|template|title|textarea)\b.*?</\1>", re.S | re.I)
TAG = re.compile(r"<[^>]+>")
COMMENT = re.compile(r"<!--.*?-->", re.S)


def visible_text(page: str) -> str:
    text = COMMENT.sub(" ", page)
    text = TAGS_WITHOUT_TEXT.sub(" ", text)
    text = TAG.sub("\n", text)  # each element's text is a line of its own: a label begins one
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
    found = KIND_ID.findall(text) + BRACKETED_CODE.findall(text) + TEMPLATE_SYNTAX.findall(text)
    found += NUMBERED_KEY.findall(text) + BRACKETED_ID.findall(text) + ENTRY_ID.findall(text)
    found += UNKNOWN_MARK.findall(text)
    found += [label.strip() for label in KEY_LABEL.findall(text)] + SNAKE_KEY.findall(text)
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


def test_it_catches_each_code_a_club_night_found_on_the_pages():
    """What reached people before: a template comment printed above every step button, a refusal's code in
    parentheses, a battle named by its id with a decision's code, a list entry's id after its name, a roster
    entry's id in an import warning, and a die's label as a key, in a refusal and in the log."""
    seen = {
        "{# One legal step as a button #}": ["{#", "#}"],
        "<p>Allies cannot attack Memorial Park (own-sector)</p>": ["own-sector"],
        '<p class="timeline-reason">Why: battle 8: accepted: photos</p>': ["battle 8:"],
        '<span class="entry-name">Gulfport Marine Squad [e1]</span>': ["[e1]"],
        "<li>No unit for the roster's Sledge (entry id '0f3a-77c1-9e2b-4d10'): it was left out.</li>": [
            "entry id '0f3a-77c1-9e2b-4d10",
        ],
        "<p>More dice are needed: 2 more for the reactive: attempt roll.</p>": ["reactive: attempt"],
        '<li class="die">target <span class="muted">(reactive: attempt)</span></li>': ["(reactive: attempt"],
        "<p>Rolled for reactive_attempt.</p>": ["reactive_attempt"],
        "<p>? (?): a new claim link</p>": ["(?)"],
    }  # fmt: skip
    for page, codes in seen.items():
        assert findings(page, set()) == codes, page
    # Plain English with colons and numbers is no code.
    assert findings("<p>Anna won the initiative for turn 1: a tie. Rounds 1 to 2: Greta 3.</p>", set()) == []
    assert (
        findings("<p>The most players a bloc may admit. Why: the result of the battle at Old Town</p>", set())
        == []
    )


def test_no_template_comment_spans_lines():
    """Django's ``{# #}`` is a one-line comment: one that spans lines is printed to the page as it is (use
    ``{% comment %}``)."""
    spanning = [
        f"{path.relative_to(TEMPLATES)}:{page[: found.start()].count(chr(10)) + 1}"
        for path in sorted(p for p in TEMPLATES.rglob("*") if p.is_file())
        for page in [path.read_text()]
        for found in re.finditer(r"\{#(?:(?!#\}).)*$", page, re.M)
    ]
    assert not spanning, f"a {{# #}} comment spans lines at {', '.join(spanning)}"


@pytest.fixture
def demo(db):
    demo_load()


def test_every_demo_page_speaks_in_words(demo):
    addresses = demo_addresses()
    keys = internal_keys()
    problems: dict[str, list[str]] = {}
    read = 0
    for persona, username in VIEWERS.items():
        for page in itertools.chain(viewer_pages(username, addresses), posted_pages(username)):
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
