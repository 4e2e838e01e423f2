#!/usr/bin/env bash
# Time and peak memory of `appdeck list --all --output ndjson` against the local sandbox, next to
# a bare client (benches/bare_list.rs: follows `next` and reads the bytes, nothing else; the goal
# is within 3x of it) and a shell loop that follows the cursor with curl and jq, over the same
# sandbox and page size.
#
# Usage: benches/list_all.sh            (from anywhere; builds the release binary first)
# Needs: curl, jq and GNU time at /usr/bin/time. It installs nothing itself.
#
# appdeck writes each page and drops it, so its peak memory should be the same at 10,000 and at
# 100,000 resources; the curl + jq loop is the baseline a script writer would otherwise use.
set -euo pipefail
cd "$(dirname "$0")/.."

TOTAL=100000
SMALL=10000
LIMIT=500
TOKEN=bench   # the token start_sandbox (benches/lib.sh) gives the sandbox

missing=()
command -v curl >/dev/null || missing+=(curl)
command -v jq >/dev/null || missing+=(jq)
[[ -x /usr/bin/time ]] || missing+=(time)
if ((${#missing[@]})); then
    echo "benches/list_all.sh: missing ${missing[*]}; install with: sudo apt-get install -y ${missing[*]}" >&2
    exit 2
fi

echo "building the release binary..." >&2
cargo build --release --quiet
BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/appdeck"
BARE=$(cargo bench --quiet --no-run --bench bare_list --message-format=json \
    | jq -r 'select(.target.name == "bare_list" and .executable != null) | .executable')

work=$(mktemp -d)
source benches/lib.sh
cleanup() { stop_sandbox; rm -rf "$work"; }
trap cleanup EXIT

echo "starting the sandbox with $TOTAL generated resources..." >&2
start_sandbox "$work" --empty --generate "$TOTAL"
URL=$BASE_URL
export APPDECK_BASE_URL="$URL" APPDECK_TOKEN="$TOKEN" URL TOKEN LIMIT
unset APPDECK_PROFILE APPDECK_CONFIG

# Follows the cursor with curl and jq, one resource per line on stdout; $1 pages at most (0: all).
curl_loop() {
    local max=$1 next="" pages=0 body page
    while :; do
        body=$(jq -nc --arg next "$next" --argjson limit "$LIMIT" \
            '{limit: $limit} + (if $next == "" then {} else {next: $next} end)')
        page=$(curl -sS --fail -X POST "$URL/resources.list" \
            -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "$body")
        jq -c '.resources[]' <<<"$page"
        next=$(jq -r '.next // ""' <<<"$page")
        pages=$((pages + 1))
        [[ -z "$next" ]] && break
        ((max > 0 && pages >= max)) && break
    done
}
export -f curl_loop

# Runs a command under GNU time; prints "<wall seconds> <max RSS in MiB>".
measure() {
    /usr/bin/time -v -o "$work/time" "$@" >/dev/null
    awk -F': ' '
        /Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; wall = s }
        /Maximum resident set size/ { rss = $2 / 1024 }
        END { printf "%.2f %.1f\n", wall, rss }' "$work/time"
}

small_pages=$((SMALL / LIMIT))
echo "checking counts..." >&2
got_small=$("$BIN" list --pages "$small_pages" --limit "$LIMIT" --output ndjson | wc -l)
got_all=$("$BIN" list --all --limit "$LIMIT" --output ndjson | wc -l)
got_curl=$(bash -c "curl_loop 0" | wc -l)
echo "resources listed: appdeck $got_small / $got_all, curl+jq $got_curl (expected $SMALL / $TOTAL)" >&2
# A listing that stops early would look fast: refuse to time it.
if ((got_small != SMALL || got_all != TOTAL || got_curl != TOTAL)); then
    echo "benches/list_all.sh: wrong row counts (expected appdeck $SMALL / $TOTAL, curl+jq $TOTAL); not measuring" >&2
    exit 1
fi

echo "measuring..." >&2
read -r a_small_t a_small_m < <(measure "$BIN" list --pages "$small_pages" --limit "$LIMIT" --output ndjson)
read -r a_all_t a_all_m < <(measure "$BIN" list --all --limit "$LIMIT" --output ndjson)
read -r b_all_t b_all_m < <(measure "$BARE" "$URL" "$TOKEN" "$LIMIT")
read -r c_small_t c_small_m < <(measure bash -c "curl_loop $small_pages")
read -r c_all_t c_all_m < <(measure bash -c "curl_loop 0")

printf '\n%-40s %10s %10s %12s\n' "command (page size $LIMIT)" resources "wall (s)" "max RSS (MiB)"
printf '%-40s %10s %10s %12s\n' "appdeck list --output ndjson" "$SMALL" "$a_small_t" "$a_small_m"
printf '%-40s %10s %10s %12s\n' "appdeck list --all --output ndjson" "$TOTAL" "$a_all_t" "$a_all_m"
printf '%-40s %10s %10s %12s\n' "bare client (bare_list)" "$TOTAL" "$b_all_t" "$b_all_m"
printf '%-40s %10s %10s %12s\n' "curl + jq loop" "$SMALL" "$c_small_t" "$c_small_m"
printf '%-40s %10s %10s %12s\n' "curl + jq loop" "$TOTAL" "$c_all_t" "$c_all_m"
