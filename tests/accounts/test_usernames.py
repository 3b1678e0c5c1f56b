"""A username may not look like a taken one, nor mix the letters of two alphabets."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from accounts.models import User
from accounts.services import user_sign_up
from accounts.usernames import mixes_scripts, username_skeleton
from tests.factories import UserFactory
from tests.races import at_once, outcome, require_postgresql

CYRILLIC_A = "\u0430"
FULLWIDTH_A = "\uff41"


@pytest.mark.parametrize(
    ("name", "lookalike"),
    [
        ("anna", f"{CYRILLIC_A}nna"),  # Cyrillic а
        ("anna", f"{FULLWIDTH_A}nna"),  # fullwidth a
        ("anna", "ANNA"),  # case
        ("otto", "0TT0"),  # zeros for capital Os
        ("mila", "rnila"),  # r and n drawn together
        ("lena", "Iena"),  # a capital I for a small l
        ("copy", "\u0441\u043e\u0440\u0443"),  # all Cyrillic: с о р у
    ],
)
def test_it_gives_lookalike_names_one_skeleton(name: str, lookalike: str) -> None:
    assert username_skeleton(lookalike) == username_skeleton(name)


@pytest.mark.parametrize(("name", "other"), [("anna", "anne"), ("boris", "doris"), ("user1", "user11")])
def test_it_tells_different_names_apart(name: str, other: str) -> None:
    assert username_skeleton(other) != username_skeleton(name)


@pytest.mark.parametrize(
    ("name", "mixed"),
    [
        ("anna", False),
        ("\u041e\u043b\u044c\u0433\u0430", False),  # Ольга: Cyrillic only
        ("anna_2.0-x@y+z", False),  # digits and punctuation go with any script
        ("\u5c71\u7530\u305f\u308d\u3046", False),  # 山田たろう: Japanese mixes Han and Hiragana
        (f"{CYRILLIC_A}nna", True),
        ("alpha\u03b2", True),  # Latin and Greek
    ],
)
def test_it_knows_which_names_mix_scripts(name: str, mixed: bool) -> None:
    assert mixes_scripts(name) is mixed


def _sign_up_page(client, username: str):
    return client.post(
        "/accounts/sign-up/",
        {
            "username": username,
            "email": f"{len(username)}-new@example.test",
            "password1": "a-long-passphrase-9",
            "password2": "a-long-passphrase-9",
        },
    )


@pytest.mark.django_db
def test_it_refuses_on_the_sign_up_page_a_name_mixing_cyrillic_and_latin(client):
    UserFactory(username="anna")

    response = _sign_up_page(client, f"{CYRILLIC_A}nna")

    assert response.status_code == 200
    assert "this username mixes Cyrillic and Latin letters" in response.content.decode()
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_it_refuses_on_the_sign_up_page_a_name_that_looks_like_a_taken_one(client):
    UserFactory(username="copy")

    response = _sign_up_page(client, "\u0441\u043e\u0440\u0443")

    assert response.status_code == 200
    assert b"This username looks too much like one already taken" in response.content
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_it_signs_up_a_name_in_one_other_alphabet(client):
    response = _sign_up_page(client, "\u041e\u043b\u044c\u0433\u0430")

    assert response.status_code == 302
    assert User.objects.filter(username="\u041e\u043b\u044c\u0433\u0430").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "code"),
    [
        (f"{FULLWIDTH_A}nna", "username-taken"),  # the same name once normalised (NFKC), as Django stores it
        ("\u0441\u043e\u0440\u0443", "username-lookalike"),
        (f"{CYRILLIC_A}nna", "username-mixed-scripts"),
    ],
)
def test_it_refuses_through_the_api_naming_the_field_and_the_code(api_client, username: str, code: str):
    UserFactory(username="anna")
    UserFactory(username="copy")

    response = api_client.post(
        "/api/accounts/sign-up/",
        {"username": username, "email": "new@example.test", "password": "a-long-passphrase-9"},
        format="json",
    )

    assert response.status_code == 400
    assert [(e["field"], e["code"]) for e in response.json()["errors"]] == [("username", code)]


@pytest.mark.django_db
def test_it_refuses_a_lookalike_rename_in_the_admin(admin_client):
    UserFactory(username="lena")
    greta = UserFactory(username="greta")
    page = admin_client.get(f"/admin/accounts/user/{greta.pk}/change/")
    data = {
        key: value
        for key, value in page.context["adminform"].form.initial.items()
        if value is not None and key not in {"groups", "user_permissions", "password"}
    }
    data.update({"username": "Iena", "date_joined_0": "2026-01-01", "date_joined_1": "10:00:00"})

    response = admin_client.post(f"/admin/accounts/user/{greta.pk}/change/", data)

    assert b"This username looks too much like one already taken" in response.content
    greta.refresh_from_db()
    assert (greta.username, greta.username_skeleton) == ("greta", "greta")


@pytest.mark.django_db
def test_the_database_refuses_a_lookalike_whatever_wrote_it():
    UserFactory(username="anna")

    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username=f"{FULLWIDTH_A}NNA")


@pytest.mark.django_db
def test_it_keeps_the_skeleton_in_step_with_a_renamed_username():
    user = UserFactory(username="boris")

    user.username = "b0ris-2"
    user.save(update_fields=["username"])

    user.refresh_from_db()
    assert user.username_skeleton == username_skeleton("b0ris-2") == "borls-2"


def test_two_lookalike_sign_ups_at_once_make_one_account(transactional_db):
    require_postgresql()

    def sign_up(username: str, email: str):
        return outcome(
            "created",
            lambda: user_sign_up(username=username, email=email, password="a-long-passphrase-9"),
        )

    answers = at_once(
        [sign_up("copy", "one@example.test"), sign_up("\u0441\u043e\u0440\u0443", "two@example.test")]
    )

    assert sorted(answers) == ["created", "username-lookalike"]
    assert User.objects.count() == 1
