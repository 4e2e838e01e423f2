#!/usr/bin/env bash
# What the TUI holds in memory, against the goals of issue 22:
#  - resident at start (first page on screen, the background start-up work settled): <= 10 MB;
#  - resident with 100,000 rows loaded: <= twice the start;
#  - resident with 1,000,000 rows loaded: <= 200 MB;
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

report() { # report LABEL: appdeck's resident memory now, data apart from code and files
    printf '%-44s %7.1f MB  (data %.1f, code and files %.1f)\n' "$1" \
        "$(mb "$PID" VmRSS)" "$(mb "$PID" RssAnon)" "$(mb "$PID" RssFile)"
}

# The start-up RSS rests on build/startup.order naming the binary's start-up functions (see
# build/link_layout.rs): say how many of its names the binary still has. Well under all of them,
# run benches/startup_order.sh again.
if command -v nm >/dev/null && [[ -s build/startup.order ]]; then
    found=$(comm -12 <(nm --defined-only "$BIN" | awk '{print $3}' | sort -u) \
        <(sort -u build/startup.order) | wc -l)
    printf '%-44s %s of %s\n' "build/startup.order: names in the binary" "$found" \
        "$(wc -l <build/startup.order)"
fi

rows=100000
while (( rows <= MAX )); do
    start_sandbox "$WORK" --empty --generate "$rows"
    if (( rows == 100000 )); then
        launch
        wait_screen "more available" 10
        sleep "${SETTLE:-2}" # the store and the known types load in the background
        report "resident at start (first page, idle)"
        START=$(kib "$PID" VmRSS)
    fi
    launch --page-size 500
    wait_screen "more available" 10
    load_all "$rows"
    report "resident with $(commas "$rows") rows"
    printf '%-44s %7.1f MB\n' "  peak resident (VmHWM)" "$(mb "$PID" VmHWM)"
    if (( rows == 100000 )); then
        printf '%-44s %7.2f x\n' "  over the start" \
            "$(awk -v a="$(kib "$PID" VmRSS)" -v b="$START" 'BEGIN {print a / b}')"
    fi
    printf '%-44s %7.1f MB\n' "  the sandbox's (another process)" "$(mb "$SANDBOX_PID" VmRSS)"
    tmux -L "$SOCK" send-keys q
    stop_sandbox
    rows=$(( rows * 10 ))
done
