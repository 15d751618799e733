"""The pages of ratings, seasons and ladders (joined into ``tournaments/page_urls.py``, namespace
``tournaments``)."""

from django.urls import path

from tournaments.rankings.ladder import views as ladder_views
from tournaments.rankings.ratings import views as rating_views
from tournaments.rankings.seasons import views as season_views

urlpatterns = [
    path("clubs/<slug:slug>/ratings/", rating_views.club_ratings, name="club-ratings"),
    path("clubs/<slug:slug>/seasons/", season_views.club_seasons, name="seasons"),
    path("clubs/<slug:slug>/seasons/new/", season_views.season_create, name="season-create"),
    path("seasons/<int:season_id>/", season_views.season_detail, name="season"),
    path("seasons/<int:season_id>/edit/", season_views.season_edit, name="season-edit"),
    path("seasons/<int:season_id>/tournaments/", season_views.season_tournament, name="season-tournament"),
    path("clubs/<slug:slug>/ladders/", ladder_views.club_ladders, name="ladders"),
    path("clubs/<slug:slug>/ladders/new/", ladder_views.ladder_create, name="ladder-create"),
    path("ladders/<int:ladder_id>/", ladder_views.ladder_detail, name="ladder"),
    path("ladders/<int:ladder_id>/edit/", ladder_views.ladder_edit, name="ladder-edit"),
    path("ladders/<int:ladder_id>/players/", ladder_views.ladder_players, name="ladder-players"),
    path("ladders/<int:ladder_id>/challenge/", ladder_views.ladder_challenge, name="ladder-challenge"),
    path(
        "ladders/<int:ladder_id>/challenges/record/",
        ladder_views.ladder_challenge_record,
        name="ladder-challenge-record",
    ),
    path("ladders/<int:ladder_id>/mine/", ladder_views.ladder_mine, name="ladder-mine"),
    path("ladders/<int:ladder_id>/history/", ladder_views.ladder_history, name="ladder-history"),
    path(
        "ladder-challenges/<int:challenge_id>/answer/",
        ladder_views.ladder_challenge_answer,
        name="ladder-answer",
    ),
    path(
        "ladder-challenges/<int:challenge_id>/result/",
        ladder_views.ladder_challenge_result,
        name="ladder-result",
    ),
]
