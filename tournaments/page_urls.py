"""The pages' URL conf (namespace ``tournaments``): each concern owns its patterns
(``<concern>/page_urls.py``); this joins them. No two concerns' patterns match the same path, so
their order here does not matter; inside a concern it may ("clubs/new/" before
"clubs/<slug:slug>/")."""

from tournaments.clubs.page_urls import urlpatterns as clubs
from tournaments.competitions.page_urls import urlpatterns as competitions
from tournaments.integrations.page_urls import urlpatterns as integrations
from tournaments.nights.page_urls import urlpatterns as nights
from tournaments.rankings.page_urls import urlpatterns as rankings

app_name = "tournaments"
urlpatterns = [*clubs, *competitions, *nights, *rankings, *integrations]
