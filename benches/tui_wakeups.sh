#!/usr/bin/env bash
# When an idle TUI wakes, measured from outside: the context switches of all its threads
# (/proc/PID/task/*/status), second by second from the first rows on screen, over RUNS runs.
#  - the first seconds hold one-off events of the start (a connection the server closes once it
#    has been idle, a blocking thread that retires), each once: a 3 s window that happens to hold
#    one reads as "0.3 wake-ups a second" although nothing repeats;
#  - after them, idle is 0 wake-ups (the event loop sleeps without a timer);
#  - under `:watch SECS` the loop wakes for each look, every SECS seconds.
# Usage: benches/tui_wakeups.sh [RUNS] [SECONDS]     Needs: tmux.
# SANDBOX_ARGS go to the sandbox: `--header-timeout 60` keeps an idle connection open for a
# minute (5 s by default), and the wake-up at 5 s goes with it.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-10}
SECONDS_SHOWN=${2:-12}
source benches/lib.sh
bench_setup wake
build_appdeck
# shellcheck disable=SC2086 # SANDBOX_ARGS is a list of words
start_sandbox "$WORK" ${SANDBOX_ARGS:-}

# Context switches of every thread, by thread id and name; between two readings, the threads
# alive at both count their new switches, and a thread that ended meanwhile counts one (it woke
# to end: a blocking thread retiring).
switches() {
    for t in /proc/"$PID"/task/*; do
        { printf '%s %s %s\n' "${t##*/}" "$(tr ' ' _ <"$t/comm")" \
            "$(awk '/ctxt_switches/ {s += $2} END {print s}' "$t/status")"; } 2>/dev/null
    done | sort
}
between() {
    { join "$1" "$2" | awk '$5 != $3 {print $2 "+" ($5 - $3), $5 - $3}'
      join -v 1 "$1" "$2" | awk '{print $2 "-ended", 1}'; } |
        awk '{n += $2; w = w " " $1} END {printf "%d%s", n, w}'
}

declare -a total
for run in $(seq "$RUNS"); do
    launch
    wait_screen "more available" 10
    switches >"$WORK/s0"
    line="run $run:"
    for s in $(seq "$SECONDS_SHOWN"); do
        sleep 1
        switches >"$WORK/s$s"
        n=$(between "$WORK/s$((s - 1))" "$WORK/s$s")
        total[s]=$(( ${total[s]:-0} + ${n%% *} ))
        [[ "${n%% *}" != 0 ]] && line="$line  ${s}s:${n#* }"
    done
    echo "$line"
    # Under :watch 2 for 10 s: the looks (each a request and a frame) wake it.
    tmux -L "$SOCK" send-keys : "watch 2" Enter
    wait_screen "watching every 2s · looked" 10
    switches >"$WORK/w0"; sleep 10; switches >"$WORK/w1"
    w=$(between "$WORK/w0" "$WORK/w1"); watched=$(( ${watched:-0} + ${w%% *} ))
    tmux -L "$SOCK" send-keys q
    for _ in $(seq 250); do kill -0 "$PID" 2>/dev/null || break; sleep 0.02; done
done
echo
echo "wake-ups in each second after the first rows, summed over $RUNS runs:"
for s in $(seq "$SECONDS_SHOWN"); do printf '  %2ds %4d\n' "$s" "${total[s]}"; done
early=0; for s in 3 4 5; do early=$(( early + total[s] )); done
late=0; for s in $(seq 7 "$SECONDS_SHOWN"); do late=$(( late + total[s] )); done
printf 'idle 3 s from 2 s after the first rows:  %.2f wake-ups/s\n' "$(awk -v n="$early" -v r="$RUNS" 'BEGIN {print n / r / 3}')"
printf 'idle from 6 s to %ss:                    %.2f wake-ups/s\n' "$SECONDS_SHOWN" "$(awk -v n="$late" -v r="$RUNS" -v s="$SECONDS_SHOWN" 'BEGIN {print n / r / (s - 6)}')"
printf 'under :watch 2, 10 s:                    %.2f wake-ups/s\n' "$(awk -v n="$watched" -v r="$RUNS" 'BEGIN {print n / r / 10}')"
