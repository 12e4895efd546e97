#!/usr/bin/env bash
# The naive baseline, sharpsharp's Redis ingress and its embedded ingress side by side in one session, on the
# same machine and Redis, alternating, several rounds, so ratios are measured in one window. Every round runs
# each system closed loop (50 connections) and then open loop at 2,000/s. sharpsharp's throughput counts a
# message only once its conversation is claimable (ss_queue_unscheduled_conversations back to 0 after the
# load; the naive design's job is claimable when added). Needs `npx tsc -p tsconfig.build.json` first.
#
#   bench/ingress/compare.sh [rounds, default 3] [duration seconds, default 10]
#
# Env: OUT (bench/results); BEFORE_DIST: a second build of sharpsharp (e.g. the commit before a change,
# copied out of dist/) run as "ss-before" and "emb-before" in the same rounds, for a before/after.
# SYSTEMS: a space-separated subset of baseline, ss, emb, ss-before and emb-before, run in that order
# (e.g. "baseline ss-before ss" for a change to one ingress).
# Prints each run's summary line ("== label: ..."), then medians, spreads and ratios to the naive design.
# Server CPU per request (from /proc, warmup included) is printed too: on a machine shared with other work it
# moves far less than throughput does.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS="${1:-3}"
D="${2:-10}"
OUT="${OUT:-bench/results}"
mkdir -p "$OUT"
TABLE="$OUT/compare-$(date +%s).tsv"
: >"$TABLE"

run() { # label, loop (closed|open), command...
  local label=$1 loop=$2
  shift 2
  local log
  log="$OUT/compare-$(date +%s%N)-$label-$loop.txt"
  "$@" >"$log" 2>&1 || {
    cat "$log"
    exit 1
  }
  local check cpu
  check=$(grep -E "match|MISMATCH" "$log" | tail -n 1)
  cpu=$(sed -n 's/^server CPU: \([0-9]*\) µs per request.*/\1/p' "$log" | tail -n 1)
  grep '^{"mode"' "$log" | tail -n 1 | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const r = JSON.parse(s), [label, loop, check, cpu] = process.argv.slice(1);
      const acked = r.ackedPerSec ?? r.reqPerSec;
      // No gauge (the naive design, or an older build): claimable as soon as acknowledged.
      const claimable = r.claimable?.perSec ?? acked, drain = r.claimable?.drainMs ?? 0;
      const ok = /MISMATCH/.test(check) || !/match/.test(check) ? "CHECK-FAILED" : "ok";
      const non200 = Object.values(r.non200).reduce((a, b) => a + b, 0) + r.errorCount;
      process.stdout.write([label, loop, acked, claimable, drain, r.latencyMs.p50, r.latencyMs.p99, non200, ok, cpu || "NaN"].join("\t") + "\n");
      process.stderr.write(`== ${label} ${loop}: ${acked} acked/s, ${claimable} claimable/s (drain ${drain} ms), ` +
        `p50 ${r.latencyMs.p50} p99 ${r.latencyMs.p99} ms, non-200/errors ${non200}, server CPU ${cpu} µs/request; ${check}\n`);
    });' "$label" "$loop" "$check" "$cpu" >>"$TABLE"
}

systems=(baseline ss emb)
[ -n "${BEFORE_DIST:-}" ] && systems=(baseline ss-before ss emb-before emb)
[ -n "${SYSTEMS:-}" ] && read -r -a systems <<<"$SYSTEMS"
one() { # system, loop, load flags...
  local system=$1 loop=$2
  shift 2
  case "$system" in
  baseline) run "$system" "$loop" bench/baselines/run-baseline.sh "$@" ;;
  ss) run "$system" "$loop" bench/ingress/run-sharpsharp.sh "$@" ;;
  emb) run "$system" "$loop" bench/ingress/run-embedded.sh "$@" ;;
  ss-before) run "$system" "$loop" env DIST="$BEFORE_DIST" bench/ingress/run-sharpsharp.sh "$@" ;;
  emb-before) run "$system" "$loop" env DIST="$BEFORE_DIST" bench/ingress/run-embedded.sh "$@" ;;
  esac
}

echo "== $(date -u +%FT%TZ) node $(node --version), $(nproc) cores, redis $(redis-server --version | cut -d' ' -f3), commit $(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes'), $ROUNDS rounds of $D s"
for round in $(seq 1 "$ROUNDS"); do
  echo "== round $round"
  for system in "${systems[@]}"; do one "$system" closed --mode closed --connections 50 --duration "$D"; done
  for system in "${systems[@]}"; do one "$system" open --mode open --rate 2000 --duration "$D"; done
done

node dist/bench/ingress/compare-summary.js "$TABLE"
