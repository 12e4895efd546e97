#!/usr/bin/env bash
# CPU profile of sharpsharp's ingress under load: starts it with `node --cpu-prof`, drives it with the load
# generator, stops it (the profile is written on exit) and prints the top self-time entries. Needs
# `npx tsc -p tsconfig.build.json` first.
#
#   bench/ingress/profile.sh [redis|embedded] [load-generator flags...]
#   bench/ingress/profile.sh redis --mode closed --connections 50 --duration 10
#   bench/ingress/profile.sh embedded --mode open --rate 2000 --duration 10
#
# Defaults: redis, closed loop, 50 connections, 10 s (plus the generator's 2 s warmup, in the profile too).
# The Redis ingress runs without the turn scheduler (the default once workers claim from the ready set).
# Env: PORT (3001), REDIS_URL, APP_SECRET (bench-secret), OUT (bench/results), TOP (30 entries),
#      DIST (dist: the build to profile, e.g. a copy of the one before a change).
# The .cpuprofile stays in $OUT (open it in Chrome DevTools or VS Code for the call tree).
set -euo pipefail
cd "$(dirname "$0")/../.."

MODE="${1:-redis}"
[ $# -gt 0 ] && shift
[ $# -eq 0 ] && set -- --mode closed --connections 50 --duration 10
PORT="${PORT:-3001}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
APP_SECRET="${APP_SECRET:-bench-secret}"
OUT="${OUT:-bench/results}"
DIST="${DIST:-dist}"
RUN="profile-$MODE-$(date +%s)-$$"
PROFILE_DIR="$OUT/$RUN"
mkdir -p "$PROFILE_DIR"
LOG="$PROFILE_DIR/server.log"

STARTED_MS=$(date +%s%3N)
case "$MODE" in
redis)
  # Builds from before the scheduler left the ingress take --scheduler (off here); later ones run none.
  SCHEDULER_FLAG=()
  grep -q 'values.scheduler' "$DIST/bench/ingress/serve-sharpsharp.js" && SCHEDULER_FLAG=(--scheduler off)
  node --cpu-prof --cpu-prof-dir="$PROFILE_DIR" "$DIST/bench/ingress/serve-sharpsharp.js" --port "$PORT" \
    --redis "$REDIS_URL" --prefix "$RUN" --secret "$APP_SECRET" "${SCHEDULER_FLAG[@]}" >"$LOG" 2>&1 &
  ;;
embedded)
  node --cpu-prof --cpu-prof-dir="$PROFILE_DIR" "$DIST/bench/ingress/serve-embedded.js" --port "$PORT" \
    --data-dir "/tmp/$RUN" --secret "$APP_SECRET" >"$LOG" 2>&1 &
  ;;
*)
  echo "first argument: redis or embedded, got \"$MODE\"" >&2
  exit 2
  ;;
esac
SERVER_PID=$!
cleanup() {
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  rm -rf "/tmp/$RUN"
  [ "$MODE" = redis ] && node dist/bench/ingress/count-sharpsharp.js --redis "$REDIS_URL" --prefix "$RUN" --delete \
    >/dev/null 2>&1 || true
}
trap cleanup EXIT

# Up to 30 s: on a machine busy with other work, starting Node alone can take several seconds.
for _ in $(seq 1 300); do
  grep -q listening "$LOG" 2>/dev/null && break
  sleep 0.1
done
grep listening "$LOG" | tail -n 1
# Startup (module loading, connecting) is left out of the summary: it is not what the load costs.
STARTUP_MS=$(($(date +%s%3N) - STARTED_MS))

timeout 300 node dist/bench/ingress/run.js --url "http://127.0.0.1:$PORT/webhook" --secret "$APP_SECRET" \
  --run-id "$RUN" --quiet "$@" | sed -n '1,5p'

# SIGTERM: the server closes and exits, and V8 writes the profile on the way out.
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || true
PROFILE=$(ls "$PROFILE_DIR"/*.cpuprofile | head -n 1)
echo "profile: $PROFILE (first $STARTUP_MS ms, the startup, left out)"
node dist/bench/ingress/cpu-profile-top.js "$PROFILE" --top "${TOP:-30}" --skip-ms "$STARTUP_MS"
