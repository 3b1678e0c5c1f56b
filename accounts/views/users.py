from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts import backends, throttles
from accounts.forms import ProfileForm, SignUpForm
from accounts.models import User
from accounts.services import user_sign_up, user_update_profile
from core.errors import DomainError


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("core:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and not throttles.sign_up_attempt(request):
        # The API's budget, counted together (accounts/throttles.py); what was typed stays in the form.
        form.add_error(None, throttles.refusal())
        response = render(request, "accounts/sign_up.html", {"form": form}, status=429)
        response["Retry-After"] = str(throttles.seconds_until_more())
        return response
    if request.method == "POST" and form.is_valid():
        try:
            user = user_sign_up(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
                display_name=form.cleaned_data.get("display_name", ""),
            )
        except DomainError as exc:  # another sign-up took the name or the e-mail since the form checked
            form.add_error(exc.field or None, exc.message)
        else:
            login(request, user, backend=backends.PATH)
            messages.success(request, f"Welcome to Zverograd, {user.public_name}.")
            return redirect("core:home")
    return render(request, "accounts/sign_up.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            user_update_profile(
                user=request.user,
                display_name=form.cleaned_data["display_name"],
                email=form.cleaned_data["email"],
            )
        except DomainError as exc:
            form.add_error(exc.field or None, exc.message)
        else:
            messages.success(request, "Your profile was saved.")
            return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form})
