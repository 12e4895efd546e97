#!/usr/bin/env bash
# Benchmark sharpsharp's ingress once: fresh prefix, load, count, compare, delete keys, stop.
# Same flags as the load generator. Needs `npm run build` first.
#
#   bench/ingress/run-sharpsharp.sh --mode closed --connections 50 --duration 10
#   bench/ingress/run-sharpsharp.sh --mode open --rate 2000 --duration 10 --dup 0.2
#
# Env: PORT (3001), REDIS_URL (redis://127.0.0.1:6379), APP_SECRET (bench-secret), OUT (bench/results),
#      DIST (dist: where the served ingress is built; another build, e.g. of the commit before a change,
#      for a before/after comparison in one window),
#      SCHEDULER: off (default: the ingress runs no turn scheduler, workers claim due conversations from the
#      ready set) or on (the older in-process scheduler, while serve-sharpsharp.js still has --scheduler).
# The load generator waits after the load until the ingress's ss_queue_unscheduled_conversations is 0 and
# reports both acked/s and acked-and-claimable/s (served builds that print their admin URL only).
set -euo pipefail
cd "$(dirname "$0")/../.."

PORT="${PORT:-3001}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
APP_SECRET="${APP_SECRET:-bench-secret}"
OUT="${OUT:-bench/results}"
PREFIX="bench-ss-$(date +%s)-$$"
SCHEDULER="${SCHEDULER:-off}"
DIST="${DIST:-dist}"
mkdir -p "$OUT"
# CPU time the server process has used, in clock ticks (user + system, /proc/PID/stat fields 14 and 15).
cpu_ticks() { awk '{print $14 + $15}' /proc/"$1"/stat 2>/dev/null || echo 0; }
redis_used() { redis-cli -u "$REDIS_URL" info memory | tr -d '\r' | sed -n 's/^used_memory://p'; }
REDIS_BEFORE=$(redis_used)
echo "turn scheduler: $SCHEDULER"

SERVE="$DIST/bench/ingress/serve-sharpsharp.js"
# Builds from before the scheduler left the ingress take --scheduler; later ones run none and have no flag.
SCHEDULER_FLAG=()
grep -q 'values.scheduler' "$SERVE" && SCHEDULER_FLAG=(--scheduler "$SCHEDULER")
node "$SERVE" --port "$PORT" --redis "$REDIS_URL" --prefix "$PREFIX" \
  --secret "$APP_SECRET" "${SCHEDULER_FLAG[@]}" >"$OUT/sharpsharp-$PREFIX.server.log" 2>&1 &
SERVER_PID=$!
cleanup() {
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  node dist/bench/ingress/count-sharpsharp.js --redis "$REDIS_URL" --prefix "$PREFIX" --delete >/dev/null 2>&1 || true
}
trap cleanup EXIT

# Up to 30 s: on a machine busy with other work, starting Node alone can take several seconds.
for _ in $(seq 1 300); do
  grep -q listening "$OUT/sharpsharp-$PREFIX.server.log" 2>/dev/null && break
  sleep 0.1
done
grep listening "$OUT/sharpsharp-$PREFIX.server.log" | tail -n 1
ADMIN_URL=$(sed -n 's/^admin //p' "$OUT/sharpsharp-$PREFIX.server.log" | tail -n 1)
CLAIMABLE=()
[ -n "$ADMIN_URL" ] && CLAIMABLE=(--claimable-metrics "$ADMIN_URL/metrics")

CPU_BEFORE=$(cpu_ticks "$SERVER_PID")
timeout 300 node dist/bench/ingress/run.js --url "http://127.0.0.1:$PORT/webhook" --secret "$APP_SECRET" \
  --run-id "$PREFIX" --quiet "${CLAIMABLE[@]}" "$@" | tee "$OUT/sharpsharp-$PREFIX.txt"
CPU_AFTER=$(cpu_ticks "$SERVER_PID")
tail -n 1 "$OUT/sharpsharp-$PREFIX.txt" >"$OUT/sharpsharp-$PREFIX.json"
node -e '
const [before, after, hz, file] = process.argv.slice(1);
const requests = JSON.parse(require("node:fs").readFileSync(file, "utf8")).total.requests;
process.stdout.write(`server CPU: ${Math.round(((after - before) / hz) * 1e6 / requests)} µs per request (${requests} requests, warmup included)\n`);
' "$CPU_BEFORE" "$CPU_AFTER" "$(getconf CLK_TCK)" "$OUT/sharpsharp-$PREFIX.json"

sleep 1
PEAK_RSS_KB=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/"$SERVER_PID"/status 2>/dev/null || echo 0)
REDIS_AFTER=$(redis_used)
node dist/bench/ingress/count-sharpsharp.js --redis "$REDIS_URL" --prefix "$PREFIX" | tee "$OUT/sharpsharp-$PREFIX.count.txt"
tail -n 1 "$OUT/sharpsharp-$PREFIX.count.txt" >"$OUT/sharpsharp-$PREFIX.count.json"

node -e '
const fs = require("node:fs");
const load = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const count = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const d = load.total.distinctSent, a = load.total.distinctAcked, e = count.total;
process.stdout.write(`recorded ${e} vs ${d} distinct messages sent (${a} acked 200, warmup included): ` +
  (e === d ? "match: 0 lost, 0 doubled" : `MISMATCH (${e - d})`) + ` ; inbox entries ${count.inboxMessages}\n`);
' "$OUT/sharpsharp-$PREFIX.json" "$OUT/sharpsharp-$PREFIX.count.json"
node -e '
const [rss, before, after, file] = process.argv.slice(1);
const total = JSON.parse(require("node:fs").readFileSync(file, "utf8")).total.distinctSent;
process.stdout.write(`memory: server peak RSS ${(rss / 1024).toFixed(0)} MiB; Redis +${((after - before) / 1048576).toFixed(1)} MiB, ` +
  `${Math.round((after - before) / total)} bytes per distinct message kept\n`);
' "$PEAK_RSS_KB" "$REDIS_BEFORE" "$REDIS_AFTER" "$OUT/sharpsharp-$PREFIX.json"
