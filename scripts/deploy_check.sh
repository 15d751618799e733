#!/usr/bin/env bash
# Replays deploy/Dockerfile's steps without Docker (no Docker daemon runs here) and checks what the
# image would serve: a copy of the tracked files, `uv sync --frozen --no-dev --no-install-project`
# (so nothing the app needs hides among the dev dependencies), collectstatic with the manifest,
# the Procfile's release step, `check --deploy --fail-level WARNING` on production settings, then the
# Dockerfile's CMD (read from the file) behind a pretend TLS proxy: /healthz answers, plain HTTP is
# redirected to HTTPS, HSTS and the CSP are sent, the hashed static files are served; and the
# Procfile's Celery app loads. What it cannot check: the base image and `useradd` (docs/deployment.md).
#   scripts/deploy_check.sh        (.ci/run runs it; about 15 s with uv's cache warm)
source "$(dirname "$0")/../bin/_env.sh"
ensure_env
python="$(find_python)"
uv="$SNAPLEAGUE_UV"
work="$(mktemp -d)"
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "deploy check FAILED: $*" >&2; [ -f "$work/web.log" ] && tail -20 "$work/web.log" >&2; exit 1; }

echo "== COPY: the tracked files"
mkdir -p "$work/app" "$work/var"
(cd "$SNAPLEAGUE_ROOT" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - 2>/dev/null) | tar -xf - -C "$work/app"
cd "$work/app"

echo "== RUN uv sync --frozen --no-dev --no-install-project (Python: $python)"
UV_PROJECT_ENVIRONMENT="$work/app/.venv" "$uv" sync --frozen --no-dev --no-install-project --quiet --python "$python"
export PATH="$work/app/.venv/bin:$PATH" SNAPLEAGUE_VAR_DIR="$work/var"
unset DATABASE_URL CELERY_BROKER_URL CHANNEL_LAYER_URL  # the image's defaults: SQLite and files in the var dir
[ ! -e .venv/bin/pytest ] || fail "the production environment has pytest: --no-dev did not apply"

echo "== RUN the translation catalogues"
python -m snapleague.catalogues
echo "== RUN collectstatic (DEBUG=0, manifest)"
DEBUG=0 SECRET_KEY=build STATIC_MANIFEST=1 python manage.py collectstatic --noinput -v 0

export DEBUG=0 TLS_PROXY=1 ALLOWED_HOSTS=cards.example.org CSRF_TRUSTED_ORIGINS=https://cards.example.org
SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')"; export SECRET_KEY

echo "== Procfile release: $(sed -n 's/^release: //p' deploy/Procfile)"
eval "$(sed -n 's/^release: //p' deploy/Procfile)" -v 0
python manage.py check --deploy --fail-level WARNING

echo "== Procfile worker: its Celery app loads"
celery -A snapleague report > /dev/null

port="$(python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mapfile -t cmd < <(python - "$port" <<'PY'
import json, re, sys
text = open("deploy/Dockerfile").read()
cmd = json.loads(re.search(r"^CMD (\[.*\])$", text, re.M).group(1))
cmd[cmd.index("--host") + 1] = "127.0.0.1"
cmd[cmd.index("--port") + 1] = sys.argv[1]
print("\n".join(cmd))
PY
)
echo "== CMD ${cmd[*]}"
"${cmd[@]}" > "$work/web.log" 2>&1 &
server=$!
base="http://127.0.0.1:$port"
https=(-H "Host: cards.example.org" -H "X-Forwarded-Proto: https")
for _ in $(seq 1 100); do
  curl -fs -o /dev/null "${https[@]}" "$base/healthz" && break
  kill -0 "$server" 2>/dev/null || fail "the web server exited"
  sleep 0.2
done
curl -fs -o /dev/null "${https[@]}" "$base/healthz" || fail "/healthz does not answer"
[ "$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' -H 'Host: cards.example.org' "$base/")" = "301 https://cards.example.org/" ] \
  || fail "plain HTTP is not redirected to HTTPS"
headers="$(curl -fs -D - -o "$work/home.html" "${https[@]}" "$base/")"
grep -qi '^strict-transport-security: max-age=' <<<"$headers" || fail "no HSTS header"
grep -qi '^content-security-policy: ' <<<"$headers" || fail "no Content-Security-Policy"
css="$(grep -o '/static/css/[^"]*\.[0-9a-f]\{12\}\.css' "$work/home.html" | head -1)"
[ -n "$css" ] || fail "the home page links no hashed stylesheet"
curl -fs -o /dev/null "${https[@]}" "$base$css" || fail "$css is not served"
echo "deploy check passed: the image's steps build and serve (port $port)"
