"""Publishing a round for 1,024 players: how fast every notification is queued, and whether the
worker delivers every e-mail once (issue 25, docs/notifications.md).

Usage (PostgreSQL + Redis and real Celery workers; the database is migrated and the benchmark's
club is left in it: use a database of its own):
    DATABASE_URL=postgres://snapleague@127.0.0.1:5432/snapleague_bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/12 \\
        PYTHONPATH=. .venv/bin/python benchmarks/notifications_fanout.py [--players 1024] [--runs 3]

Each run builds a club with ``--players`` players, each linked to an account with an e-mail address
(what registration makes), entered in a Swiss stage; starts the two workers ``bin/run`` starts
(snapleague/supervise.py) with ``EMAIL_URL`` pointing at a real SMTP server on loopback (aiosmtpd,
in this process), warmed up by a round of 4 told first (as a running club's workers are); then
publishes round 1 through the service the page and the API call (``stage_round_publish``). Measured from the publish call:
- ``publish``: the call returns (the round, its series and every in-app notification committed);
- ``queued``: every notification's e-mail is queued (an ``OutgoingMail`` row each, by the
  dispatch task in the worker);
- ``delivered``: the SMTP server has received them all.
Then every dispatch and mail task is sent again (a retry storm): the SMTP server must receive
nothing more. Checked: one mail per player, no Message-ID twice, every mail ``sent``.

Prints a table and writes docs/notifications-fanout.svg (mails received over time, each run).
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SVG = ROOT / "docs" / "notifications-fanout.svg"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Inbox:
    """What the loopback SMTP server received: (seconds since the publish, recipient, Message-ID)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.received: list[tuple[float, str, str]] = []
        self.started = time.monotonic()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        import email

        message = email.message_from_bytes(envelope.content)
        with self.lock:
            self.received.append(
                (time.monotonic() - self.started, envelope.rcpt_tos[0], str(message["Message-ID"]))
            )
        return "250 OK"


def _setup(smtp_port: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapleague.settings")
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
    os.environ["EMAIL_URL"] = f"smtp://127.0.0.1:{smtp_port}"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _build(players: int) -> tuple[Any, int, list[int]]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from tournaments.competitions.services import tournament_create
    from tournaments.competitions.stages.create import stage_create
    from tournaments.models import Club, Entry, GameKind, Player

    tag = secrets.token_hex(4)
    User = get_user_model()
    organiser = User.objects.create(username=f"fanout-organiser-{tag}")
    club = Club.objects.create(name=f"Fan-out {tag}", slug=f"fanout-{tag}")
    club.organisers.add(organiser)
    password = make_password(None)
    users = User.objects.bulk_create(
        User(username=f"fanout-{tag}-{i:04d}", email=f"p{i:04d}.{tag}@example.org", password=password)
        for i in range(players)
    )
    made = Player.objects.bulk_create(
        Player(club=club, name=f"Player {i:04d}", user=user) for i, user in enumerate(users)
    )
    tournament = tournament_create(user=organiser, club=club, name=f"Open {tag}", game=GameKind.SNAPSZER)
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=player, seed=i + 1) for i, player in enumerate(made)
    )
    stage = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    return organiser, stage.pk, [u.pk for u in users]


def _wait(count: Any, target: int, timeout: float, progress: Any) -> float | None:
    started = time.monotonic()
    seen = 0
    while time.monotonic() - started < timeout:
        now = count()
        progress.update(now - seen)
        seen = now
        if now >= target:
            return time.monotonic()
        time.sleep(0.02)
    return None


