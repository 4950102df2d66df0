"""The one guard of every club page: the signed-in user's membership of the club, or 404.

A non-member is told nothing about the club, not even that it exists (the API's
``ClubMixin`` answers the same way); an action for admins is refused with 403 to a member.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from records import selectors
from records.models import Membership


def member_or_404(request: HttpRequest, club_id: int) -> Membership:
    """The user's membership (with its club), or 404 for a non-member or a missing club."""
    membership = selectors.membership_for(user=request.user, club_id=club_id)
    if membership is None:
        raise Http404("No such club.")
    return membership


def admin_or_403(request: HttpRequest, club_id: int) -> Membership:
    """As :func:`member_or_404`, and 403 unless the member is an admin (or the owner)."""
    return require_admin(member_or_404(request, club_id))


def require_admin(membership: Membership) -> Membership:
    """The membership, if it is an admin's (or the owner's); else 403."""
    if not membership.has_role(Membership.Role.ADMIN):
        raise PermissionDenied(_("Only the club's admins can do this."))
    return membership
