"""The rankings' API routes: ratings, seasons, ladders (joined by tournaments/urls.py)."""

from django.urls import path

from tournaments.rankings.ladder import api as ladder_api
from tournaments.rankings.ratings import api as ratings_api
from tournaments.rankings.seasons import api as seasons_api

urlpatterns = [
    path("clubs/<int:club_id>/ratings/", ratings_api.ClubRatingsApi.as_view(), name="club-ratings"),
    path("players/<int:player_id>/ratings/", ratings_api.PlayerRatingsApi.as_view(), name="player-ratings"),
    path("seasons/", seasons_api.SeasonListCreateApi.as_view(), name="season-list"),
    path("seasons/<int:season_id>/", seasons_api.SeasonDetailApi.as_view(), name="season-detail"),
    path("seasons/<int:season_id>/table/", seasons_api.SeasonTableApi.as_view(), name="season-table"),
    path(
        "seasons/<int:season_id>/tournaments/",
        seasons_api.SeasonTournamentsApi.as_view(),
        name="season-tournaments",
    ),
    path("ladders/", ladder_api.LadderListCreateApi.as_view(), name="ladder-list"),
    path("ladders/<int:ladder_id>/", ladder_api.LadderDetailApi.as_view(), name="ladder-detail"),
    path("ladders/<int:ladder_id>/players/", ladder_api.LadderPlayersApi.as_view(), name="ladder-players"),
    path(
        "ladders/<int:ladder_id>/challenges/",
        ladder_api.LadderChallengesApi.as_view(),
        name="ladder-challenges",
    ),
    path(
        "ladder-challenges/<int:challenge_id>/answer/",
        ladder_api.LadderChallengeAnswerApi.as_view(),
        name="ladder-answer",
    ),
    path(
        "ladder-challenges/<int:challenge_id>/result/",
        ladder_api.LadderChallengeResultApi.as_view(),
        name="ladder-result",
    ),
]
