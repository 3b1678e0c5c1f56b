from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A person on the site. The display name is what other players see."""

    display_name = models.CharField(
        max_length=60,
        blank=True,
        help_text="Shown to other players instead of your username.",
    )

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        return self.display_name or self.username
