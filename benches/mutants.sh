#!/usr/bin/env bash
# Mutation testing: does the test suite notice when the code is broken? cargo-mutants changes
# one thing at a time in the files below (a `==` into `!=`, a function body into a default
# value...), runs the tests, and lists every change ("mutant") that no test noticed (missed).
# Each missed mutant is a test to write, or a change that cannot matter (then say so in a
# comment next to the code, or mark the function `#[mutants::skip]` with the reason).
#
# Usage: benches/mutants.sh [AREA...]      AREA: paging, cursor, validate, stack, routing, update, app (default:
#                                          the first three; see below for update and app)
# Needs: cargo-mutants, installed here if missing (`cargo install --locked cargo-mutants`).
# Results: mutants.out/<area>/ (outcomes.json, caught.txt, missed.txt, unviable.txt, timeout.txt).
#
# Each mutant rebuilds the crate: 10 to 30 s each on 2 cores, so about 40 minutes for validate
# and two hours for update. They run the release profile, whose dependencies are already built,
# and build and run only the test targets that exercise each area. MUTANTS_ITERATE=1 tests
# again only the mutants the last run of an area did not catch (after writing their tests).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo mutants --version >/dev/null 2>&1; then
    echo "installing cargo-mutants..." >&2
    cargo install --locked cargo-mutants
fi

JOBS=${MUTANTS_JOBS:-1}

# run AREA FILES... -- TEST-TARGETS...: one cargo-mutants run over FILES, testing with
# `cargo test --release TEST-TARGETS` (for example `--lib --test sandbox`).
run() {
    local area=$1; shift
    local files=() targets=()
    while (($#)) && [[ $1 != -- ]]; do files+=(--file "$1"); shift; done
    shift
    # The targets go to every cargo call, the build included: after `--` they would only
    # select what runs, and each mutant would still build every test binary (3x slower).
    for target in "$@"; do targets+=("--cargo-arg=$target"); done
    echo "== $area: ${files[*]} (tests: $*)" >&2
    mkdir -p "mutants.out/$area"
    # --copy-target: start from this tree's built dependencies instead of a cold build. The
    # dependencies stay optimised as built; appdeck's crates are built unoptimised and
    # incrementally, so that each mutant's rebuild takes seconds rather than minutes.
    cargo mutants --jobs "$JOBS" --profile release --copy-target=true --config benches/mutants.toml \
        --cargo-arg=--config='profile.release.package."appdeck-core".opt-level=0' \
        --cargo-arg=--config='profile.release.package."appdeck-sandbox".opt-level=0' \
        --cargo-arg=--config='profile.release.package."appdeck-tui".opt-level=0' \
        --cargo-arg=--config=profile.release.incremental=true \
        "${targets[@]}" \
        ${MUTANTS_ITERATE:+--iterate} \
        --output "mutants.out/$area" "${files[@]}" --timeout-multiplier 3 \
        || true   # exits non-zero when a mutant is missed: report, go on
    for outcome in caught missed unviable timeout; do
        # grep -c prints 0 (and fails) for an empty list: no second 0 from a fallback.
        printf '%-9s %s\n' "$outcome" "$(cat "mutants.out/$area/mutants.out/$outcome.txt" 2>/dev/null | grep -c . || true)"
    done
}

areas=("$@")
((${#areas[@]})) || areas=(paging cursor validate)
for area in "${areas[@]}"; do
    case $area in
        paging) run paging crates/core/src/api/paging.rs -- -p appdeck-core --lib -p appdeck-sandbox --test pager ;;
        cursor) run cursor crates/sandbox/src/cursor.rs -- -p appdeck-sandbox --lib -p appdeck --test sandbox ;;
        # `--test cli` runs every CLI test, `validate`'s among them: a name filter would also
        # narrow the core's own tests, which catch mutants of the checks too.
        validate) run validate 'crates/core/src/validate/*.rs' -- -p appdeck-core --lib -p appdeck --test cli ;;
        # Every pane's and popup's update(), and the filterable list two panes delegate to
        # (about 460 mutants).
        # The app's reply routing and its stack of screens (issue 19).
        stack) run stack crates/tui/src/app/stack.rs crates/tui/src/app/mod.rs -- -p appdeck-tui --lib ;;
        # The reply routing alone (crates/tui/src/app/mod.rs), for a run after stack.rs was done.
        routing) run routing crates/tui/src/app/mod.rs -- -p appdeck-tui --lib ;;
        update) run update 'crates/tui/src/app/**/update.rs' crates/tui/src/app/widgets/filtered_list.rs -- -p appdeck-tui --lib ;;
        # All of the TUI state. Run it once crates/tui/src/app has settled: a rewrite in progress makes
        # its results stale at once.
        app) run app 'crates/tui/src/app/**/*.rs' -- -p appdeck-tui --lib ;;
        *) echo "unknown area $area (paging, cursor, validate, stack, routing, update, app)" >&2; exit 2 ;;
    esac
done
