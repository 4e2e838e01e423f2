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
command -v tmux >/dev/null || { echo "needs tmux (apt-get install tmux)" >&2; exit 2; }

if [[ -z "${BIN:-}" ]]; then
    echo "building the release binary..." >&2
    cargo build --release --quiet --bin appdeck
    BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/appdeck"
fi
WORK=$(mktemp -d)
SOCK="appdeck-memory-$$"
source benches/lib.sh
cleanup() { tmux -L "$SOCK" kill-server 2>/dev/null || true; stop_sandbox; rm -rf "$WORK"; }
trap cleanup EXIT

screen() { tmux -L "$SOCK" capture-pane -p; }
wait_screen() { # wait_screen PATTERN SECONDS
    for _ in $(seq $(( $2 * 50 ))); do screen | grep -q "$1" && return 0; sleep 0.02; done
    echo "timed out waiting for '$1'" >&2; screen >&2; return 1
}
kib() { awk -v k="$2" '$1 == k":" {print $2}' "/proc/$1/status"; }
mb() { awk -v k="$(kib "$1" "$2")" 'BEGIN {printf "%.1f", k / 1024}'; }
report() { # report LABEL: appdeck's resident memory now, data apart from code and files
    printf '%-44s %7.1f MB  (data %.1f, code and files %.1f)\n' "$1" \
        "$(mb "$PID" VmRSS)" "$(mb "$PID" RssAnon)" "$(mb "$PID" RssFile)"
}

LAUNCHES=0
launch() { # launch ARGS...: appdeck in a fresh tmux session; sets PID, which must be appdeck's
    tmux -L "$SOCK" kill-server 2>/dev/null || true
    # A server of its own each time: a new session on a server still shutting down fails.
    LAUNCHES=$(( LAUNCHES + 1 ))
    SOCK="appdeck-memory-$$-$LAUNCHES"
    tmux -L "$SOCK" -f /dev/null new-session -d -x 120 -y 40 \
        "exec env HOME=$WORK APPDECK_BASE_URL=$BASE_URL APPDECK_TOKEN=bench $BIN $*"
    PID=$(tmux -L "$SOCK" display-message -p '#{pane_pid}')
    local exe=""
    for _ in $(seq 250); do
        exe=$(readlink "/proc/$PID/exe" 2>/dev/null || true)
        [[ "$exe" == "$BIN" ]] && return 0
        sleep 0.02
    done
    echo "the pane's process $PID is ${exe:-gone}, not $BIN: refusing to measure it" >&2
    return 1
}

commas() { echo "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }

# load_all ROWS: holds G until the title says all ROWS are loaded; prints the time it took.
load_all() {
    local label
    label="$(commas "$1") loaded · all loaded"
    local t0=$SECONDS
    for _ in $(seq $(( $1 / 10 ))); do
        screen | grep -q "$label" && break
        tmux -L "$SOCK" send-keys G
        sleep 0.02
    done
    wait_screen "$label" 120
    printf '%-44s %7d s\n' "loaded in" "$(( SECONDS - t0 ))"
}

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
