"""Sign-in: every path (the sign-in page, the token endpoint, the admin, which sends its
sign-in here, and any future one) authenticates through ``ThrottledModelBackend``, so the
limits of ``records.throttles.SignInAttempt`` cannot be sidestepped by a path or a spelling.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from records.names import authenticated_name
from records.throttles import LimitsUnavailable, SignInAttempt

#: AUTHENTICATION_BACKENDS' first entry; sessions remember it
BACKEND = "records.signin.ThrottledModelBackend"


class ThrottledModelBackend(ModelBackend):
    """Django's ModelBackend behind the sign-in limits.

    The name is normalised as the sign-in form does (NFKC), so the token endpoint accepts
    the same spellings as the page. A refused attempt never reaches the password hasher;
    it leaves its answer on the request (``sign_in_refusal``): 429 over a limit, 503 when
    the cache holding the counts is down (no attempt goes uncounted).
    Every answer ends the backends' search (PermissionDenied), so Django's ModelBackend,
    listed after this one only so that sessions started before it stay valid, never
    checks a password a second time.
    """

    def authenticate(self, request: Any, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        attempt = SignInAttempt(request, username)
        try:
            wait = attempt.begin()
        except LimitsUnavailable:
            _refuse(request, Refusal(503, OUTAGE_RETRY_SECONDS))
        if wait is not None:
            _refuse(request, Refusal(429, wait))
        user = super().authenticate(request, username=authenticated_name(username),
                                    password=password)
        if user is None:
            raise PermissionDenied("wrong user name or password")
        attempt.succeeded()
        return user


class Refusal(NamedTuple):
    status: int  # 429 over a limit, 503 the limits cannot be checked
    wait: float  # seconds, for Retry-After


#: Retry-After while the cache is down: about a short Redis outage
OUTAGE_RETRY_SECONDS = 30.0


def _refuse(request: Any, refusal: Refusal) -> NoReturn:
    if request is not None:
        request.sign_in_refusal = refusal
    raise PermissionDenied("sign-in refused before the password was checked")


def sign_in_refusal(request: Any) -> Refusal | None:
    """The answer the backend left on the request if it refused the attempt unchecked."""
    refusal: Refusal | None = getattr(request, "sign_in_refusal", None)
    return refusal


def refused_page(refusal: Refusal, *, signing_up: bool = False) -> HttpResponse:
    """A page's answer to a refused sign-in or sign-up: 429 or 503, with Retry-After."""
    seconds = math.ceil(refusal.wait)
    if refusal.status == 503:
        text = _("Signing in is unavailable for a moment. Try again in %(seconds)s seconds.")
    elif signing_up:
        text = _("Too many sign-up attempts. Try again in %(seconds)s seconds.")
    else:
        text = _("Too many sign-in attempts. Try again in %(seconds)s seconds.")
    response = HttpResponse(
        text % {"seconds": seconds},
        status=refusal.status,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(seconds)
    return response


class ThrottledLoginView(auth_views.LoginView):
    """Django's LoginView; an attempt the backend refused unchecked is a 429 (or a 503)
    with Retry-After."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        refusal = sign_in_refusal(request)
        return refused_page(refusal) if refusal is not None else response


if TYPE_CHECKING:
    _UserForm = UserCreationForm[User]
else:  # the form is generic to the type checker only
    _UserForm = UserCreationForm


class SignUpForm(_UserForm):
    """Django's sign-up form, whose every objection to a user name is one message: a taken
    name (in any case) reads as a malformed one, so the form does not tell which names
    exist beyond what choosing one must (and sign-ups are limited per address)."""

    def _post_clean(self) -> None:
        # last of full_clean(): after the field's checks, clean_username's (a taken name)
        # and the model's own validators (its characters)
        super()._post_clean()  # type: ignore[misc]  # private to Django, not in the stubs
        if "username" in self.errors:
            self.errors["username"] = self.error_class([str(NAME_REFUSED)])


#: what sign-up says about every user name it cannot take
NAME_REFUSED = gettext_lazy(
    "This user name cannot be used. Choose another: at most 150 letters, digits and "
    "@ . + - _ characters."
)
