#!/usr/bin/env bash
# `list --all` over 100,000 resources in every output format and through `--jq '.id'`, side by
# side in one run against one sandbox, with each one's ratio to `-o ndjson` (issue 35's goals:
# table, csv and tsv within 2x of ndjson, `--jq '.id'` within 3x). Each command runs ROUNDS
# times, the commands taking turns, and the fastest run counts: the machine's other load only
# ever adds time.
#
# Usage: benches/list_formats.sh        (BIN=path/to/appdeck to measure a binary already built;
#                                       TOTAL=10000 ROUNDS=5 to change the sizes)
# Needs: GNU time at /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."

TOTAL=${TOTAL:-100000}
ROUNDS=${ROUNDS:-3}
LIMIT=500

[[ -x /usr/bin/time ]] || { echo "needs GNU time: sudo apt-get install -y time" >&2; exit 2; }
source benches/lib.sh
build_appdeck
work=$(mktemp -d)
cleanup() { stop_sandbox; rm -rf "$work"; }
trap cleanup EXIT

echo "starting the sandbox with $TOTAL generated resources..." >&2
start_sandbox "$work" --empty --generate "$TOTAL"
export APPDECK_BASE_URL="$BASE_URL" APPDECK_TOKEN=bench
unset APPDECK_PROFILE APPDECK_CONFIG COLUMNS

names=(ndjson table csv tsv "jq .id")
args=("-o ndjson" "-o table" "-o csv" "-o tsv" "--jq .id")
# Lines each writes: the header line of table, csv and tsv besides the rows.
lines=("$TOTAL" $((TOTAL + 1)) $((TOTAL + 1)) $((TOTAL + 1)) "$TOTAL")

# run I: the command I once, its output to a file; prints its wall seconds.
run() {
    # shellcheck disable=SC2086 # the arguments are words on purpose
    /usr/bin/time -f %e -o "$work/time" "$BIN" list --all --limit "$LIMIT" ${args[$1]} \
        >"$work/out" 2>"$work/err"
    local got
    got=$(wc -l <"$work/out")
    # A listing that stops early would look fast: refuse to count it.
    if ((got != lines[$1])); then
        echo "appdeck list ${args[$1]} wrote $got lines, not ${lines[$1]}:" >&2
        cat "$work/err" >&2
        exit 1
    fi
    cat "$work/time"
}

best=()
echo "measuring, $ROUNDS rounds..." >&2
for ((round = 0; round < ROUNDS; round++)); do
    for i in "${!names[@]}"; do
        t=$(run "$i")
        if [[ -z "${best[$i]:-}" ]] || awk -v t="$t" -v b="${best[$i]}" 'BEGIN {exit !(t < b)}'; then
            best[$i]=$t
        fi
    done
done

printf '\n%-44s %9s %9s %6s\n' "appdeck list --all --limit $LIMIT ($TOTAL)" "wall (s)" "x ndjson" goal
goals=("" "2" "2" "2" "3")
for i in "${!names[@]}"; do
    ratio=$(awk -v t="${best[$i]}" -v n="${best[0]}" 'BEGIN {printf "%.2f", t / n}')
    printf '%-44s %9s %9s %6s\n' "${args[$i]}" "${best[$i]}" "$ratio" "${goals[$i]:+<= ${goals[$i]}}"
done
