#!/usr/bin/env bash
# What the TUI costs when nothing happens, and what it holds in memory:
#  - resident memory at start (first page on screen);
#  - CPU time and wake-ups (context switches of all its threads) over IDLE seconds of idling,
#    once the start-up work in the background has settled and the sandbox has closed the
#    connection left idle (SETTLE seconds, 6 by default: it closes one after 5 s idle, which
#    wakes the client once; benches/tui_wakeups.sh shows each second);
#  - resident and peak memory after loading 100,000 rows (pages of 500, `G` held).
# Usage: benches/tui_idle.sh [IDLE_SECONDS]      Needs: tmux.
set -euo pipefail
cd "$(dirname "$0")/.."
IDLE=${1:-10}
command -v tmux >/dev/null || { echo "needs tmux (apt-get install tmux)" >&2; exit 2; }

echo "building the release binary..." >&2
cargo build --release --quiet --bin appdeck
BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/appdeck"
WORK=$(mktemp -d)
SOCK="appdeck-idle-$$"
source benches/lib.sh
cleanup() { tmux -L "$SOCK" kill-server 2>/dev/null || true; stop_sandbox; rm -rf "$WORK"; }
trap cleanup EXIT
start_sandbox "$WORK" --empty --generate 100000

screen() { tmux -L "$SOCK" capture-pane -p; }
wait_screen() { # wait_screen PATTERN SECONDS
    for _ in $(seq $(( $2 * 50 ))); do screen | grep -q "$1" && return 0; sleep 0.02; done
    echo "timed out waiting for '$1'" >&2; screen >&2; return 1
}
kib() { awk -v k="$1" '$1 == k":" {print $2}' "/proc/$PID/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
switches() { cat /proc/"$PID"/task/*/status | awk '/ctxt_switches/ {s += $2} END {print s}'; }

launch() { # launch ARGS...: appdeck in a fresh tmux session; sets PID, which must be appdeck's
    tmux -L "$SOCK" kill-server 2>/dev/null || true
    # `exec`: the pane's process is appdeck itself, not a shell waiting for it (under dash the
    # shell would stay, and every figure below would be the shell's).
    tmux -L "$SOCK" -f /dev/null new-session -d -x 120 -y 40 \
        "exec env HOME=$WORK APPDECK_BASE_URL=$BASE_URL APPDECK_TOKEN=bench $BIN $*"
    PID=$(tmux -L "$SOCK" display-message -p '#{pane_pid}')
    # env execs appdeck in turn; wait for that, then insist the PID measured is appdeck's.
    local exe=""
    for _ in $(seq 250); do
        exe=$(readlink "/proc/$PID/exe" 2>/dev/null || true)
        [[ "$exe" == "$BIN" ]] && return 0
        sleep 0.02
    done
    echo "the pane's process $PID is ${exe:-gone}, not $BIN: refusing to measure it" >&2
    return 1
}

# 1. Start (default page size), then idle.
launch
wait_screen "more available" 10
mb() { awk -v k="$(kib "$1")" 'BEGIN {printf "%.1f", k / 1024}'; }
printf 'resident at start (first page on screen)    %6.1f MB\n' "$(mb VmRSS)"
# Data (heap, stacks) apart from file pages (the executable's code as it runs, shared and
# reclaimable): a bigger binary grows the second, a leak or a cache the first.
printf '  of which data / code and files            %6.1f / %.1f MB\n' "$(mb RssAnon)" "$(mb RssFile)"
# The known types and the store load in the background after the first frame: let that finish,
# so the idle window measures idling and not start-up work.
sleep "${SETTLE:-6}"
ticks0=$(cpu_ticks); sw0=$(switches)
sleep "$IDLE"
ticks1=$(cpu_ticks); sw1=$(switches)
hz=$(getconf CLK_TCK)
printf 'idle %ss: CPU time                          %6.1f ms\n' "$IDLE" "$(awk -v d="$((ticks1 - ticks0))" -v hz="$hz" 'BEGIN {print d * 1000 / hz}')"
printf 'idle %ss: wake-ups (context switches)       %6d\n' "$IDLE" "$(( sw1 - sw0 ))"
tmux -L "$SOCK" send-keys q

# 2. All 100,000 rows, in pages of 500: hold G (each press goes to the last loaded row, which
#    asks for the next page).
launch --page-size 500
wait_screen "more available" 10
for _ in $(seq 3000); do
    screen | grep -q "100,000 loaded · all loaded" && break
    tmux -L "$SOCK" send-keys G
    sleep 0.02
done
wait_screen "100,000 loaded · all loaded" 60
printf 'resident with 100,000 rows loaded           %6.1f MB\n' "$(mb VmRSS)"
printf '  of which data / code and files            %6.1f / %.1f MB\n' "$(mb RssAnon)" "$(mb RssFile)"
printf 'peak resident (VmHWM)                       %6.1f MB\n' "$(mb VmHWM)"
tmux -L "$SOCK" send-keys q
