"""Club-scoped access: members read and upload, admins manage, owners own.

A user who is not a member of the club gets 404, never 403, so that the existence of a
club does not leak. Every club-scoped view gets the club from the URL (``club_id``).
"""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request

from records import selectors
from records.models import Club, Membership


class HasClubRole(BasePermission):
    """The request's user has the role the view asks for this method (404 for non-members)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if not request.user or not request.user.is_authenticated:
            return False
        membership: Membership = view.membership
        return membership.has_role(view.required_role(request.method or "GET"))


class ClubMixin(GenericAPIView[Any]):
    """For views under ``clubs/<club_id>/``: ``self.club`` and ``self.membership``.

    ``roles`` maps an HTTP method to the least role it needs (``member`` otherwise).
    """

    permission_classes = [IsAuthenticated, HasClubRole]
    roles: dict[str, str] = {}

    def required_role(self, method: str) -> str:
        return self.roles.get(method, Membership.Role.MEMBER)

    @property
    def membership(self) -> Membership:
        cached: Membership | None = getattr(self, "_membership", None)
        if cached is None:
            cached = selectors.membership_for(
                user=self.request.user, club_id=int(self.kwargs["club_id"])
            )
            if cached is None:
                raise Http404("No such club.")
            self._membership = cached
        return cached

    @property
    def club(self) -> Club:
        return self.membership.club


def signed_in(request: Request | HttpRequest) -> User:
    """The request's user, known to be signed in (the view's permissions checked it)."""
    user = request.user
    assert isinstance(user, User), "IsAuthenticated lets only signed-in users through"
    return user
