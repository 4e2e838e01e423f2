#!/usr/bin/env bash
# Writes build/startup.order: the functions of appdeck that the TUI runs from its start until
# its first rows are on screen and the background start-up work (the store, the known types) is
# done, then while it loads more pages, which the linker then puts side by side (see
# build/link_layout.rs): the code of loading a long list stays resident as it grows, so it is
# laid out with the start-up's rather than scattered over the rest. Run it again when
# benches/tui_idle.sh or benches/memory.sh show the start-up RSS grown back (a new compiler or new
# dependencies rename symbols; new start-up code is not in the list).
# Usage: benches/startup_order.sh      Needs: tmux, valgrind (callgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
source benches/lib.sh
bench_setup order
build_appdeck
# Rows enough that loading them runs what loading 100,000 does (a chunk of rows and one of texts
# filled, the spill written out, the heap trimmed), in pages of 500 as benches/memory.sh loads.
ROWS=20000
start_sandbox "$WORK" --empty --generate "$ROWS"

# Mangled names (--demangle=no), as the linker's order file wants them. valgrind's own messages go
# to a file: written to the pane, they drew over the list, and the title waited for never showed.
tmux -L "$SOCK" -f /dev/null new-session -d -x 120 -y 40 \
    "exec env HOME=$WORK APPDECK_BASE_URL=$BASE_URL APPDECK_TOKEN=bench valgrind --tool=callgrind \
     --log-file=$WORK/valgrind.log --demangle=no --compress-strings=no \
     --callgrind-out-file=$WORK/callgrind.out $BIN --page-size 500"
wait_screen "more available" 60 || { echo "the first rows never showed under callgrind" >&2; exit 1; }
sleep 8 # the background start-up work, slowed down by callgrind
load_all "$ROWS" 900 >/dev/null
tmux -L "$SOCK" send-keys q
for _ in $(seq 600); do tmux -L "$SOCK" has-session 2>/dev/null || break; sleep 0.1; done
[[ -s "$WORK/callgrind.out" ]] || { echo "callgrind wrote no profile" >&2; exit 1; }

# Every function of the appdeck binary that ran, once each, in the order the profile names them:
# symbols only (not "(below main)" or a bare address), less the "'2" callgrind adds to a
# recursive call's name.
awk -v bin="$BIN" '
    /^ob=/ { ob = substr($0, 4) }
    /^fn=/ && ob == bin {
        name = substr($0, 4); sub(/\047[0-9]+$/, "", name)
        if (name ~ /^[_A-Za-z]/ && !(name in seen)) { seen[name]; print name }
    }
' "$WORK/callgrind.out" >build/startup.order
echo "build/startup.order: $(wc -l <build/startup.order) functions" >&2
