"""Crafted steps at a battle session (issue 26): arbitrary JSON in every field of every kind of step, sent
to the API's steps and odds and to the page's step and odds posts, is refused with a sentence (a 400, or
the page's refusal), never a 500; so is a step nested past the stack."""

# ruff: noqa: F401, F811 (the world and session fixtures are imported from the API's tests, and named as arguments)

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles.sessions.models import BattleSession
from tests.battles.test_api_sessions import session, world
from tests.rules.engine.test_battle_step_types import JSON, KIND_FIELDS

pytestmark = pytest.mark.django_db

# What crashed the reader (a list or a mapping where a set is asked about it), and its neighbours.
CRAFTED = ([[]], [{}], {}, [[["BLOC"]]], [None], {"a": []}, 2.5, -1, "", [True])
DEEP = "[" * 1500 + "]" * 1500


def api(world: Any, session: BattleSession, tail: str, step: Any) -> Any:
    session.refresh_from_db()
    body = {"step": step} if tail == "odds/" else {"expected": session.version, "step": step}
    return world.client("attacker").post(f"/api/battle-sessions/{session.pk}/{tail}", body, format="json")


def page(client: Client, session: BattleSession, name: str, text: str, **extra: str) -> Any:
    session.refresh_from_db()
    data = {"expected": str(session.version), "step": text, **extra}
    return client.post(reverse(f"battles:{name}", args=[session.pk]), data)


def assert_refused_in_a_sentence(answer: Any) -> None:
    assert answer.status_code < 500
    if answer.status_code >= 400:
        body = answer.json()
        assert body["detail"]  # the sentence; a body the parser refuses whole names no field
        assert body["errors"] or body["code"] == "parse_error", body
        assert all(error["message"] for error in body["errors"])


def assert_the_page_refuses_in_a_sentence(answer: Any, name: str) -> None:
    assert answer.status_code < 500
    text = html.unescape(answer.content.decode())
    if name == "session-odds":
        assert answer.status_code == 200
        assert "session-refusal" in text or "Chance to destroy" in text
    elif answer.status_code != 302:  # played: back to the page
        assert answer.status_code in (400, 409)
        assert 'data-testid="session-refusal"' in text


@pytest.mark.parametrize("tail", ["steps/", "odds/"])
def test_the_crafted_bodies_that_crashed_the_reader_are_a_400_naming_the_field(world, session, tail):
    crafted = [
        ({"kind": "attack", "by": "attacker", "faces": [[]]}, "faces[0]"),
        ({"kind": "activate", "by": "attacker", "actions": [{}]}, "actions[0]"),
        ({"kind": "initiative", "by": "attacker", "attacker_faces": [[]]}, "attacker_faces[0]"),
    ]
    for step, field in crafted:
        answer = api(world, session, tail, step)

        assert answer.status_code == 400, step
        assert answer.json()["code"] == "invalid-step"
        assert answer.json()["errors"][0]["field"].endswith(field)


@pytest.mark.parametrize("tail", ["steps/", "odds/"])
def test_every_field_of_every_step_with_a_crafted_value_is_refused_by_the_api_in_a_sentence(
    world, session, tail
):
    for kind, name in KIND_FIELDS:
        for value in CRAFTED:
            cache.clear()  # the odds are throttled per account: every answer here must be the reader's
            answer = api(world, session, tail, {"kind": kind, "by": "attacker", name: value})

            assert answer.status_code == 400, (kind, name, value, answer.content)
            assert answer.json()["detail"]


@pytest.mark.parametrize("name", ["session-step", "session-odds"])
def test_a_step_nested_past_the_stack_is_refused_by_the_page_in_a_sentence(world, session, name):
    client = Client()
    client.force_login(world.attacker)

    deep = page(client, session, name, DEEP)
    wrapped = page(client, session, name, '{"kind": "attack", "by": "attacker", "weapons": ' + DEEP + "}")

    for answer in (deep, wrapped):
        assert_the_page_refuses_in_a_sentence(answer, name)
        assert "could not be read" in answer.content.decode()


@pytest.mark.parametrize("name", ["session-step", "session-odds"])
def test_every_field_of_every_step_with_a_crafted_value_is_refused_by_the_page_in_a_sentence(
    world, session, name
):
    client = Client()
    client.force_login(world.attacker)
    for kind, field in KIND_FIELDS:
        for value in ([[]], [{}], {"a": [[]]}):
            answer = page(client, session, name, json.dumps({"kind": kind, "by": "attacker", field: value}))

            assert_the_page_refuses_in_a_sentence(answer, name)
            assert answer.status_code == (200 if name == "session-odds" else 400)


@settings(
    max_examples=60, deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)  # fmt: skip
@given(
    pair=st.sampled_from(KIND_FIELDS),
    value=JSON,
    where=st.sampled_from(["steps/", "odds/", "page", "page-odds"]),
)
def test_any_json_in_any_field_is_never_a_server_error(world, session, pair, value, where):
    kind, name = pair
    step = {"kind": kind, "by": "attacker", name: value}
    cache.clear()
    if where.startswith("page"):
        client = Client()
        client.force_login(world.attacker)
        view = "session-odds" if where == "page-odds" else "session-step"
        assert_the_page_refuses_in_a_sentence(page(client, session, view, json.dumps(step)), view)
    else:
        assert_refused_in_a_sentence(api(world, session, where, step))
