from django.urls import path

from records import views

urlpatterns = [
    path("clubs/", views.ClubList.as_view(), name="club-list"),
    path("clubs/<int:club_id>/", views.ClubDetail.as_view(), name="club-detail"),
    path(
        "clubs/<int:club_id>/memberships/",
        views.MembershipList.as_view(),
        name="membership-list",
    ),
    path(
        "clubs/<int:club_id>/memberships/<int:membership_id>/",
        views.MembershipDetail.as_view(),
        name="membership-detail",
    ),
    path("clubs/<int:club_id>/players/", views.PlayerList.as_view(), name="player-list"),
    path(
        "clubs/<int:club_id>/players/<int:player_id>/",
        views.PlayerDetail.as_view(),
        name="player-detail",
    ),
    path("clubs/<int:club_id>/matches/", views.MatchList.as_view(), name="match-list"),
]
