"""The records' routes: ``api_urls`` (under /api/v1/) and ``page_urls`` (the site), each
included by config/urls.py in its namespace."""

from django.urls import URLPattern, path

import records.converters  # noqa: F401  (registers <id:…>)
from records import account_views, pages, views

CLUB = "clubs/<id:club_id>/"

api_urls: list[URLPattern] = [
    path("clubs/", views.ClubList.as_view(), name="club-list"),
    path("clubs/<id:club_id>/", views.ClubDetail.as_view(), name="club-detail"),
    path(
        "clubs/<id:club_id>/memberships/",
        views.MembershipList.as_view(),
        name="membership-list",
    ),
    path(
        "clubs/<id:club_id>/memberships/<id:membership_id>/",
        views.MembershipDetail.as_view(),
        name="membership-detail",
    ),
    path("clubs/<id:club_id>/players/", views.PlayerList.as_view(), name="player-list"),
    path(
        "clubs/<id:club_id>/players/<id:player_id>/",
        views.PlayerDetail.as_view(),
        name="player-detail",
    ),
    path("clubs/<id:club_id>/matches/", views.MatchList.as_view(), name="match-list"),
    path(
        "clubs/<id:club_id>/invitations/",
        account_views.ClubInvitationList.as_view(),
        name="club-invitation-list",
    ),
    path(
        "clubs/<id:club_id>/invitations/<id:invitation_id>/",
        account_views.ClubInvitationDetail.as_view(),
        name="club-invitation-detail",
    ),
    path("invitations/", account_views.MyInvitationList.as_view(), name="invitation-list"),
    path(
        "invitations/<id:invitation_id>/accept/",
        account_views.InvitationAnswer.as_view(accept=True),
        name="invitation-accept",
    ),
    path(
        "invitations/<id:invitation_id>/decline/",
        account_views.InvitationAnswer.as_view(accept=False),
        name="invitation-decline",
    ),
    path("invitations/redeem/", account_views.LinkRedeem.as_view(), name="invitation-redeem"),
    path("auth/token/", account_views.TokenIssue.as_view(), name="auth-token"),
    path("auth/tokens/", account_views.TokenList.as_view(), name="token-list"),
    path(
        "auth/tokens/<id:token_id>/", account_views.TokenDetail.as_view(), name="token-detail"
    ),
]

page_urls: list[URLPattern] = [
    path("", pages.home, name="home"),
    path("clubs/", pages.club_list, name="club-list"),
    # the club's own page (its home) is the books' (analysis/league/nights/urls.py)
    path(CLUB + "matches/", pages.match_list, name="match-list"),
    path(CLUB + "upload/", pages.match_upload, name="match-upload"),
    path(CLUB + "members/", pages.club_members, name="club-members"),
    path(CLUB + "members/invite/", pages.member_invite, name="member-invite"),
    path(
        CLUB + "invitations/<id:invitation_id>/revoke/",
        pages.invitation_revoke,
        name="invitation-revoke",
    ),
    path("invitations/", pages.invitation_list, name="invitation-list"),
    path("invitations/<id:invitation_id>/", pages.invitation_answer, name="invitation-answer"),
    path("invitations/link/<str:secret>/", pages.invitation_link, name="invitation-link"),
    path(CLUB + "members/<id:membership_id>/", pages.member_change, name="member-change"),
    path(CLUB + "time-zone/", pages.club_time_zone, name="club-time-zone"),
    path("settings/", pages.own_settings, name="own-settings"),
]
