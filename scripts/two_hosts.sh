#!/usr/bin/env bash
# Two snapleague "hosts" on this machine behind Caddy, sharing one PostgreSQL and one Redis: the
# shape of a real installation of several machines, to try failover on one (docs/deployment.md,
# "Two hosts").
#   scripts/two_hosts.sh start      migrate, then start what is not running: host a, host b, Caddy
#   scripts/two_hosts.sh stop       stop all three (each host stops its own processes)
#   scripts/two_hosts.sh status     which run, each host's /healthz directly and through Caddy
#   scripts/two_hosts.sh kill a|b   kill -9 every process of one host at once (a power cut); `start`
#                                   brings it back
# A host is `python -m snapleague.supervise`: a web process (WEB_CONCURRENCY, 1), the `stages` and
# `background` workers (WORKER_CONCURRENCY, 1 here). Host a also runs Celery beat; host b runs
# none (two beats would send every periodic task twice). While a is down nothing is scheduled
# (the reconcilers wait): `kill a` says so.
# The site: https://127.0.0.1:18643/ (Caddy's own CA: var/two-hosts/caddy-root.crt), http on 18680
# redirects there. Hosts: http://127.0.0.1:18601 (a), :18602 (b). Ports: TWO_HOSTS_PORT_BASE
# (18600) or HOST_A_PORT, HOST_B_PORT, CADDY_HTTPS_PORT, CADDY_HTTP_PORT, CADDY_ADMIN_PORT.
# Services (defaults): DATABASE_URL postgres://snapleague@127.0.0.1:5432/snapleague_hosts, Redis
# 127.0.0.1:6379 databases 8 (CELERY_BROKER_URL), 9 (CHANNEL_LAYER_URL), 10 (CACHE_URL). State,
# logs and pids: TWO_HOSTS_DIR (var/two-hosts). TWO_HOSTS_MIGRATE=0 skips the migration.
source "$(dirname "$0")/../bin/_env.sh"
cd "$SNAPLEAGUE_ROOT"

DIR="$(mkdir -p "${TWO_HOSTS_DIR:-var/two-hosts}" && cd "${TWO_HOSTS_DIR:-var/two-hosts}" && pwd)"
BASE="${TWO_HOSTS_PORT_BASE:-18600}"
export HOST_A_PORT="${HOST_A_PORT:-$((BASE + 1))}" HOST_B_PORT="${HOST_B_PORT:-$((BASE + 2))}"
export CADDY_HTTPS_PORT="${CADDY_HTTPS_PORT:-$((BASE + 43))}" CADDY_HTTP_PORT="${CADDY_HTTP_PORT:-$((BASE + 80))}"
export CADDY_ADMIN_PORT="${CADDY_ADMIN_PORT:-$((BASE + 19))}"
export SITE_HOST="${SITE_HOST:-127.0.0.1}"
SITE="https://$SITE_HOST:$CADDY_HTTPS_PORT"
CA="$DIR/caddy/data/caddy/pki/authorities/local/root.crt"

# What both hosts share: the services, the secrets, the site's address.
export DATABASE_URL="${DATABASE_URL:-postgres://snapleague@127.0.0.1:5432/snapleague_hosts}"
export CELERY_BROKER_URL="${CELERY_BROKER_URL:-redis://127.0.0.1:6379/8}"
export CHANNEL_LAYER_URL="${CHANNEL_LAYER_URL:-redis://127.0.0.1:6379/9}"
export CACHE_URL="${CACHE_URL:-redis://127.0.0.1:6379/10}"
export DEBUG=0 TLS_PROXY=1
# HSTS on 127.0.0.1/localhost would make a browser refuse plain http on every port of it (bin/run
# on :8000 too): off here; a real site keeps the default (docs/security.md).
export HSTS_SECONDS="${HSTS_SECONDS:-0}"
export ALLOWED_HOSTS="${ALLOWED_HOSTS:-$SITE_HOST,localhost}"
# The Origin of the site's pages (forms, and sockets: snapleague/sockets.py); the host port the
# browser sees is Caddy's.
export CSRF_TRUSTED_ORIGINS="${CSRF_TRUSTED_ORIGINS:-$SITE,https://localhost:$CADDY_HTTPS_PORT}"
export SITE_URL="${SITE_URL:-$SITE}"
export WEB_CONCURRENCY="${WEB_CONCURRENCY:-1}" WORKER_CONCURRENCY="${WORKER_CONCURRENCY:-1}"

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; }
pid_of() { [ -s "$DIR/$1.pid" ] && kill -0 "$(cat "$DIR/$1.pid")" 2>/dev/null && cat "$DIR/$1.pid"; }
port_of() { if [ "$1" = a ]; then echo "$HOST_A_PORT"; else echo "$HOST_B_PORT"; fi; }
healthy() { curl -fsS -o /dev/null --max-time 2 "$@" 2>/dev/null; }

