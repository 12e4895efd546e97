#!/usr/bin/env bash
# Benchmark sharpsharp's embedded ingress once (SQLite, durable group commits): fresh data dir,
# load, count what was recorded, compare with what was sent, remove the data dir.
# Same flags as the load generator. Needs `npm run build` first.
#
#   bench/ingress/run-embedded.sh --mode closed --connections 50 --duration 10
#   bench/ingress/run-embedded.sh --mode open --rate 1000 --duration 10 --dup 0.2
#
# Env: PORT (3001), APP_SECRET (bench-secret), OUT (bench/results), DATA_DIR (a fresh dir under /tmp),
#      SYNC (on: acknowledge after the WAL flush; off: after the commit only, for comparison),
#      DIST (dist: where the served ingress is built, see run-sharpsharp.sh).
# The load generator waits after the load until ss_queue_unscheduled_conversations is 0 (see run-sharpsharp.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."

PORT="${PORT:-3001}"
APP_SECRET="${APP_SECRET:-bench-secret}"
OUT="${OUT:-bench/results}"
RUN="bench-emb-$(date +%s)-$$"
DATA_DIR="${DATA_DIR:-/tmp/$RUN}"
mkdir -p "$OUT"
LOG="$OUT/embedded-$RUN.server.log"
# CPU time the server process has used, in clock ticks (user + system, /proc/PID/stat fields 14 and 15).
cpu_ticks() { awk '{print $14 + $15}' /proc/"$1"/stat 2>/dev/null || echo 0; }

node "${DIST:-dist}/bench/ingress/serve-embedded.js" --port "$PORT" --data-dir "$DATA_DIR" --secret "$APP_SECRET" --sync "${SYNC:-on}" >"$LOG" 2>&1 &
SERVER_PID=$!
cleanup() {
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  rm -rf "$DATA_DIR"
}
trap cleanup EXIT

# Up to 30 s: on a machine busy with other work, starting Node alone can take several seconds.
for _ in $(seq 1 300); do
  grep -q listening "$LOG" 2>/dev/null && break
  sleep 0.1
done
grep listening "$LOG" | tail -n 1
ADMIN_URL=$(sed -n 's/^admin //p' "$LOG" | tail -n 1)
CLAIMABLE=()
[ -n "$ADMIN_URL" ] && CLAIMABLE=(--claimable-metrics "$ADMIN_URL/metrics")

CPU_BEFORE=$(cpu_ticks "$SERVER_PID")
timeout 300 node dist/bench/ingress/run.js --url "http://127.0.0.1:$PORT/webhook" --secret "$APP_SECRET" \
  --run-id "$RUN" --quiet "${CLAIMABLE[@]}" "$@" | tee "$OUT/embedded-$RUN.txt"
CPU_AFTER=$(cpu_ticks "$SERVER_PID")
tail -n 1 "$OUT/embedded-$RUN.txt" >"$OUT/embedded-$RUN.json"
node -e '
const [before, after, hz, file] = process.argv.slice(1);
const requests = JSON.parse(require("node:fs").readFileSync(file, "utf8")).total.requests;
process.stdout.write(`server CPU: ${Math.round(((after - before) / hz) * 1e6 / requests)} µs per request (${requests} requests, warmup included)\n`);
' "$CPU_BEFORE" "$CPU_AFTER" "$(getconf CLK_TCK)" "$OUT/embedded-$RUN.json"

sleep 1
PEAK_RSS_KB=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/"$SERVER_PID"/status 2>/dev/null || echo 0)
DB_BYTES=$(du -cb "$DATA_DIR"/sharpsharp.db* | tail -n 1 | cut -f1)
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || true
tail -n 1 "$LOG" >"$OUT/embedded-$RUN.count.json"

node -e '
const fs = require("node:fs");
const load = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const count = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const d = load.total.distinctSent, a = load.total.distinctAcked, e = count.total;
process.stdout.write(`recorded ${e} vs ${d} distinct messages sent (${a} acked 200, warmup included): ` +
  (e === d ? "match: 0 lost, 0 doubled" : `MISMATCH (${e - d})`) + ` ; inbox entries ${count.inboxMessages}\n`);
const [rss, bytes] = [Number(process.argv[3]), Number(process.argv[4])];
process.stdout.write(`memory: server peak RSS ${(rss / 1024).toFixed(0)} MiB; SQLite files ${(bytes / 1048576).toFixed(1)} MiB, ` +
  `${Math.round(bytes / d)} bytes per distinct message\n`);
' "$OUT/embedded-$RUN.json" "$OUT/embedded-$RUN.count.json" "$PEAK_RSS_KB" "$DB_BYTES"
