"""Password reset, as Django's view does it, with the mails counted (accounts.services.passwords)."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpResponse, HttpResponseRedirect

from accounts.services import password_reset_allowed
from core.ratelimit import client_address


class PasswordResetView(auth_views.PasswordResetView):
    """The same answer ("if an account uses that address, a link is on its way") whether a mail went or not."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        email = form.cleaned_data["email"]
        if password_reset_allowed(email=email, client=client_address(self.request)):
            return super().form_valid(form)
        return HttpResponseRedirect(self.get_success_url())
