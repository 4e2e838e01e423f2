#!/usr/bin/env bash
# Issue 33's load-all goals, side by side in one run on one sandbox of ROWS generated resources
# (page size 500): the time of `appdeck list --all --limit 500 -o ndjson > /dev/null` (median of
# 3), then the TUI's `L` from its first rows to "all loaded" (polled every 20 ms in a 120x40 tmux
# pane) and its RssAnon growth a row (goal: load all within 2x the CLI, at most 200 bytes a row).
#
# Usage: benches/tui_load_all.sh [ROWS]      (default 100000; Needs: tmux)
# The sandbox holds about 1 KiB a resource: 1,000,000 rows take about 1 GB of memory.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${1:-100000}
source benches/lib.sh
bench_setup load-all
build_appdeck
start_sandbox "$WORK" --empty --generate "$ROWS"

cli_runs=()
for _ in 1 2 3; do
    t0=$(date +%s%N)
    APPDECK_BASE_URL=$BASE_URL APPDECK_TOKEN=bench HOME=$WORK \
        "$BIN" list --all --limit 500 -o ndjson >/dev/null
    cli_runs+=("$(( ($(date +%s%N) - t0) / 1000000 ))")
done
cli_ms=$(printf '%s\n' "${cli_runs[@]}" | sort -n | sed -n 2p)

launch --page-size 500
wait_screen "500 loaded" 30
before=$(kib "$PID" RssAnon)
t0=$(date +%s%N)
tmux -L "$SOCK" send-keys L
label="$(commas "$ROWS") loaded · all loaded"
deadline=$(( SECONDS + 600 ))
until screen | grep -q "$label"; do
    (( SECONDS < deadline )) || { echo "timed out waiting for '$label'" >&2; screen >&2; exit 1; }
    sleep 0.02
done
tui_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
after=$(kib "$PID" RssAnon)

echo "$(commas "$ROWS") rows, page size 500, one sandbox:"
printf '%-44s %8d ms   (runs: %s)\n' "appdeck list --all -o ndjson (median of 3)" "$cli_ms" "${cli_runs[*]}"
printf '%-44s %8d ms   (%.2fx the CLI)\n' "TUI: L from the first page to all loaded" "$tui_ms" \
    "$(awk -v a="$tui_ms" -v b="$cli_ms" 'BEGIN {print a / b}')"
printf '%-44s %8.1f MB   (%.0f bytes a row)\n' "TUI: RssAnon growth while loading" \
    "$(awk -v a="$before" -v b="$after" 'BEGIN {print (b - a) / 1024}')" \
    "$(awk -v a="$before" -v b="$after" -v n="$ROWS" 'BEGIN {print (b - a) * 1024 / n}')"
printf '%-44s %8.1f MB\n' "TUI: RssAnon at the end" "$(awk -v a="$after" 'BEGIN {print a / 1024}')"
