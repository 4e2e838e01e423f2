# Shared by the benchmark scripts (sourced, not run). Expects $BIN, the appdeck binary.

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
