"""The app's models module, which Django loads: every concern keeps its models beside its services
(``clubs/models.py``, ``competitions/models.py``, ``competitions/results/models.py``,
``nights/models.py``, ``rankings/models.py``, the audit log's in ``audit.py``, the integrations' in
``integrations/``). This module imports them all so that Django registers them under the app label
``tournaments``, and re-exports them: ``from tournaments.models import Stage`` keeps working, and
migrations name ``tournaments.models.default_points_scale``.
"""

from __future__ import annotations

from tournaments.accounts.models import AccountProfile, OutgoingMail
from tournaments.audit import (
    AuditEntry,
)
from tournaments.clubs.models import (
    Club,
    JoinRequest,
    OrganiserInvitation,
    Player,
    PlayerClaim,
)
from tournaments.competitions.models import (
    GAME_KIND_CHOICES,
    GAME_KIND_LABELS,
    BracketSlot,
    Entry,
    Forfeit,
    GameKind,
    Registration,
    RegistrationWindow,
    ResultMode,
    Round,
    Series,
    SeriesFormat,
    SeriesPhase,
    SeriesSeat,
    Stage,
    StageFormat,
    StandingRow,
    Tournament,
    Withdrawal,
)
from tournaments.competitions.results.models import (
    Game,
    GameResult,
    ResultDispute,
    ResultReport,
)
from tournaments.integrations.models import (
    CalendarToken,
)
from tournaments.integrations.tokens.models import (
    ApiToken,
)
from tournaments.integrations.webhooks.models import (
    SUBSCRIBABLE_EVENTS,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookEvent,
)
from tournaments.nights.models import (
    CheckIn,
    Session,
    Station,
)
from tournaments.notifications.models import (
    Notification,
    NotificationPreferences,
    PushDelivery,
    PushSubscription,
)
from tournaments.rankings.models import (
    ClubRatings,
    Ladder,
    LadderChallenge,
    LadderRung,
    PlayerRating,
    RatingPoint,
    Season,
    SeasonTournament,
    default_points_scale,
)

__all__ = [
    "GAME_KIND_CHOICES",
    "GAME_KIND_LABELS",
    "SUBSCRIBABLE_EVENTS",
    "AccountProfile",
    "ApiToken",
    "AuditEntry",
    "BracketSlot",
    "CalendarToken",
    "CheckIn",
    "Club",
    "ClubRatings",
    "Entry",
    "Forfeit",
    "Game",
    "GameKind",
    "GameResult",
    "JoinRequest",
    "Ladder",
    "LadderChallenge",
    "LadderRung",
    "Notification",
    "NotificationPreferences",
    "OrganiserInvitation",
    "OutgoingMail",
    "Player",
    "PlayerClaim",
    "PlayerRating",
    "PushDelivery",
    "PushSubscription",
    "RatingPoint",
    "Registration",
    "RegistrationWindow",
    "ResultDispute",
    "ResultMode",
    "ResultReport",
    "Round",
    "Season",
    "SeasonTournament",
    "Series",
    "SeriesFormat",
    "SeriesPhase",
    "SeriesSeat",
    "Session",
    "Stage",
    "StageFormat",
    "StandingRow",
    "Station",
    "Tournament",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookEndpoint",
    "WebhookEvent",
    "Withdrawal",
    "default_points_scale",
]
