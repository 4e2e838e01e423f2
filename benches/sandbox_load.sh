#!/usr/bin/env bash
# Throughput and p99 latency of the sandbox's resources.list and apps.operations.report under 50
# concurrent connections, with oha when installed, else wrk (installed with apt-get if missing;
# `cargo install oha` also works but takes long to build on a small machine).
#
# Usage: benches/sandbox_load.sh              (builds the release binary first)
#        BIN=/path/to/appdeck benches/sandbox_load.sh   (measure another build, e.g. an older one)
#        DURATION=20 benches/sandbox_load.sh
# Reports go to a type with a property schema (a `pattern` included), so each report is checked
# on the schema-check pool as in real use.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10}
CONNECTIONS=50
TOKEN=bench   # the token start_sandbox (benches/lib.sh) gives the sandbox

if ! command -v oha >/dev/null && ! command -v wrk >/dev/null; then
    echo "installing wrk (apt-get)..." >&2
    sudo_or_not=$( [[ $(id -u) == 0 ]] && echo "" || echo sudo )
    $sudo_or_not apt-get install -y wrk >/dev/null
fi
command -v curl >/dev/null || { echo "benches/sandbox_load.sh: needs curl" >&2; exit 2; }

if [[ -z "${BIN:-}" ]]; then
    echo "building the release binary..." >&2
    cargo build --release --quiet
    BIN="$PWD/target/release/appdeck"
fi

work=$(mktemp -d)
source benches/lib.sh
cleanup() { stop_sandbox; rm -rf "$work"; }
trap cleanup EXIT

start_sandbox "$work" --generate 10000
curl -sS --fail -X POST "$BASE_URL/apps.version.connect" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' -d '{"app_id":"bench","version":"1","resources":[{
      "type":"bench","property_json_schema":{"type":"object","required":["size"],"properties":{
      "size":{"type":"integer","minimum":0},"tag":{"type":"string","pattern":"^[a-z]+-[0-9]+$"}}}}]}' \
    >/dev/null

LIST_BODY='{"limit":50}'
REPORT_BODY='{"task_id":"t","status":"ok","response":{"response_type":"resource","resource":{"type":"bench","external_id":"e1","display_name":"bench","properties":{"size":3,"tag":"abc-12"}}}}'

# measure NAME OPERATION BODY: prints "NAME  requests/s  p99"
measure() {
    local name=$1 url="$BASE_URL/$2" body=$3
    if command -v oha >/dev/null; then
        oha -z "${DURATION}s" -c "$CONNECTIONS" --no-tui --output-format json -m POST \
            -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "$body" "$url" \
            >"$work/oha.json"
        python3 - "$name" "$work/oha.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[2]))
print(f"{sys.argv[1]:<24} {r['summary']['requestsPerSec']:>10.0f} req/s   p99 {r['latencyPercentiles']['p99']*1000:.2f} ms")
PY
    else
        cat >"$work/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$body'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $TOKEN"
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.0f %.2f %d %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(99) / 1000, summary.errors.status, summary.errors.timeout))
end
LUA
        wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s "$work/post.lua" "$url" >"$work/wrk.out"
        read -r _ rps p99 non2xx timeouts < <(grep '^RESULT' "$work/wrk.out")
        printf '%-24s %10s req/s   p99 %s ms   (non-2xx %s, timeouts %s)\n' \
            "$name" "$rps" "$p99" "$non2xx" "$timeouts"
    fi
}

echo "sandbox: 10,000 generated resources; $CONNECTIONS connections; ${DURATION}s each; $BIN" >&2
measure resources.list resources.list "$LIST_BODY"
measure apps.operations.report apps.operations.report "$REPORT_BODY"