def run_once(players: int, inbox: Inbox, log_dir: Path) -> dict[str, Any]:
    from tqdm import tqdm

    from benchmarks.round_publish import _purge, _stop, _workers
    from tournaments.accounts.models import OutgoingMail
    from tournaments.accounts.tasks import mail_send_task
    from tournaments.competitions.stages.publish import stage_round_publish
    from tournaments.notifications.models import Notification
    from tournaments.notifications.tasks import notifications_dispatch_task

    organiser, stage_id, user_ids = _build(players)
    _purge()
    workers = _workers("queues", log_dir)
    try:
        # Warm the workers up as a running club's are: a round of 4 told, its 4 mails received.
        warm_organiser, warm_stage, _warm_users = _build(4)
        with inbox.lock:
            inbox.received.clear()
        stage_round_publish(user=warm_organiser, stage_id=warm_stage)
        deadline = time.monotonic() + 60
        while len(inbox.received) < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        with inbox.lock:
            inbox.received.clear()
        inbox.started = started = time.monotonic()
        (round_,) = stage_round_publish(user=organiser, stage_id=stage_id)
        published = time.monotonic()
        made = Notification.objects.filter(user_id__in=user_ids).count()
        mails = OutgoingMail.objects.filter(to__endswith=f".{_tag(organiser)}@example.org")
        with tqdm(total=players, desc="queued   ", unit="mail") as bar:
            queued = _wait(mails.count, players, 120, bar)
        with tqdm(total=players, desc="delivered", unit="mail") as bar:
            delivered = _wait(lambda: len(inbox.received), players, 600, bar)
        # A retry storm: every dispatch and every mail task again; nothing more may arrive.
        notifications_dispatch_task.delay("round_published", f"round:{round_.pk}")
        for mail_id in mails.values_list("pk", flat=True):
            mail_send_task.delay(mail_id)
        time.sleep(8)
        with inbox.lock:
            received = list(inbox.received)
        per_person = Counter(to for _t, to, _m in received)
        return {
            "players": players,
            "notifications": made,
            "publish": published - started,
            "queued": (queued - started) if queued else None,
            "delivered": (delivered - started) if delivered else None,
            "received": len(received),
            "people": len(per_person),
            "twice": sum(1 for c in per_person.values() if c > 1),
            "message_ids": len({m for _t, _to, m in received}),
            "unsent": mails.exclude(status=OutgoingMail.Status.SENT).count(),
            "times": sorted(t for t, _to, _m in received),
        }
    finally:
        _stop(workers)


def _tag(organiser: Any) -> str:
    return str(organiser.username).rsplit("-", 1)[-1]


def write_svg(runs: list[dict[str, Any]], path: Path) -> None:
    width, height, pad = 640, 300, 45
    colours = ["#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
    t_max = max([1.0, *(r["times"][-1] for r in runs if r["times"])])
    n_max = max([1, *(r["players"] for r in runs)])
    plot_w, plot_h = width - 2 * pad, height - 2 * pad
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
        f'font-size="11"><rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{pad}" y="20" font-size="13">Round 1 for {n_max} players: e-mails received by the SMTP '
        "server after the publish</text>",
    ]
    base = pad + plot_h
    for index, run in enumerate(runs):
        colour = colours[index % len(colours)]
        points = " ".join(
            f"{pad + plot_w * t / t_max:.1f},{base - plot_h * (k + 1) / n_max:.1f}"
            for k, t in enumerate(run["times"])
        )
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}"/>')
        queued = run["queued"] or 0
        x = pad + plot_w * queued / t_max
        parts.append(
            f'<line x1="{x:.1f}" y1="{pad}" x2="{x:.1f}" y2="{base}" stroke="{colour}" stroke-dasharray="3 3"/>'
        )
        parts.append(
            f'<text x="{pad + 8}" y="{pad + 14 + 14 * index}" fill="{colour}">run {index + 1}: all queued '
            f"{queued:.2f} s, all delivered {run['delivered'] or float('nan'):.1f} s</text>"
        )
    parts.append(f'<line x1="{pad}" y1="{base}" x2="{pad + plot_w}" y2="{base}" stroke="black"/>')
    parts.append(f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{base}" stroke="black"/>')
    for tick in range(6):
        x = pad + plot_w * tick / 5
        parts.append(
            f'<text x="{x:.0f}" y="{base + 14}" text-anchor="middle">{t_max * tick / 5:.0f} s</text>'
        )
    parts.append(f'<text x="{pad - 4}" y="{pad + 4}" text-anchor="end">{n_max}</text>')
    parts.append(f'<text x="{pad - 4}" y="{base}" text-anchor="end">0</text>')
    parts.append(
        f'<text x="{pad + plot_w}" y="{height - 6}" text-anchor="end">dashed: every e-mail queued</text>'
    )
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    port = _free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    _setup(port)
    runs = []
    try:
        with tempfile.TemporaryDirectory() as logs:
            for number in range(args.runs):
                print(f"run {number + 1} of {args.runs}")
                runs.append(run_once(args.players, inbox, Path(logs)))
    finally:
        controller.stop()
    print()
    print(
        "| run | players | notifications | publish (s) | all e-mails queued (s) | all delivered (s) | received | twice | Message-IDs | not sent |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for number, r in enumerate(runs, 1):
        print(
            f"| {number} | {r['players']} | {r['notifications']} | {r['publish']:.2f} | "
            f"{r['queued'] if r['queued'] is None else round(r['queued'], 2)} | "
            f"{r['delivered'] if r['delivered'] is None else round(r['delivered'], 1)} | {r['received']} | "
            f"{r['twice']} | {r['message_ids']} | {r['unsent']} |"
        )
    queued = [r["queued"] for r in runs if r["queued"] is not None]
    if queued:
        print(f"median all queued {statistics.median(queued):.2f} s; load average {os.getloadavg()[0]:.2f}")
    write_svg(runs, SVG)
    print(f"wrote {SVG.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
