"""No one may be shown under another member's name, nor under a name with invisible characters in it.

A display name is refused when it looks like another member's display name or username
(their skeletons, as usernames already are), and a username when it looks like another
member's display name; a name holding a direction override or a zero-width character is refused
on every way in (core/names.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from accounts.services import user_display_name_check, user_sign_up
from accounts.services.users import DISPLAY_NAME_TAKEN, USERNAME_LIKE_A_NAME
from core.errors import DomainError
from core.names import NAME_CONTROL_CODE, NAME_CONTROL_MESSAGE
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-passphrase-9"


@pytest.fixture
def olga(db: None) -> User:
    return UserFactory(username="organiser", display_name="Olga the Organiser")


@pytest.mark.parametrize(
    "name",
    [
        "Olga the Organiser",
        "olga the organiser",
        "Olga  the Organiser.",
        "0lga the 0rganiser",
        "Olga_the_Organiser",
        "Оlga the Organiser",
        "Organiser",
        "organiser",
    ],
)
def test_the_profile_page_refuses_another_member_s_name(
    client: Any, stranger: User, olga: User, name: str
) -> None:
    client.force_login(stranger)

    response = client.post("/accounts/profile/", {"display_name": name, "email": stranger.email})

    assert response.status_code == 200
    assert DISPLAY_NAME_TAKEN.replace("'", "&#x27;") in response.content.decode()
    stranger.refresh_from_db()
    assert stranger.display_name == "Sasha"


def test_the_api_refuses_another_member_s_name_with_its_code(api_as: Any, stranger: User, olga: User) -> None:
    response = api_as(stranger).patch(
        "/api/accounts/me/", {"display_name": "Olga the Organiser", "email": stranger.email}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "display_name", "code": "display-name-taken", "message": DISPLAY_NAME_TAKEN}
    ]


def test_sign_up_refuses_another_member_s_name_on_the_page_and_the_api(
    client: Any, api_client: Any, olga: User
) -> None:
    page = client.post("/accounts/sign-up/", {
        "username": "imposter", "display_name": "Olga the 0rganiser", "email": "i@example.test",
        "password1": PASSWORD, "password2": PASSWORD,
    })  # fmt: skip
    api = api_client.post("/api/accounts/sign-up/", {
        "username": "imposter", "display_name": "Olga the Organiser", "email": "i@example.test", "password": PASSWORD,
    }, format="json")  # fmt: skip

    assert page.status_code == 200
    assert DISPLAY_NAME_TAKEN.replace("'", "&#x27;") in page.content.decode()
    assert api.status_code == 400
    assert api.json()["errors"][0]["code"] == "display-name-taken"
    assert not User.objects.filter(username="imposter").exists()


def test_a_username_like_another_member_s_display_name_is_refused(olga: User) -> None:
    with pytest.raises(DomainError) as refused:
        user_sign_up(username="olga_the_organiser", email="o@example.test", password=PASSWORD)

    assert (refused.value.code, refused.value.message) == ("username-lookalike", USERNAME_LIKE_A_NAME)


def test_a_member_keeps_their_own_name_and_may_take_their_username(client: Any, stranger: User) -> None:
    client.force_login(stranger)

    for name in ("Sasha", "sasha", "Sasha K."):
        response = client.post("/accounts/profile/", {"display_name": name, "email": stranger.email})
        assert response.status_code == 302, name
    stranger.refresh_from_db()
    assert stranger.display_name == "Sasha K."


def test_a_name_without_letters_is_compared_with_nothing(olga: User, stranger: User) -> None:
    UserFactory(username="bear", display_name="\U0001f43b")

    assert user_display_name_check(display_name="\U0001f43b", user=stranger) == "\U0001f43b"


@pytest.mark.parametrize("name", ["Olga\u202e", "Sa\u200bsha", "\u3164", "Sasha\u2066"])
def test_a_display_name_with_an_invisible_character_is_refused_everywhere(
    client: Any, api_as: Any, stranger: User, name: str
) -> None:
    client.force_login(stranger)

    page = client.post("/accounts/profile/", {"display_name": name, "email": stranger.email})
    api = api_as(stranger).patch(
        "/api/accounts/me/", {"display_name": name, "email": stranger.email}, format="json"
    )

    assert NAME_CONTROL_MESSAGE in page.content.decode()
    assert api.status_code == 400
    assert api.json()["errors"][0]["code"] == NAME_CONTROL_CODE
    stranger.refresh_from_db()
    assert stranger.display_name == "Sasha"


def test_a_username_with_an_invisible_letter_is_refused(api_client: Any) -> None:
    response = api_client.post(
        "/api/accounts/sign-up/",
        {"username": "sasha\u3164", "email": "s2@example.test", "password": PASSWORD},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == NAME_CONTROL_CODE
