"""The timeline's entries of play in words: names, not ``kind:id`` subjects; plurals right."""

from __future__ import annotations

import pytest

from accounts.models import User
from campaign.models import LogEntry, LogKind
from campaign.views.presenters import describe_entry, plural, reason_battle_ids, reason_words

SECTORS = {"memorial-park": "Memorial Park"}


def entry(kind: str, subject: str, *, field: str = "", before=None, after=None, by: str = "Olga") -> LogEntry:
    actor = User(username=by.lower(), display_name=by) if by else None
    return LogEntry(kind=kind, subject=subject, field=field, before=before, after=after, actor=actor)


@pytest.mark.parametrize(
    ("logged", "text"),
    [
        (entry(LogKind.LIST_REGISTERED, "registration:10", after={"name": "Iron Fist", "player": "Anna", "ap": 150}),
         "Anna registered Iron Fist (150 AP)"),
        (entry(LogKind.LIST_REGISTERED, "registration:11", before=10,
               after={"name": "Iron Fist", "player": "Anna", "ap": 148}),
         "Anna registered again Iron Fist (148 AP)"),
        (entry(LogKind.ROUND_CHANGED, "round:1", field="status", after="open"), "Round 1 opened"),
        (entry(LogKind.ROUND_CHANGED, "round:2", field="status", before="closed", after="open"), "Round 2 reopened"),
        (entry(LogKind.ROUND_CHANGED, "round:1", field="status", before="open",
               after={"status": "closed", "unplayed": 1, "results": 2, "income": 30}),
         "Round 1 closed: 1 battle left unplayed, 2 hidden results took effect, 30 resource points of income paid"),
        (entry(LogKind.CHALLENGE_CHANGED, "challenge:1", by="Boris",
               after={"status": "open", "challenger": "Boris", "challenged": "Karl", "sector": "memorial-park"}),
         "Boris challenged Karl over Memorial Park"),
        (entry(LogKind.CHALLENGE_CHANGED, "challenge:1", field="status", before="open", after="accepted", by="Karl"),
         "Karl accepted a challenge"),
        (entry(LogKind.CHALLENGE_CHANGED, "challenge:1", field="status", before="open", after="expired", by=""),
         "A challenge expired unanswered"),
        (entry(LogKind.PAIRING_CHANGED, "round:2", field="pairings", after={"battles": 5, "byes": 1, "draft": True}),
         "Olga drew up pairings for round 2 (5 battles, 1 bye)"),
        (entry(LogKind.PAIRING_CHANGED, "round:2", field="pairings",
               after={"battles": 1, "byes": 0, "published": True}),
         "Olga published the pairings of round 2 (1 battle, 0 byes)"),
        (entry(LogKind.PAIRING_CHANGED, "round:2", field="pairings", after="swap"),
         "Olga edited the draft pairings of round 2"),
        (entry(LogKind.BATTLE_CHANGED, "battle:3", field="terms", after={"mission": "meeting-engagement",
                                                                          "points_limit": 200}),
         "Olga set a battle's terms: mission Meeting engagement, 200 AP"),
        (entry(LogKind.POINTS_ADJUSTED, "enrolment:4", field="points",
               after={"points": -2, "adjustment": 1, "player": "Tom"}),
         "Olga adjusted Tom's campaign points by -2"),
    ],
)  # fmt: skip
def test_it_says_what_happened_with_names(logged: LogEntry, text: str) -> None:
    assert describe_entry(logged, SECTORS).text == text


def test_it_counts_in_words() -> None:
    assert [plural(0, "bye"), plural(1, "battle"), plural(5, "battle")] == ["0 byes", "1 battle", "5 battles"]


NAMED = {6: "the battle at Old Town (Karl attacks Anna)"}
OF = "The result of the battle at Old Town (Karl attacks Anna)"


@pytest.mark.parametrize(
    ("reason", "said"),
    [
        ("battle 6: report confirmed", "The result of the battle at Old Town (Karl attacks Anna): report confirmed"),
        ("battle 6: accepted: ", f"{OF}: an organiser accepted the report"),
        ("battle 6: amended: the photos show a draw",
         f"{OF}: an organiser amended the report: the photos show a draw"),
        ("Award for battle 6: report confirmed",
         "Award for the battle at Old Town (Karl attacks Anna): report confirmed"),
        ("Battle 6 result taken back: a typo",
         "The result of the battle at Old Town (Karl attacks Anna) taken back: a typo"),
        ("battle 9: report confirmed", "The result of a battle since deleted: report confirmed"),
        ("Strongpoint at Kolkhoz Fields, bought by Karl for 3", "Strongpoint at Kolkhoz Fields, bought by Karl for 3"),
    ],
)  # fmt: skip
def test_it_names_the_battle_a_reason_written_by_the_site_names_by_its_id(reason, said):
    assert reason_words(reason, NAMED) == said
    assert reason_battle_ids([reason]) <= {6, 9}


def test_it_gives_a_log_entry_its_reason_in_words():
    logged = entry(LogKind.SECTOR_CHANGED, "sector:memorial-park", field="owner", before=None, after="Axis")
    logged.reason = "battle 6: report confirmed"

    line = describe_entry(logged, SECTORS, None, NAMED)

    assert line.reason == "The result of the battle at Old Town (Karl attacks Anna): report confirmed"
