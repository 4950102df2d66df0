"""Sign-in: every path (the sign-in page, the token endpoint, the admin, which sends its
sign-in here, and any future one) authenticates through ``ThrottledModelBackend``, so the
limits of ``records.throttles.SignInAttempt`` cannot be sidestepped by a path or a spelling.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

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
from records.throttles import SignInAttempt

#: AUTHENTICATION_BACKENDS' first entry; sessions remember it
BACKEND = "records.signin.ThrottledModelBackend"


class ThrottledModelBackend(ModelBackend):
    """Django's ModelBackend behind the sign-in limits.

    The name is normalised as the sign-in form does (NFKC), so the token endpoint accepts
    the same spellings as the page. A refused attempt never reaches the password hasher;
    it leaves the seconds to wait on the request (``sign_in_wait``) for the view's 429.
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
        wait = attempt.begin()
        if wait is not None:
            if request is not None:
                request.sign_in_wait = wait
            raise PermissionDenied("too many sign-in attempts")
        user = super().authenticate(request, username=authenticated_name(username),
                                    password=password)
        if user is None:
            raise PermissionDenied("wrong user name or password")
        attempt.succeeded()
        return user


def sign_in_wait(request: Any) -> float | None:
    """The seconds to wait that the backend left on the request if it refused the attempt."""
    wait: float | None = getattr(request, "sign_in_wait", None)
    return wait


def too_many_attempts(wait: float, *, signing_up: bool = False) -> HttpResponse:
    """A page's answer over the sign-in or sign-up limits: a 429 with Retry-After."""
    seconds = math.ceil(wait)
    text = (_("Too many sign-up attempts. Try again in %(seconds)s seconds.") if signing_up
            else _("Too many sign-in attempts. Try again in %(seconds)s seconds."))
    response = HttpResponse(
        text % {"seconds": seconds},
        status=429,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(seconds)
    return response


class ThrottledLoginView(auth_views.LoginView):
    """Django's LoginView; an attempt over the sign-in limits is a 429 with Retry-After."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        wait = sign_in_wait(request)
        return too_many_attempts(wait) if wait is not None else response


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
