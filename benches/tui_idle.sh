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
source benches/lib.sh
bench_setup idle
build_appdeck
start_sandbox "$WORK" --empty --generate 100000

cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
switches() { cat /proc/"$PID"/task/*/status | awk '/ctxt_switches/ {s += $2} END {print s}'; }

# 1. Start (default page size), then idle.
launch
wait_screen "more available" 10
printf 'resident at start (first page on screen)    %6.1f MB\n' "$(mb "$PID" VmRSS)"
# Data (heap, stacks) apart from file pages (the executable's code as it runs, shared and
# reclaimable): a bigger binary grows the second, a leak or a cache the first.
printf '  of which data / code and files            %6.1f / %.1f MB\n' "$(mb "$PID" RssAnon)" "$(mb "$PID" RssFile)"
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

# 2. All 100,000 rows, in pages of 500.
launch --page-size 500
wait_screen "more available" 10
load_all 100000
printf 'resident with 100,000 rows loaded           %6.1f MB\n' "$(mb "$PID" VmRSS)"
printf '  of which data / code and files            %6.1f / %.1f MB\n' "$(mb "$PID" RssAnon)" "$(mb "$PID" RssFile)"
printf 'peak resident (VmHWM)                       %6.1f MB\n' "$(mb "$PID" VmHWM)"
tmux -L "$SOCK" send-keys q
