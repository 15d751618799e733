"""Page throughput for anonymous visitors, against ``/healthz`` in the same run (issue 27, "Page
throughput"), and the public-page mix at a fixed rate.

Against a running snapleague (``bin/run``, demo data), or the two-host set-up through Caddy:

    PYTHONPATH=. .venv/bin/python benchmarks/page_throughput.py --base http://127.0.0.1:8021 \
        [--threads 8] [--seconds 10] [--rate 50 --mix-seconds 60]
    # two hosts behind Caddy: --base https://127.0.0.1:18643 --ca var/two-hosts/caddy-root.crt

- **throughput**: for ``/healthz`` and each public page of the demo club (club, tournament, the
  cup's stage page with its brackets, the league's standings and its table fragment, a series),
  ``--threads`` anonymous clients (one keep-alive connection each) ask it again and again for
  ``--seconds``; answers per second, and each page's share of ``/healthz``'s (measured before and
  after the pages; their mean is the reference).
- **mix**: the same pages at ``--rate`` requests a second (open loop, as ``load.py pages``, with no
  results posted), p50/p95/p99.

Prints a Markdown table (for docs/benchmarks.md) and the load average.
"""

from __future__ import annotations

import argparse
import os
import threading
import time

from benchmarks.load import Http, demo_pages, open_loop, report


def closed_loop(base: str, path: str, threads: int, seconds: float, ca: str | None) -> tuple[float, int]:
    """(answers a second, answers that were not 200) with ``threads`` clients for ``seconds``."""
    counts = [0] * threads
    failures = [0] * threads
    stop = time.monotonic() + seconds

    def client(i: int) -> None:
        http = Http(base, ca)
        while time.monotonic() < stop:
            status, _ = http.request("GET", path)
            counts[i] += 1
            failures[i] += status != 200

    workers = [threading.Thread(target=client, args=(i,)) for i in range(threads)]
    started = time.monotonic()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(counts) / (time.monotonic() - started), sum(failures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rate", type=float, default=50)
    parser.add_argument("--mix-seconds", type=float, default=60)
    parser.add_argument("--ca", help="a CA certificate to trust for https (two hosts: Caddy's root.crt)")
    args = parser.parse_args()
    pages, _tournaments = demo_pages(Http(args.base, args.ca))
    standings = next(p for p in pages if p.endswith("/standings/"))
    pages.insert(pages.index(standings) + 1, standings + "table/")
    before = os.getloadavg()[0]

    for path in pages:  # warm: the first rendering of each fragment, templates compiled
        Http(args.base, args.ca).request("GET", path)
    healthz = [closed_loop(args.base, "/healthz", args.threads, args.seconds, args.ca)[0]]
    measured = {path: closed_loop(args.base, path, args.threads, args.seconds, args.ca) for path in pages}
    healthz.append(closed_loop(args.base, "/healthz", args.threads, args.seconds, args.ca)[0])
    reference = sum(healthz) / 2
    print(f"| page | answers/s ({args.threads} clients) | share of /healthz | not 200 |")
    print("|---|---|---|---|")
    print(f"| /healthz | {healthz[0]:.0f} before, {healthz[1]:.0f} after | 1 | 0 |")
    for path, (rate, failures) in measured.items():
        print(f"| {path} | {rate:.0f} | {rate / reference:.2f} | {failures} |")

    reader = Http(args.base, args.ca)

    def fetch(i: int) -> tuple[str, int]:
        path = pages[i % len(pages)]
        return path, reader.request("GET", path)[0]

    count = int(args.rate * args.mix_seconds)
    started = time.monotonic()
    samples = open_loop(fetch, count, args.rate, 64, f"mix at {args.rate}/s")
    figures = report(samples, time.monotonic() - started)
    print(
        f"\nmix at {args.rate:g}/s for {args.mix_seconds:g} s: p50 {figures['p50_ms']} ms, "
        f"p95 {figures['p95_ms']} ms, p99 {figures['p99_ms']} ms, errors {figures['errors']}"
    )
    print(f"(load average {before:.2f} before, {os.getloadavg()[0]:.2f} after)")


if __name__ == "__main__":
    main()
