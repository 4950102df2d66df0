"""The accounts API: tokens (issued for a password, listed, revoked) and club invitations.

Nobody becomes a member of a club without saying so: admins invite (a user name, or a
link), and the invited user accepts or declines. Whether a user name exists is never told.
"""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

import math
from typing import Any

from django.contrib.auth import authenticate
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import APIException, Throttled, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from records import selectors, services
from records.models import AccessToken, Invitation, Membership
from records.permissions import ClubMixin, signed_in
from records.serializers import (
    AccessTokenSerializer,
    DocumentErrorSerializer,
    InvitationCreateSerializer,
    InvitationSerializer,
    IssuedTokenSerializer,
    LinkRedeemSerializer,
    MembershipRoleSerializer,
    SignInSerializer,
)
from records.signin import sign_in_refusal

ADMIN = Membership.Role.ADMIN
OWNER = Membership.Role.OWNER
THROTTLED = OpenApiResponse(DocumentErrorSerializer, "Too many attempts; see Retry-After.")


# -- tokens --------------------------------------------------------------------------


class SignInUnavailable(APIException):
    """The sign-in limits cannot be checked (the cache is down): 503 with Retry-After."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = gettext_lazy(
        "Signing in is unavailable for a moment. Try again in %(seconds)s seconds.")
    default_code = "unavailable"

    def __init__(self, wait: float) -> None:
        self.wait = wait
        super().__init__(str(self.default_detail) % {"seconds": math.ceil(wait)})


class TokenIssue(APIView):
    """A new API token for a user name and password (the sign-in limits of every path:
    the authentication backend counts the attempt, records/signin.py)."""

    authentication_classes: list[Any] = []  # a stale token in the header must not get a 401
    permission_classes = [AllowAny]

    @extend_schema(
        request=SignInSerializer,
        responses={
            200: IssuedTokenSerializer,
            400: OpenApiResponse(DocumentErrorSerializer, "Wrong user name or password."),
            429: THROTTLED,
            503: OpenApiResponse(DocumentErrorSerializer,
                                 "The sign-in limits cannot be checked; see Retry-After."),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        form = SignInSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        user = authenticate(
            request._request,
            username=form.validated_data["username"],
            password=form.validated_data["password"],
        )
        refusal = sign_in_refusal(request._request)
        if refusal is not None and refusal.status == 503:
            raise SignInUnavailable(wait=refusal.wait)
        if refusal is not None:
            raise Throttled(wait=refusal.wait)
        if user is None or not user.is_active:
            raise ValidationError(_("Unable to sign in with this user name and password."))
        issued = services.issue_token(user=user, name=form.validated_data.get("name", ""))
        return Response(IssuedTokenSerializer(issued).data)


class TokenList(generics.ListAPIView[AccessToken]):
    """Your unexpired API tokens (their keys are never shown again)."""

    queryset = AccessToken.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = AccessTokenSerializer

    def get_queryset(self) -> QuerySet[AccessToken]:
        return selectors.user_tokens(signed_in(self.request))


class TokenDetail(generics.RetrieveDestroyAPIView[AccessToken]):
    """One of your tokens; DELETE revokes it at once."""

    queryset = AccessToken.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = AccessTokenSerializer
    lookup_url_kwarg = "token_id"

    def get_queryset(self) -> QuerySet[AccessToken]:
        return selectors.user_tokens(signed_in(self.request))

    def perform_destroy(self, instance: AccessToken) -> None:
        services.revoke_token(token=instance)


# -- invitations, as the club sees them ----------------------------------------------


class ClubInvitationList(ClubMixin, generics.ListCreateAPIView[Invitation]):
    """A club's invitations; admins invite a user name or make a link (owners invite owners).

    The answer is the same whether or not the user name exists.
    """

    queryset = Invitation.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = InvitationSerializer
    roles = {"GET": ADMIN, "POST": ADMIN}

    def get_queryset(self) -> QuerySet[Invitation]:
        return selectors.club_invitations(self.club)

    @extend_schema(request=InvitationCreateSerializer, responses={201: InvitationSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        form = InvitationCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        role = form.validated_data["role"]
        if role == OWNER and not self.membership.has_role(OWNER):
            self.permission_denied(request, _("Only an owner can invite an owner."))
        try:
            issued = services.invite(
                club=self.club,
                invited_by=signed_in(request),
                role=role,
                username=form.validated_data.get("username") or None,
            )
        except services.InvitationError as exc:
            raise ValidationError({"username": [str(exc)]}) from None
        body = InvitationSerializer(issued.invitation).data
        return Response({**body, "link_token": issued.link_secret}, status=status.HTTP_201_CREATED)


class ClubInvitationDetail(ClubMixin, generics.RetrieveDestroyAPIView[Invitation]):
    """One invitation of the club; DELETE revokes it if it is still pending."""

    queryset = Invitation.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = InvitationSerializer
    roles = {"GET": ADMIN, "DELETE": ADMIN}
    lookup_url_kwarg = "invitation_id"

    def get_queryset(self) -> QuerySet[Invitation]:
        return selectors.club_invitations(self.club)

    def perform_destroy(self, instance: Invitation) -> None:
        try:
            services.revoke_invitation(invitation=instance, user=signed_in(self.request))
        except services.InvitationError as exc:
            raise ValidationError(str(exc)) from None


# -- invitations, as the invited user sees them --------------------------------------


class MyInvitationList(generics.ListAPIView[Invitation]):
    """The open invitations addressed to your user name."""

    queryset = Invitation.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = InvitationSerializer

    def get_queryset(self) -> QuerySet[Invitation]:
        return selectors.invitations_for_user(signed_in(self.request))


class InvitationAnswer(generics.GenericAPIView[Invitation]):
    """Accept (you become a member with the offered role) or decline an invitation to you."""

    queryset = Invitation.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = InvitationSerializer
    lookup_url_kwarg = "invitation_id"
    accept = True

    def get_queryset(self) -> QuerySet[Invitation]:
        return selectors.invitations_for_user(signed_in(self.request))

    @extend_schema(
        request=None,
        responses={
            201: OpenApiResponse(MembershipRoleSerializer, "Accepted: your new membership."),
            204: OpenApiResponse(description="Declined."),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        invitation = self.get_object()
        user = signed_in(request)
        try:
            if not self.accept:
                services.decline_invitation(invitation=invitation, user=user)
                return Response(status=status.HTTP_204_NO_CONTENT)
            membership = services.accept_invitation(invitation=invitation, user=user)
        except services.InvitationError as exc:
            raise ValidationError(str(exc)) from None
        return Response(MembershipRoleSerializer(membership).data, status=status.HTTP_201_CREATED)


class LinkRedeem(generics.GenericAPIView[Invitation]):
    """Accept an invitation link: you become a member of its club with its role."""

    queryset = Invitation.objects.none()
    serializer_class = LinkRedeemSerializer

    @extend_schema(
        responses={
            201: MembershipRoleSerializer,
            404: OpenApiResponse(DocumentErrorSerializer, "No open invitation has this link."),
        }
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        form = LinkRedeemSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        invitation = selectors.invitation_by_link(form.validated_data["token"])
        if invitation is None:
            raise Http404("No open invitation has this link.")
        try:
            membership = services.accept_invitation(
                invitation=invitation, user=signed_in(request)
            )
        except services.InvitationError as exc:
            raise ValidationError({"token": [str(exc)]}) from None
        return Response(MembershipRoleSerializer(membership).data, status=status.HTTP_201_CREATED)
