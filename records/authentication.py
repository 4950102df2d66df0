"""API tokens (``Authorization: Token <key>``) that expire and can be revoked: AccessToken."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from records import selectors
from records.models import AccessToken

# Recording each use would be a write per request; once a minute tells the user enough.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class AccessTokenAuthentication(TokenAuthentication):
    """DRF's token scheme (401 with ``WWW-Authenticate: Token``), over AccessToken rows."""

    def authenticate_credentials(self, key: str) -> tuple[User, AccessToken]:
        token = selectors.live_token(key)
        if token is None or not token.user.is_active:
            raise AuthenticationFailed("Invalid or expired token.")
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
            AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token

    def authenticate_header(self, request: Any) -> str:
        return self.keyword
