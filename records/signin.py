"""The sign-in page, throttled like the token endpoint (per user name and per address)."""

from __future__ import annotations

import math
from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse

from records.throttles import sign_in_wait


class ThrottledLoginView(auth_views.LoginView):
    """Django's LoginView; a POST over the sign-in limits is a 429 with Retry-After."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = sign_in_wait(request)
        if wait is not None:
            seconds = math.ceil(wait)
            response = HttpResponse(
                f"Too many sign-in attempts. Try again in {seconds} seconds.\n",
                status=429,
                content_type="text/plain; charset=utf-8",
            )
            response["Retry-After"] = str(seconds)
            return response
        return super().post(request, *args, **kwargs)
