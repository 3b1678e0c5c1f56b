"""Campaign terms reach the validator the same way from the API, the validator page and validate_list.

Each surface builds a plain mapping and hands it to ``terms_from_mapping``, so the same
terms give the same verdict and the same input is refused at the same bounds everywhere.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from armies.models import Catalogue
from armies.services.army_lists import entry_document
from armies.validation import limits
from tests.factories import CatalogueFactory

pytestmark = pytest.mark.django_db

API = "/api/army-lists/validate/"
PAGE = "/validator/"
HTMX = {"HX-Request": "true"}


def raid(catalogue: Catalogue, **fields: Any) -> dict[str, Any]:
    """An attacking 13 AP list over its own 20 AP limit once it buys a bunker (15 AP)."""
    document = {
        "format": "zverograd-army-list", "version": 1, "name": "Harbour raid", "bloc": "Allies",
        "faction": None, "points_limit": 20, "catalogue_version": catalogue.version, "role": "attacker",
        "entries": [
            entry_document("e1", "allies.gulfport-marine-squad"),
            entry_document("e2", "allies.gulfport-assault-squad"),
        ],
        "platoons": [],
        "fortifications": [{"id": "f1", "kind": "bunker", "unit": None}],
    }  # fmt: skip
    document.update(fields)
    return document


DEFENDED = {"points_limit": 30, "role": "defender", "granted_fortifications": ["bunker"]}


# --------------------------------------------------------------------------- the API


def test_it_checks_a_list_under_the_terms_the_api_is_given(api_client, demo_catalogue):
    document = raid(demo_catalogue)

    plain = api_client.post(API, {"list": document}, format="json").json()
    body = api_client.post(API, {"list": document, "terms": DEFENDED}, format="json").json()

    assert {p["code"] for p in plain["problems"]} == {"fortification-not-defender", "points-limit-exceeded"}
    assert body["ok"] is True
    assert body["problems"] == []
    assert body["totals"]["points_limit"] == 30
    assert body["totals"]["paid_ap"] == 13
    assert body["terms"]["role"] == "defender"
    assert body["overrides"] == [
        {"field": "points_limit", "listed": 20, "applied": 30},
        {"field": "role", "listed": "attacker", "applied": "defender"},
    ]
    assert body["terms_summary"].startswith("Checked at 30 AP (the list says 20) as defender")


def test_it_treats_null_terms_as_none(api_client, demo_catalogue):
    document = raid(demo_catalogue)

    plain = api_client.post(API, {"list": document}, format="json").json()
    body = api_client.post(API, {"list": document, "terms": None}, format="json").json()

    assert body == plain
    assert body["terms_summary"] is None
    assert body["terms"]["points_limit"] == 20


def test_it_turns_the_rtz_rules_off_from_the_api(api_client, demo_catalogue):
    terms = {"rtz": False, "fortification_purchases": ["bunker"], "points_limit": 30}

    body = api_client.post(API, {"list": raid(demo_catalogue), "terms": terms}, format="json").json()

    assert body["ok"] is True
    assert body["totals"]["paid_ap"] == 28


def test_it_wants_the_list_under_list_when_terms_are_sent(api_client, demo_catalogue):
    response = api_client.post(API, {**raid(demo_catalogue), "terms": DEFENDED}, format="json")

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "list"


@pytest.mark.parametrize(
    ("terms", "field"),
    [
        ({"points_limit": limits.POINTS_LIMIT_MAX + 1}, "terms.points_limit"),
        ({"points_limit": limits.POINTS_LIMIT_MIN - 1}, "terms.points_limit"),
        ({"reserve_limit": limits.RESERVE_LIMIT_MAX + 1}, "terms.reserve_limit"),
        (
            {"granted_fortifications": ["bunker"] * (limits.MAX_GRANTED_FORTIFICATIONS + 1)},
            "terms.granted_fortifications",
        ),
        ({"granted_fortifications": ["moat"]}, "terms.granted_fortifications[0]"),
        ({"role": "umpire"}, "terms.role"),
        ({"rtz": "off"}, "terms.rtz"),
        ({"catalogue_version": "v" * (limits.CATALOGUE_VERSION_MAX_LENGTH + 1)}, "terms.catalogue_version"),
        ({"limit": 200}, "terms.limit"),
        ([200], "terms"),
    ],
)
def test_it_refuses_terms_out_of_bounds_naming_the_field(api_client, demo_catalogue, terms, field):
    response = api_client.post(API, {"list": raid(demo_catalogue), "terms": terms}, format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "terms-invalid"
    assert [error["field"] for error in body["errors"]] == [field]


def test_it_accepts_terms_at_their_bounds(api_client, demo_catalogue):
    terms = {
        "points_limit": limits.POINTS_LIMIT_MAX,
        "reserve_limit": limits.RESERVE_LIMIT_MAX,
        "granted_fortifications": ["bunker"] * limits.MAX_GRANTED_FORTIFICATIONS,
        "role": "defender",
        "catalogue_version": demo_catalogue.version,
    }

    response = api_client.post(API, {"list": raid(demo_catalogue), "terms": terms}, format="json")

    assert response.status_code == 200
    assert response.json()["totals"]["points_limit"] == limits.POINTS_LIMIT_MAX


def test_it_picks_the_catalogue_of_the_terms_version(api_client, demo_catalogue):
    CatalogueFactory(name="Newer", version="99", blocs=["Allies"])
    document = raid(demo_catalogue, catalogue_version="an-old-one")
    terms = {**DEFENDED, "catalogue_version": demo_catalogue.version}

    body = api_client.post(API, {"list": document, "terms": terms}, format="json").json()

    assert body["catalogue"]["id"] == demo_catalogue.pk
    assert [p["code"] for p in body["problems"]] == ["catalogue-version-mismatch"]
    assert body["ok"] is True


def test_it_errs_when_no_catalogue_has_the_terms_version(api_client, demo_catalogue):
    terms = {**DEFENDED, "catalogue_version": "not-imported"}

    body = api_client.post(API, {"list": raid(demo_catalogue), "terms": terms}, format="json").json()

    assert "catalogue-version-wrong" in {p["code"] for p in body["problems"]}
    assert body["ok"] is False


# --------------------------------------------------------------------------- the page


def page_post(client, document: dict[str, Any], **fields: Any) -> Any:
    return client.post(PAGE, {"text": json.dumps(document), **fields})


def test_it_offers_the_terms_in_a_collapsed_section(client):
    html = client.get(PAGE).content.decode()

    assert '<details class="validator-terms" data-testid="terms">' in html
    assert "<summary>Campaign terms</summary>" in html
    for name in ("points_limit", "role", "granted_fortifications", "fortification_purchases", "no_rtz"):
        assert f'name="{name}"' in html


def test_it_checks_a_list_under_the_terms_the_page_is_given(client, demo_catalogue):
    response = page_post(
        client, raid(demo_catalogue), points_limit="30", role="defender", granted_fortifications="bunker"
    )

    verdict = response.context["verdict"]
    assert verdict.ok
    assert verdict.totals.points_limit == 30
    html = response.content.decode()
    assert 'data-testid="terms-summary">Checked at 30 AP (the list says 20) as defender' in html
    assert "13 / 30 AP" in html
    assert '<details class="validator-terms" data-testid="terms" open>' in html


def test_it_shows_no_terms_line_without_terms(client, demo_catalogue):
    html = page_post(client, raid(demo_catalogue)).content.decode()

    assert "terms-summary" not in html


@pytest.mark.parametrize(
    ("fields", "field", "ok"),
    [
        ({"points_limit": str(limits.POINTS_LIMIT_MAX)}, "points_limit", True),
        ({"points_limit": str(limits.POINTS_LIMIT_MAX + 1)}, "points_limit", False),
        ({"points_limit": "0"}, "points_limit", False),
        ({"reserve_limit": str(limits.RESERVE_LIMIT_MAX)}, "reserve_limit", True),
        ({"reserve_limit": str(limits.RESERVE_LIMIT_MAX + 1)}, "reserve_limit", False),
        ({"catalogue_version": "v" * (limits.CATALOGUE_VERSION_MAX_LENGTH + 1)}, "catalogue_version", False),
        ({"role": "attacker", "granted_fortifications": "bunker"}, "granted_fortifications", False),
    ],
)
def test_it_bounds_the_terms_on_the_page_as_the_api_does(
    client, api_client, demo_catalogue, fields, field, ok
):
    response = page_post(client, raid(demo_catalogue), **fields)

    form = response.context["form"]
    assert form.is_valid() is ok
    if not ok:
        (message,) = form.errors[field]
        api_terms = {k: int(v) if k.endswith("limit") else v for k, v in fields.items()}
        if "granted_fortifications" in api_terms:
            api_terms["granted_fortifications"] = [api_terms["granted_fortifications"]]
        api = api_client.post(API, {"list": raid(demo_catalogue), "terms": api_terms}, format="json").json()
        # The page says what the API says, with the code the API gives.
        api_error = next(e for e in api["errors"] if e["field"].startswith(f"terms.{field}"))
        assert message.lower().startswith(api_error["message"][:20].lower())
        assert form.has_error(field, api_error["code"])
        assert "open" in response.content.decode().split('data-testid="terms"', 1)[1][:10]


def test_it_tells_htmx_about_a_term_out_of_bounds(client, demo_catalogue):
    response = client.post(
        PAGE, {"text": json.dumps(raid(demo_catalogue)), "reserve_limit": "51"}, headers=HTMX
    )

    assert "Reserve placements the mission allows: Must be from 0 to 50, not 51<" in (
        response.content.decode()
    )


# --------------------------------------------------------------------------- the command


def write(tmp_path: Path, document: dict[str, Any]) -> str:
    path = tmp_path / "list.json"
    path.write_text(json.dumps(document))
    return str(path)


def command_verdict(path: str, *options: str, capsys: Any) -> tuple[int, dict[str, Any]]:
    try:
        call_command("validate_list", path, "--json", *options)
        code = 0
    except SystemExit as exit_info:
        code = int(exit_info.code or 0)
    return code, json.loads(capsys.readouterr().out)


def test_it_checks_a_list_under_the_terms_the_command_is_given(demo_catalogue, tmp_path, capsys):
    path = write(tmp_path, raid(demo_catalogue))

    code_plain, _ = command_verdict(path, capsys=capsys)
    code, verdict = command_verdict(
        path, "--points-limit", "30", "--role", "defender", "--grant", "bunker", capsys=capsys
    )

    assert (code_plain, code) == (1, 0)
    assert verdict["totals"]["paid_ap"] == 13
    assert verdict["overrides"][0] == {"field": "points_limit", "listed": 20, "applied": 30}


def test_it_turns_the_rtz_rules_off_from_the_command(demo_catalogue, tmp_path, capsys):
    path = write(tmp_path, raid(demo_catalogue))

    code, verdict = command_verdict(
        path, "--no-rtz", "--may-buy", "bunker", "--points-limit", "30", capsys=capsys
    )

    assert code == 0
    assert verdict["terms"]["rtz"] is False
    assert verdict["terms"]["fortification_purchases"] == ["bunker"]


def test_it_prints_the_terms_line_in_the_text_verdict(demo_catalogue, tmp_path, capsys):
    call_command(
        "validate_list",
        write(tmp_path, raid(demo_catalogue)),
        "--points-limit",
        "30",
        "--role",
        "defender",
        "--grant",
        "bunker",
    )

    assert "Checked at 30 AP (the list says 20) as defender (the list says attacker); bunker granted" in (
        capsys.readouterr().out
    )


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (("--points-limit", str(limits.POINTS_LIMIT_MAX + 1)), "--points-limit"),
        (("--reserves", "-1"), "--reserves"),
        (("--grant", "bunker", "--grant", "bunker", "--grant", "strongpoint"), "--grant"),
        (("--grant", "moat"), "--grant"),
        (("--may-buy", "bunker", "--may-buy", "bunker"), "--may-buy"),
    ],
)
def test_it_exits_2_on_terms_out_of_bounds_naming_the_option(demo_catalogue, tmp_path, options, named):
    with pytest.raises(CommandError) as error:
        call_command("validate_list", write(tmp_path, raid(demo_catalogue)), *options)

    assert error.value.returncode == 2
    assert f"{named}: " in str(error.value)


def test_it_accepts_the_command_terms_at_their_bounds(demo_catalogue, tmp_path, capsys):
    code, verdict = command_verdict(
        write(tmp_path, raid(demo_catalogue)),
        "--points-limit", str(limits.POINTS_LIMIT_MAX), "--reserves", str(limits.RESERVE_LIMIT_MAX),
        "--role", "defender", "--grant", "bunker", "--grant", "bunker",
        capsys=capsys,
    )  # fmt: skip

    assert code == 0
    assert verdict["terms"]["points_limit"] == limits.POINTS_LIMIT_MAX


# --------------------------------------------------------------------------- one verdict everywhere


SAME_TERMS = [
    (DEFENDED, {"points_limit": "30", "role": "defender", "granted_fortifications": "bunker"},
     ("--points-limit", "30", "--role", "defender", "--grant", "bunker")),
    ({"rtz": False, "reserve_limit": 0, "fortification_purchases": []},
     {"no_rtz": "on", "reserve_limit": "0", "fortification_purchases": "none"},
     ("--no-rtz", "--reserves", "0", "--may-buy", "none")),
    ({"points_limit": 10, "role": "defender", "fortification_purchases": ["strongpoint"]},
     {"points_limit": "10", "role": "defender", "fortification_purchases": "strongpoint"},
     ("--points-limit", "10", "--role", "defender", "--may-buy", "strongpoint")),
]  # fmt: skip


@pytest.mark.parametrize(("api_terms", "page_fields", "options"), SAME_TERMS)
def test_it_gives_one_verdict_for_the_same_terms_everywhere(
    client, api_client, demo_catalogue, tmp_path, capsys, api_terms, page_fields, options
):
    document = raid(
        demo_catalogue,
        entries=[
            *raid(demo_catalogue)["entries"],
            {**entry_document("e3", "allies.prairie-dog"), "reserve": True},
        ],
    )

    api = api_client.post(API, {"list": document, "terms": api_terms}, format="json").json()
    page = page_post(client, document, **page_fields).context["verdict"].to_dict()
    _, command = command_verdict(write(tmp_path, document), *options, capsys=capsys)

    for key in ("ok", "problems", "totals", "terms", "overrides"):
        assert api[key] == page[key] == command[key], key
