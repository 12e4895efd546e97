#!/usr/bin/env bash
# Status webhooks into the Redis-mode ingress, two builds side by side, alternating runs (closed loop).
# Prints per run: req/s, p50/p99 ms, non-200, server CPU µs per request, events recorded vs sent.
#
#   bench/ingress/compare-statuses.sh BEFORE_DIR [RUNS] [DURATION_S]
#
# BEFORE_DIR: another checkout, built (`npx tsc -p tsconfig.build.json`), e.g. from
#   `git archive <commit> | tar -x -C /tmp/before` with node_modules linked. This tree is "after".
# The turn scheduler is off (statuses make no turns); each run gets a fresh prefix, deleted after.
# Redis's own cost (commands per request, scripts' inner commands included, and µs per request) is read
# from INFO commandstats, reset before each run: point REDIS_URL at a Redis nothing else uses.
set -euo pipefail
cd "$(dirname "$0")/../.."
BEFORE_DIR="$1"
RUNS="${2:-5}"
DURATION="${3:-8}"
PORT="${PORT:-3011}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
TICKS=$(getconf CLK_TCK)

SERVER_PID=""
trap '[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true' EXIT
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

run_one() {
  local side="$1" dir="$2" prefix="bench-st-$1-$(date +%s%N)"
  # Builds from before the scheduler left the ingress take --scheduler (off here); later ones run none.
  local flag=()
  grep -q 'values.scheduler' "$dir/dist/bench/ingress/serve-sharpsharp.js" && flag=(--scheduler off)
  node "$dir/dist/bench/ingress/serve-sharpsharp.js" --port "$PORT" --redis "$REDIS_URL" --prefix "$prefix" \
    --secret bench-secret "${flag[@]}" >/tmp/status-bench-server.log 2>&1 &
  local pid=$!
  SERVER_PID=$pid
  for _ in $(seq 1 600); do grep -q listening /tmp/status-bench-server.log 2>/dev/null && break; sleep 0.1; done
  local cpu0 result cpu1 recorded stats
  redis-cli -u "$REDIS_URL" config resetstat >/dev/null
  cpu0=$(cpu_ticks "$pid")
  result=$(node dist/bench/ingress/status-load.js --url "http://127.0.0.1:$PORT/webhook" --secret bench-secret \
    --connections 50 --duration "$DURATION" --run-id "$prefix")
  cpu1=$(cpu_ticks "$pid")
  stats=$(redis-cli -u "$REDIS_URL" info commandstats | tr -d '\r' |
    sed -n 's/^cmdstat_[^:]*:calls=\([0-9]*\),usec=\([0-9]*\),.*/\1 \2/p' | awk '{c+=$1; u+=$2} END {print c, u}')
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  if [ "$(redis-cli -u "$REDIS_URL" exists "$prefix:events:stream")" = 1 ]; then
    recorded=$(redis-cli -u "$REDIS_URL" xlen "$prefix:events:stream")
  else
    recorded=$(redis-cli -u "$REDIS_URL" llen "$prefix:events:wait")
  fi
  redis-cli -u "$REDIS_URL" --scan --pattern "$prefix:*" | xargs -r -n 500 redis-cli -u "$REDIS_URL" del >/dev/null
  node -e '
const [side, json, cpu0, cpu1, ticks, recorded, stats] = process.argv.slice(1);
const r = JSON.parse(json);
const cpuUs = ((cpu1 - cpu0) / ticks) * 1e6 / r.sent;
const [calls, usec] = stats.split(" ").map(Number);
process.stdout.write(`${side.padEnd(6)} ${String(r.reqPerS).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ` +
  `non-200 ${r.non200}  server CPU ${cpuUs.toFixed(0)} µs/req  Redis ${(calls / r.sent).toFixed(1)} commands, ` +
  `${(usec / r.sent).toFixed(1)} µs per req  recorded ${recorded} of ${r.sent} sent\n`);
' "$side" "$result" "$cpu0" "$cpu1" "$TICKS" "$recorded" "$stats"
}

for run in $(seq 1 "$RUNS"); do
  echo "run $run"
  run_one before "$BEFORE_DIR"
  run_one after .
done
