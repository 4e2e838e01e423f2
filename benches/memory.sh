#!/usr/bin/env bash
# What the TUI holds in memory:
#  - the data it holds at start (first page on screen, the background start-up work settled):
#    RssAnon, its own heap and stacks; the code and file pages (RssFile: the binary's code,
#    shared and reclaimable by the kernel) are shown apart;
#  - the data it holds with 100,000 and 1,000,000 rows loaded, and what each row adds;
# rows loaded in pages of 500 with `G` held (each press goes to the last loaded row, which asks
# for the next page), from `appdeck sandbox --empty --generate N` in its own process (whose own
# memory is shown apart: it is not appdeck's).
# Usage: benches/memory.sh [MAX_ROWS]   (1000000 by default; 100000 skips the million)
#        BIN=path/to/appdeck benches/memory.sh   measures that binary instead of building one.
# Needs: tmux.
set -euo pipefail
cd "$(dirname "$0")/.."
MAX=${1:-1000000}
(( MAX >= 100000 )) || { echo "MAX_ROWS is 100000 or more (the figures are at 100,000 and 1,000,000)" >&2; exit 2; }
source benches/lib.sh
bench_setup memory
build_appdeck

report() { # report LABEL: the data appdeck holds now, and apart the code and file pages
    printf '%-44s %7.1f MB data  (code and files %.1f, resident in all %.1f)\n' "$1" \
        "$(mb "$PID" RssAnon)" "$(mb "$PID" RssFile)" "$(mb "$PID" VmRSS)"
}

rows=100000
while (( rows <= MAX )); do
    start_sandbox "$WORK" --empty --generate "$rows"
    if (( rows == 100000 )); then
        launch
        wait_screen "more available" 10
        sleep "${SETTLE:-2}" # the store and the known types load in the background
        report "resident at start (first page, idle)"
        START=$(kib "$PID" RssAnon)
    fi
    launch --page-size 500
    wait_screen "more available" 10
    load_all "$rows"
    report "resident with $(commas "$rows") rows"
    printf '%-44s %7.1f MB\n' "  peak resident (VmHWM)" "$(mb "$PID" VmHWM)"
    printf '%-44s %7.1f B\n' "  data a row (RssAnon growth / rows)" \
        "$(awk -v a="$(kib "$PID" RssAnon)" -v b="$START" -v n="$rows" 'BEGIN {print (a - b) * 1024 / n}')"
    printf '%-44s %7.1f MB\n' "  the sandbox's (another process)" "$(mb "$SANDBOX_PID" VmRSS)"
    tmux -L "$SOCK" send-keys q
    stop_sandbox
    rows=$(( rows * 10 ))
done
