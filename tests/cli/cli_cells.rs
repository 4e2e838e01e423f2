//! Issue 45: what `list -o csv|tsv` and `appdeck api` write to a pipe is as safe to print as
//! the table is (`| cat` ends in a terminal), and a page's `next` that is no cursor is a bad
//! answer however many pages were asked for; the real binary against small servers on loopback.

use crate::common;

use common::Output;
use common::faulty::{Reply, faulty};

fn against(url: &str, args: &[&str]) -> Output {
    common::run_against(tempfile::tempdir().unwrap().path(), url, args)
}

/// A server that answers every request with `body` (status 200), up to `times` requests.
fn serving(times: usize, body: String) -> String {
    faulty(times, move |_| Reply::Answer("200 OK", body.clone())).0
}

/// Whether `text` holds a character that would drive a terminal (but tab and line breaks).
fn drives_a_terminal(text: &str) -> bool {
    text.chars().any(|c| {
        matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
            | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
            | '\u{061c}' | '\u{feff}')
    })
}

/// Item 2: an OSC 52 clipboard write, a C1 CSI and a bidi override in a name reached a pipe
/// raw. tsv escapes them (`\\` keeps it reversible); csv, which has no escape, writes U+FFFD
/// and says on stderr how many cells it changed.
#[test]
fn csv_and_tsv_write_no_escape_sequence_to_a_pipe() {
    let page = "{\"resources\":[{\"id\":\"r1\",\"type\":\"t\",\
                \"name\":\"a\\u001b]52;c;aGk=\\u0007b\",\
                \"display_name\":\"x\\u009b31m\u{202e}y\",\"status\":\"two\\nlines\"}],\
                \"next\":null}";
    let url = serving(3, page.to_owned());
    let csv = against(&url, &["list", "-o", "csv"]);
    assert_eq!(csv.code, 0, "{csv:?}");
    assert!(!drives_a_terminal(&csv.stdout), "{csv:?}");
    assert_eq!(
        csv.lines()[1..],
        [
            "t,r1,a\u{fffd}]52;c;aGk=\u{fffd}b,x\u{fffd}31m\u{fffd}y,\"two",
            "lines\",,"
        ],
        "{csv:?}"
    );
    assert!(
        csv.stderr
            .contains("2 cells held control characters or bidirectional marks")
            && csv.stderr.contains("-o ndjson keeps the exact text"),
        "{}",
        csv.stderr
    );
    let tsv = against(&url, &["list", "-o", "tsv", "--no-headers"]);
    assert_eq!(tsv.code, 0, "{tsv:?}");
    assert_eq!(
        tsv.stdout,
        "t\tr1\ta\\u001b]52;c;aGk=\\u0007b\tx\\u009b31m\\u202ey\ttwo\\nlines\t\t\n"
    );
    assert_eq!(
        tsv.stderr, "",
        "tsv changes nothing: its escapes are reversible"
    );
    let ndjson = against(&url, &["list", "-o", "ndjson"]);
    assert!(ndjson.stdout.contains("\\u001b]52") && ndjson.stdout.contains("\\u202e"));
}

/// Item 3: a 200 answer that is not JSON went to a pipe as it came, escape sequences and all,
/// with exit status 0. It is a bad answer, as `list` says one: exit 1, an excerpt made safe.
#[test]
fn api_refuses_an_answer_that_is_not_json() {
    let url = serving(1, "<p>\u{1b}]52;c;aGk=\u{7}\u{1b}[2Jbusy</p>".to_owned());
    let out = against(&url, &["api", "resources.list"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr
            .starts_with("appdeck: unreadable answer: not JSON")
            && out.stderr.contains("<p>␛]52;c;aGk=␇␛[2Jbusy</p>"),
        "{}",
        out.stderr
    );
    assert!(!drives_a_terminal(&out.stderr), "{}", out.stderr);
}

/// Item 3: a JSON answer is written as the service wrote it (its escapes kept), but for what
/// JSON may hold raw in a string that a terminal acts on: DEL, C1 and bidi marks, written as
/// `\u` escapes as `-o json` writes them.
#[test]
fn api_writes_a_json_answer_as_it_came_made_safe() {
    let answer = "{\"e\": \"\\u001b[2J\", \"c1\": \"x\u{9b}31m\u{7f}y\", \"bidi\": \"\u{202e}\", \"n\": 1E2}";
    let url = serving(1, answer.to_owned());
    let out = against(&url, &["api", "resources.list"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.stdout,
        "{\"e\": \"\\u001b[2J\", \"c1\": \"x\\u009b31m\\u007fy\", \"bidi\": \"\\u202e\", \"n\": 1E2}"
    );
}

/// Item 5: without `--all`, a page whose `next` is a number was the end of the listing: "no
/// more pages", exit 0. It is a bad answer, said as the TUI says it.
#[test]
fn a_next_that_is_no_cursor_fails_the_listing() {
    let page = r#"{"resources":[{"id":"r1","type":"t"}],"next":50}"#;
    let url = serving(4, page.to_owned());
    for args in [
        &["list"][..],
        &["list", "-o", "csv"],
        &["list", "--max-items", "1"],
        &["list", "--all", "-o", "ndjson"],
    ] {
        let out = against(&url, args);
        assert_eq!(out.code, 1, "{args:?}: {out:?}");
        assert!(
            out.stdout.contains("r1"),
            "the page's rows are written: {out:?}"
        );
        assert!(
            out.stderr
                .contains("`next` should be a string cursor, found a number"),
            "{args:?}: {}",
            out.stderr
        );
        assert!(!out.stderr.contains("no more pages"), "{}", out.stderr);
    }
}
