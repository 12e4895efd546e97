#!/usr/bin/env bash
# Benchmark the naive baseline ingress once: start it on a fresh Redis prefix, drive it with the load
# generator, count what it enqueued, delete the prefix's keys, stop it. Needs `npm run build` first.
#
#   bench/baselines/run-baseline.sh [load-generator flags...]
#   bench/baselines/run-baseline.sh --mode closed --connections 50 --duration 10
#   bench/baselines/run-baseline.sh --mode open --rate 2000 --duration 10 --dup 0.2
#
# Env: PORT (3000), REDIS_URL (redis://127.0.0.1:6379), APP_SECRET (bench-secret), OUT (bench/results).
# The load generator's JSON line goes to $OUT/baseline-<prefix>.json, the count's to $OUT/baseline-<prefix>.count.json.
set -euo pipefail
cd "$(dirname "$0")/../.."

PORT="${PORT:-3000}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
APP_SECRET="${APP_SECRET:-bench-secret}"
OUT="${OUT:-bench/results}"
PREFIX="bench-base-$(date +%s)-$$"
mkdir -p "$OUT"
# CPU time the server process has used, in clock ticks (user + system, /proc/PID/stat fields 14 and 15).
cpu_ticks() { awk '{print $14 + $15}' /proc/"$1"/stat 2>/dev/null || echo 0; }
redis_used() { redis-cli -u "$REDIS_URL" info memory | tr -d '\r' | sed -n 's/^used_memory://p'; }
REDIS_BEFORE=$(redis_used)

node dist/bench/baselines/naive-ingress.js --port "$PORT" --redis "$REDIS_URL" --prefix "$PREFIX" \
  --secret "$APP_SECRET" >"$OUT/baseline-$PREFIX.server.log" 2>&1 &
SERVER_PID=$!
cleanup() {
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  node dist/bench/ingress/count-baseline.js --redis "$REDIS_URL" --prefix "$PREFIX" --delete >/dev/null 2>&1 || true
}
trap cleanup EXIT

# Up to 30 s: on a machine busy with other work, starting Node alone can take several seconds.
for _ in $(seq 1 300); do
  grep -q listening "$OUT/baseline-$PREFIX.server.log" 2>/dev/null && break
  sleep 0.1
done
cat "$OUT/baseline-$PREFIX.server.log"

# Bounded: the generator stops by itself; `timeout` is a backstop.
CPU_BEFORE=$(cpu_ticks "$SERVER_PID")
timeout 300 node dist/bench/ingress/run.js --url "http://127.0.0.1:$PORT/webhook" --secret "$APP_SECRET" \
  --run-id "$PREFIX" --quiet "$@" | tee "$OUT/baseline-$PREFIX.txt"
CPU_AFTER=$(cpu_ticks "$SERVER_PID")
tail -n 1 "$OUT/baseline-$PREFIX.txt" >"$OUT/baseline-$PREFIX.json"
node -e '
const [before, after, hz, file] = process.argv.slice(1);
const requests = JSON.parse(require("node:fs").readFileSync(file, "utf8")).total.requests;
process.stdout.write(`server CPU: ${Math.round(((after - before) / hz) * 1e6 / requests)} µs per request (${requests} requests, warmup included)\n`);
' "$CPU_BEFORE" "$CPU_AFTER" "$(getconf CLK_TCK)" "$OUT/baseline-$PREFIX.json"

# Let the server finish anything it still had in hand, then count.
sleep 0.5
PEAK_RSS_KB=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/"$SERVER_PID"/status 2>/dev/null || echo 0)
REDIS_AFTER=$(redis_used)
node dist/bench/ingress/count-baseline.js --redis "$REDIS_URL" --prefix "$PREFIX" | tee "$OUT/baseline-$PREFIX.count.txt"
tail -n 1 "$OUT/baseline-$PREFIX.count.txt" >"$OUT/baseline-$PREFIX.count.json"

node -e '
const fs = require("node:fs");
const load = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const count = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const d = load.total.distinctSent, a = load.total.distinctAcked, e = count.total;
process.stdout.write(`enqueued ${e} jobs vs ${d} distinct messages sent (${a} acked 200, warmup included): ` +
  (e === d ? "match" : `MISMATCH (${e - d})`) + "\n");
' "$OUT/baseline-$PREFIX.json" "$OUT/baseline-$PREFIX.count.json"
node -e '
const [rss, before, after, file] = process.argv.slice(1);
const total = JSON.parse(require("node:fs").readFileSync(file, "utf8")).total.distinctSent;
process.stdout.write(`memory: server peak RSS ${(rss / 1024).toFixed(0)} MiB; Redis +${((after - before) / 1048576).toFixed(1)} MiB, ` +
  `${Math.round((after - before) / total)} bytes per distinct message kept\n`);
' "$PEAK_RSS_KB" "$REDIS_BEFORE" "$REDIS_AFTER" "$OUT/baseline-$PREFIX.json"
