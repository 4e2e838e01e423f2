#!/usr/bin/env bash
# Launch-to-first-frame and launch-to-first-rows of the TUI, next to a bare ratatui program timed
# the same way (examples/bare_ratatui.rs), each in a real terminal (tmux), median of RUNS runs.
#
#   against an already running sandbox:  appdeck (base URL and token from the environment)
#   self-contained:                       appdeck --demo (starts the sandbox in-process first)
#
# Times come from the programs' own logs: from the first line of main to the frame flushed.
# Usage: benches/tui_startup.sh [RUNS]      Needs: tmux.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-15}
command -v tmux >/dev/null || { echo "needs tmux (apt-get install tmux)" >&2; exit 2; }

echo "building release binaries..." >&2
cargo build --release --quiet --bin appdeck --example bare_ratatui
BIN="$PWD/target/release/appdeck"
BARE="$PWD/target/release/examples/bare_ratatui"
WORK=$(mktemp -d)
SOCK="appdeck-bench-$$"
PORT=$(( 20000 + RANDOM % 20000 ))
cleanup() { tmux -L "$SOCK" kill-server 2>/dev/null || true; kill "${SANDBOX_PID:-}" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

"$BIN" sandbox --listen "127.0.0.1:$PORT" --token bench >"$WORK/sandbox.out" 2>&1 &
SANDBOX_PID=$!
for _ in $(seq 200); do grep -q APPDECK_TOKEN "$WORK/sandbox.out" 2>/dev/null && break; sleep 0.05; done

# wait_for FILE PATTERN: polls (20 ms) until FILE has a line matching PATTERN, at most 10 s.
wait_for() {
    for _ in $(seq 500); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.02; done
    echo "timed out waiting for '$2' in $1" >&2; return 1
}

# run_tui LABEL ARGS...: RUNS launches of appdeck; prints the medians of both milestones.
run_tui() {
    local label=$1; shift
    local frames=() rows=()
    for i in $(seq "$RUNS"); do
        local home="$WORK/home-$label-$i" log
        mkdir -p "$home"; log="$home/.local/state/appdeck/appdeck.log"
        tmux -L "$SOCK" -f /dev/null new-session -d -x 120 -y 40 \
            "env HOME=$home APPDECK_BASE_URL=http://127.0.0.1:$PORT/api/v1 APPDECK_TOKEN=bench $BIN $*"
        wait_for "$log" "first rows on screen"
        tmux -L "$SOCK" send-keys q
        frames+=("$(grep -o 'first frame after [0-9.]*' "$log" | grep -o '[0-9.]*$')")
        rows+=("$(grep -o 'first rows on screen after [0-9.]*' "$log" | grep -o '[0-9.]*$')")
        for _ in $(seq 250); do tmux -L "$SOCK" has-session 2>/dev/null || break; sleep 0.02; done
    done
    printf '%-34s first frame %7.2f ms   first rows %7.2f ms\n' "$label" \
        "$(printf '%s\n' "${frames[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')" \
        "$(printf '%s\n' "${rows[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
}

run_bare() {
    local frames=()
    for i in $(seq "$RUNS"); do
        local log="$WORK/bare-$i.log"
        tmux -L "$SOCK" -f /dev/null new-session -d -x 120 -y 40 "$BARE $log"
        for _ in $(seq 500); do tmux -L "$SOCK" capture-pane -p 2>/dev/null | grep -q "first frame" && break; sleep 0.02; done
        tmux -L "$SOCK" send-keys q
        wait_for "$log" "first frame"
        frames+=("$(grep -o '[0-9.]* ms' "$log" | grep -o '^[0-9.]*')")
        for _ in $(seq 250); do tmux -L "$SOCK" has-session 2>/dev/null || break; sleep 0.02; done
    done
    printf '%-34s first frame %7.2f ms\n' "bare ratatui (baseline)" \
        "$(printf '%s\n' "${frames[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
}

echo "median of $RUNS runs, 120x40 tmux pane:"
run_bare
run_tui "appdeck (running sandbox)"
run_tui "appdeck --demo (in-process)" --demo
