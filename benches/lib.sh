# Shared by the benchmark scripts (sourced, not run): the sandbox, the release binary, appdeck
# in tmux. start_sandbox and launch expect $BIN, the appdeck binary (build_appdeck sets it).

# start_sandbox WORKDIR ARGS...: runs `appdeck sandbox` on a port the system picks, with the
# token `bench` and ARGS, and waits until it prints its URL. Sets SANDBOX_PID and BASE_URL; fails
# with the sandbox's own message if it dies first.
start_sandbox() {
    local work=$1; shift
    "$BIN" sandbox --listen 127.0.0.1:0 --token bench "$@" \
        >"$work/sandbox.out" 2>"$work/sandbox.err" &
    SANDBOX_PID=$!
    for _ in $(seq 1200); do
        grep -q '^export APPDECK_TOKEN=' "$work/sandbox.out" 2>/dev/null && break
        kill -0 "$SANDBOX_PID" 2>/dev/null || { cat "$work/sandbox.err" >&2; return 1; }
        sleep 0.05
    done
    BASE_URL=$(sed -n 's/^export APPDECK_BASE_URL=//p' "$work/sandbox.out")
    [[ -n "$BASE_URL" ]] || { echo "the sandbox did not print its URL" >&2; return 1; }
}

stop_sandbox() {
    if [[ -n "${SANDBOX_PID:-}" ]]; then
        kill "$SANDBOX_PID" 2>/dev/null || true
        wait "$SANDBOX_PID" 2>/dev/null || true
    fi
}

# build_appdeck: builds the release binary into CARGO_TARGET_DIR (or target/) and sets BIN to it;
# a BIN already set (`BIN=path/to/appdeck benches/x.sh`) is measured as it is. BIN is made
# absolute, as /proc/PID/exe names it (see launch). Sets TARGET, the directory builds go to.
build_appdeck() {
    TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
    if [[ -z "${BIN:-}" ]]; then
        echo "building the release binary..." >&2
        cargo build --release --quiet --bin appdeck
        BIN="$TARGET/release/appdeck"
    fi
    BIN=$(realpath "$BIN")
}

# bench_setup NAME: a scratch directory WORK and a name for this run's tmux servers; the tmux
# server, the sandbox and WORK go when the script exits.
bench_setup() {
    command -v tmux >/dev/null || { echo "needs tmux (apt-get install tmux)" >&2; exit 2; }
    WORK=$(mktemp -d)
    SOCK_NAME="appdeck-$1-$$"
    SOCK=$SOCK_NAME
    LAUNCHES=0
    trap bench_cleanup EXIT
}

bench_cleanup() {
    tmux -L "$SOCK" kill-server 2>/dev/null || true
    stop_sandbox
    rm -rf "$WORK"
}

screen() { tmux -L "$SOCK" capture-pane -p; }

wait_screen() { # wait_screen PATTERN SECONDS
    for _ in $(seq $(( $2 * 50 ))); do screen | grep -q "$1" && return 0; sleep 0.02; done
    echo "timed out waiting for '$1'" >&2; screen >&2; return 1
}

# launch ARGS...: appdeck with ARGS in a 120x40 tmux pane against the sandbox (start_sandbox),
# HOME in WORK; sets PID, which must be appdeck's.
launch() {
    tmux -L "$SOCK" kill-server 2>/dev/null || true
    # A server of its own each time: a new session on a server still shutting down fails.
    LAUNCHES=$(( LAUNCHES + 1 ))
    SOCK="$SOCK_NAME-$LAUNCHES"
    # `exec`: the pane's process is appdeck itself, not a shell waiting for it (under dash the
    # shell would stay, and every figure would be the shell's).
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

# kib PID KEY: a /proc/PID/status figure in KiB (VmRSS, VmHWM, RssAnon, RssFile); mb: in MB.
kib() { awk -v k="$2" '$1 == k":" {print $2}' "/proc/$1/status"; }
mb() { awk -v k="$(kib "$1" "$2")" 'BEGIN {printf "%.1f", k / 1024}'; }

# load_all ROWS [SECONDS]: in the appdeck launched, presses G (to the last loaded row, which asks
# for the next page) until the title says all ROWS are loaded, waiting at most SECONDS (120);
# prints the time it took. A press waits for the screen to change after the one before, or for a
# second: a slow appdeck (under callgrind, a frame takes a second) is not flooded with keys it
# would redraw for one by one, long after the last page.
load_all() {
    local label now before="" pressed=-1
    label="$(commas "$1") loaded · all loaded"
    local t0=$SECONDS deadline=$(( SECONDS + ${2:-120} ))
    while (( SECONDS < deadline )); do
        now=$(screen)
        if grep -q "$label" <<<"$now"; then
            printf '%-44s %7d s\n' "loaded in" "$(( SECONDS - t0 ))"
            return 0
        fi
        if [[ "$now" != "$before" ]] || (( SECONDS - pressed >= 1 )); then
            tmux -L "$SOCK" send-keys G
            before=$now
            pressed=$SECONDS
        fi
        sleep 0.02
    done
    echo "timed out waiting for '$label'" >&2; screen >&2; return 1
}

# commas N: 100000 -> 100,000, as the title counts.
commas() { echo "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
