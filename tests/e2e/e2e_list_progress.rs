//! End to end, in a real terminal (tmux): a long `list --all` whose rows go to a file shows its
//! progress (rows, pages, rate) on stderr, the terminal, and clears it before the table's footer.
//! (With stderr no terminal it says nothing: tests/cli/cli_scripts.rs.)

use crate::common;

use common::TestSandbox;
use common::tmux::{Tmux, binary};

#[test]
fn a_listing_to_a_file_shows_its_progress_on_the_terminal_then_clears_it() {
    let sandbox = TestSandbox::start(false, 200, None);
    let tmux = Tmux::start(120, 20);
    // 20 pages at 5 requests a second: about 4 s of listing, time to see the line.
    tmux.type_line(&format!(
        "APPDECK_BASE_URL={} APPDECK_TOKEN={} APPDECK_CONFIG=none.toml {} list --all --limit 10 \
         --rate 5 > rows.txt; echo listed=$?",
        sandbox.base_url,
        common::TOKEN,
        binary().display()
    ));
    let screen = tmux.wait_for("the progress line", |s| {
        s.lines().any(|l| {
            l.contains("appdeck list:") && l.contains(" rows · ") && l.contains(" pages · ")
        })
    });
    assert!(screen.contains("/s · "), "the rate: {screen}");
    let screen = tmux.wait_for("the end", |s| s.contains("listed=0"));
    assert!(
        !screen.contains("appdeck list:"),
        "the line is cleared: {screen}"
    );
    let footer = screen
        .lines()
        .find(|l| l.contains("200 resources; no more pages"))
        .unwrap_or_else(|| panic!("the footer: {screen}"));
    assert_eq!(footer.trim(), "200 resources; no more pages", "{screen}");
    let rows = std::fs::read_to_string(tmux.home.path().join("rows.txt")).unwrap();
    assert_eq!(rows.lines().count(), 201, "a header and 200 rows");
}