secrets() {
  # One SECRET_KEY (sessions, CSRF) and one VAPID key (Web Push subscriptions are bound to it) for
  # both hosts, made once: each host would otherwise make its own VAPID key under its var dir.
  if [ -z "${SECRET_KEY:-}" ]; then
    [ -s "$DIR/secret_key" ] || (umask 077; python -c 'import secrets; print(secrets.token_urlsafe(50))' >"$DIR/secret_key")
    SECRET_KEY="$(cat "$DIR/secret_key")"
    export SECRET_KEY
  fi
  if [ -z "${VAPID_PRIVATE_KEY:-}" ]; then
    [ -s "$DIR/vapid_private.pem" ] || (umask 077; python -c 'import sys; from py_vapid import Vapid02
k = Vapid02(); k.generate_keys(); k.save_key(sys.argv[1])' "$DIR/vapid_private.pem")
    export VAPID_PRIVATE_KEY="$DIR/vapid_private.pem"
  fi
}

start_host() {  # name, then the supervisor's own arguments
  local name="$1" port
  shift
  port="$(port_of "$name")"
  if pid_of "$name" >/dev/null; then echo "host $name is running (pid $(cat "$DIR/$name.pid"))"; return; fi
  mkdir -p "$DIR/$name"
  # Static files as each machine collects them for its release (a's copied: the same release).
  if [ "$name" = a ] || [ ! -d "$DIR/a/static" ]; then
    SNAPLEAGUE_VAR_DIR="$DIR/$name" python manage.py collectstatic --noinput -v0
  else
    rm -rf "$DIR/$name/static" && cp -a "$DIR/a/static" "$DIR/$name/static"
  fi
  # setsid: a session of its own, so a Ctrl-C in this terminal or the end of this script leaves it.
  SNAPLEAGUE_VAR_DIR="$DIR/$name" setsid python -m snapleague.supervise --host 127.0.0.1 --port "$port" "$@" \
    >>"$DIR/$name/supervise.log" 2>&1 </dev/null &
  echo $! >"$DIR/$name.pid"
  echo "host $name: started (pid $!), http://127.0.0.1:$port, logs in $DIR/$name/"
}

start_caddy() {
  if pid_of caddy >/dev/null; then echo "caddy is running (pid $(cat "$DIR/caddy.pid"))"; return; fi
  command -v caddy >/dev/null || { echo "two_hosts: caddy is not installed (apt-get install caddy)" >&2; exit 1; }
  mkdir -p "$DIR/caddy/data" "$DIR/caddy/config"
  # Caddy's state (its CA, certificates, autosaved config) under the var dir, nothing in $HOME.
  HOST_A="127.0.0.1:$HOST_A_PORT" HOST_B="127.0.0.1:$HOST_B_PORT" \
    XDG_DATA_HOME="$DIR/caddy/data" XDG_CONFIG_HOME="$DIR/caddy/config" HOME="$DIR/caddy" \
    setsid caddy run --config deploy/Caddyfile.two-hosts --adapter caddyfile >>"$DIR/caddy.log" 2>&1 </dev/null &
  echo $! >"$DIR/caddy.pid"
  echo "caddy: started (pid $!), $SITE/ and http://$SITE_HOST:$CADDY_HTTP_PORT/, log $DIR/caddy.log"
}

wait_until() {  # what, seconds, command...
  local what="$1" until=$((SECONDS + $2))
  shift 2
  until "$@"; do
    if [ "$SECONDS" -ge "$until" ]; then echo "two_hosts: $what did not answer in time (see $DIR)" >&2; return 1; fi
    sleep 0.2
  done
}

cmd_start() {
  ensure_env
  secrets
  [ "${TWO_HOSTS_MIGRATE:-1}" = 0 ] || SNAPLEAGUE_VAR_DIR="$DIR/a" python manage.py migrate --noinput -v0
  start_host a
  start_host b --no-beat
  start_caddy
  wait_until "host a" 90 healthy "http://127.0.0.1:$HOST_A_PORT/healthz"
  wait_until "host b" 90 healthy "http://127.0.0.1:$HOST_B_PORT/healthz"
  wait_until "caddy" 30 test -s "$CA"
  cp "$CA" "$DIR/caddy-root.crt"
  wait_until "the site through caddy" 30 healthy --cacert "$CA" "$SITE/healthz"
  echo "two hosts are up: $SITE/ (beat runs on host a; trust $DIR/caddy-root.crt or use curl --cacert)"
}

stop_pid() {  # name: SIGTERM, wait (a supervisor stops its children within its 10-s grace)
  local pid
  pid="$(pid_of "$1")" || { rm -f "$DIR/$1.pid"; return 0; }
  kill -TERM "$pid"
  for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then echo "$1 did not stop in 15 s: SIGKILL"; kill -KILL "$pid"; fi
  rm -f "$DIR/$1.pid"
  echo "$1 stopped"
}

cmd_stop() {
  stop_pid caddy
  stop_pid a &
  stop_pid b &
  wait
}

cmd_kill() {  # every process of one host, at once: its supervisor and each child's process group
  local name="$1" pid children
  case "$name" in a | b) ;; *) echo "two_hosts: kill a or b" >&2; exit 2 ;; esac
  pid="$(pid_of "$name")" || { echo "host $name is not running"; return 0; }
  # Stopped first: the supervisor can restart nothing, and no child gets its SIGTERM (graceful:
  # leases released) before the SIGKILL; a host losing power has no time to say goodbye.
  kill -STOP "$pid"
  children="$(ps -o pid= --ppid "$pid" || true)"
  for child in $children; do kill -STOP -- "-$child" 2>/dev/null || true; done
  for child in $children; do kill -KILL -- "-$child" 2>/dev/null || true; done
  kill -KILL "$pid"
  rm -f "$DIR/$name.pid"
  echo "host $name killed (supervisor $pid, process groups: $(echo $children))"
  [ "$name" = b ] || echo "note: beat ran on host a: no periodic tasks until it is started again"
}

cmd_status() {
  local code=0 name pid beat
  for name in a b; do
    if pid="$(pid_of "$name")"; then
      beat="$(ps -o pid=,args= --ppid "$pid" | awk '/celery .*beat/ {print "beat (pid " $1 ")"}')"
      if healthy "http://127.0.0.1:$(port_of "$name")/healthz"; then
        echo "host $name: running (pid $pid), healthy on :$(port_of "$name") ${beat:+, $beat}"
      else
        echo "host $name: running (pid $pid), NOT answering on :$(port_of "$name")"; code=1
      fi
    else
      echo "host $name: stopped"; code=1
    fi
  done
  if pid="$(pid_of caddy)"; then
    if [ -s "$CA" ] && healthy --cacert "$CA" "$SITE/healthz"; then
      echo "caddy: running (pid $pid), $SITE/healthz answers"
    else
      echo "caddy: running (pid $pid), $SITE/healthz does NOT answer"; code=1
    fi
  else
    echo "caddy: stopped"; code=1
  fi
  return "$code"
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  kill) cmd_kill "${2:-}" ;;
  -h | --help | help) usage ;;
  *) usage >&2; exit 2 ;;
esac
