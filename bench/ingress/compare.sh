#!/usr/bin/env bash
# Runs the naive baseline and sharpsharp's ingress back to back in one session, on the same machine and
# Redis, so their ratio is measured side by side. Needs `npm run build` first. Takes about 2.5 minutes.
#
#   bench/ingress/compare.sh [duration seconds, default 10]
#
# Prints each run's report; the summary lines start with "==".
set -euo pipefail
cd "$(dirname "$0")/../.."
D="${1:-10}"
OUT="${OUT:-bench/results}"
mkdir -p "$OUT"

json() { tail -n 1 "$1" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);const l=r.latencyMs;process.stdout.write(`${r.reqPerSec} req/s  p50 ${l.p50}  p90 ${l.p90}  p99 ${l.p99}  p99.9 ${l.p999} ms  non-200 ${JSON.stringify(r.non200)}`)})'; }
run() { # label, ignored, command...
  local label=$1 script=$2; shift 2
  local log="$OUT/compare-$(date +%s)-$label.txt"
  env "$@" >"$log" 2>&1 || { cat "$log"; exit 1; }
  grep -E "match|MISMATCH|^memory:" "$log" | tail -n 2 | sed "s/^/   $label: /"
  grep '^{"mode"' "$log" >"$log.json"
  echo "== $label: $(json "$log.json")"
}

echo "== $(date -u +%FT%TZ) node $(node --version), $(nproc) cores, $(redis-server --version | cut -d' ' -f3)"
run baseline-closed x bench/baselines/run-baseline.sh --mode closed --connections 50 --duration "$D"
run ss-closed-noscheduler x env SCHEDULER=off bench/ingress/run-sharpsharp.sh --mode closed --connections 50 --duration "$D"
run ss-closed-scheduler-process x env SCHEDULER=process bench/ingress/run-sharpsharp.sh --mode closed --connections 50 --duration "$D"
run ss-closed-scheduler-inproc x env SCHEDULER=inproc bench/ingress/run-sharpsharp.sh --mode closed --connections 50 --duration "$D"
run baseline-open2000 x bench/baselines/run-baseline.sh --mode open --rate 2000 --duration "$D"
run ss-open2000-noscheduler x env SCHEDULER=off bench/ingress/run-sharpsharp.sh --mode open --rate 2000 --duration "$D"
run ss-open2000-scheduler-process x env SCHEDULER=process bench/ingress/run-sharpsharp.sh --mode open --rate 2000 --duration "$D"
run ss-open2000-scheduler-inproc x env SCHEDULER=inproc bench/ingress/run-sharpsharp.sh --mode open --rate 2000 --duration "$D"
run ss-open2000-dup20-scheduler-process x env SCHEDULER=process bench/ingress/run-sharpsharp.sh --mode open --rate 2000 --duration "$D" --dup 0.2
