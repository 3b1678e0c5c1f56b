"""The demo accounts (see core.demo)."""

from __future__ import annotations

from accounts.models import User
from core.demo import DemoData

DEMO_PASSWORD = "zverograd-demo"  # noqa: S105 - demo accounts, printed on purpose

# username, display name, staff
DEMO_USERS = [
    ("organiser", "Olga the Organiser", True),
    ("anna", "Anna", False),
    ("boris", "Boris", False),
    ("karl", "Karl", False),
    ("mila", "Mila", False),
    ("tom", "Tom", False),
    ("dmitri", "Dmitri", False),
    ("ivan", "Ivan", False),
    ("greta", "Greta", False),
    ("otto", "Otto", False),
    ("lena", "Lena", False),
]


def seed_demo(data: DemoData) -> None:
    for username, display_name, is_staff in DEMO_USERS:
        user, created = User.objects.get_or_create(
            username=username,
            defaults={"display_name": display_name, "email": f"{username}@zverograd.invalid"},
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.is_staff = user.is_superuser = is_staff
            user.save()
        data.users[username] = user
    names = ", ".join(username for username, _name, _staff in DEMO_USERS)
    data.messages.append(f"Demo data ready. Log in as {names} with the password {DEMO_PASSWORD!r}.")
