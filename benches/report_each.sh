#!/usr/bin/env bash
# Throughput of `appdeck report --each` against the local sandbox: 10,000 reports (the example
# report, each with its own task and resource) at -j 8, every one of which must then be in the
# history (the goal: at least 2,000 reports a second). Prints reports a second per run, median of
# $RUNS runs, each with a fresh local store.
#
# Usage: benches/report_each.sh     (from anywhere; builds the release binary first)
# Needs: jq. It installs nothing itself.
set -euo pipefail
cd "$(dirname "$0")/.."

LINES=${LINES:-10000}
JOBS=${JOBS:-8}
RUNS=${RUNS:-3}

command -v jq >/dev/null || { echo "benches/report_each.sh: needs jq (apt-get install -y jq)" >&2; exit 2; }

source benches/lib.sh
build_appdeck
work=$(mktemp -d)
cleanup() { stop_sandbox; rm -rf "$work"; }
trap cleanup EXIT

start_sandbox "$work"
export APPDECK_BASE_URL="$BASE_URL" APPDECK_TOKEN=bench
unset APPDECK_PROFILE APPDECK_CONFIG
export HOME="$work"

jq -c --argjson n "$LINES" '. as $r | range($n) as $i
    | $r | .task_id = "bench-\($i)" | .response.resource.external_id = "bench-\($i)"' \
    assets/examples/report.json >"$work/reports.ndjson"

rates=()
for run in $(seq "$RUNS"); do
    export APPDECK_DATA_DIR="$work/data-$run"
    start=$(date +%s.%N)
    "$BIN" report --each "$work/reports.ndjson" -j "$JOBS" -o ndjson >"$work/results" 2>"$work/err" \
        || { cat "$work/err" >&2; exit 1; }
    end=$(date +%s.%N)
    accepted=$(jq -s 'map(select(.http_status == 200 and .status == "ok")) | length' "$work/results")
    recorded=$("$BIN" history --limit 1000000 -o ndjson | wc -l)
    if ((accepted != LINES || recorded != LINES)); then
        echo "run $run: $accepted accepted, $recorded in the history (expected $LINES each)" >&2
        exit 1
    fi
    seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
    rate=$(awk -v n="$LINES" -v s="$seconds" 'BEGIN { print n / s }')
    rates+=("$rate")
    printf 'run %d: %d reports in %.2f s: %.0f reports/s, all %d in the history\n' \
        "$run" "$LINES" "$seconds" "$rate" "$recorded" >&2
done
median=$(printf '%s\n' "${rates[@]}" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
printf '\nappdeck report --each, %d lines, -j %d: median %.0f reports/s over %d runs\n' \
    "$LINES" "$JOBS" "$median" "$RUNS"
