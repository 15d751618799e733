"""The API's URL conf (``/api/``, namespace ``tournaments_api``): each concern's routes, joined.

Each concern owns its routes in its ``api_urls.py``; none of their paths overlap, so the order
of the concerns here changes nothing (tests/snapshots/urls.txt lists every route).
"""

from tournaments.clubs import api_urls as clubs
from tournaments.competitions import api_urls as competitions
from tournaments.integrations import api_urls as integrations
from tournaments.nights import api_urls as nights
from tournaments.rankings import api_urls as rankings

app_name = "tournaments_api"
urlpatterns = [
    *clubs.urlpatterns,
    *competitions.urlpatterns,
    *nights.urlpatterns,
    *rankings.urlpatterns,
    *integrations.urlpatterns,
]
