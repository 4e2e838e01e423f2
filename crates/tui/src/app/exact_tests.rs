//! What the service sent is what the TUI shows and sends: a page read from its text keeps every
//! number's text and the keys' order through the detail, `R` and the report's request.

use crossterm::event::KeyCode;
use ratatui::layout::Rect;

use super::harness::{key, press};
use super::pane::Screen;
use super::tests::review_and_send_body;
use super::{Action, App, Command, Session};
use crate::api::page::RawPage;
use crate::api::{Exchange, Reply};

/// Numbers an `f64` would rewrite, and one past its range: one a line, shared with
/// `tests/cli/exact.rs`.
fn numbers() -> Vec<&'static str> {
    include_str!("../../../../tests/common/exact_numbers.txt")
        .lines()
        .collect()
}

/// An app whose first page is one resource holding [`numbers`], its keys out of the spec's order,
/// and a string written with an escape (`\u202e`, which the parsed value holds as the character).
fn app() -> App {
    let properties: Vec<String> = numbers()
        .iter()
        .enumerate()
        .map(|(i, n)| format!(r#""n{i}": {n}"#))
        .collect();
    let text = format!(
        r#"{{"resources": [{{"properties": {{{}}}, "name": "exact", "id": "r1", "type": "exactness", "note": "a\u202eb"}}]}}"#,
        properties.join(", ")
    );
    // Read as the client reads a page: each item's text kept as it came.
    let Ok(page) = RawPage::read(text.into_bytes()) else {
        panic!("a page");
    };
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 30), None);
    let id = commands
        .iter()
        .find_map(Command::request_id)
        .expect("first page");
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::Page(Box::new(page.into()))))),
    ));
    app
}

/// Whether `text` holds each number as written, `n0` to `n8` in order.
fn assert_exact(text: &str) {
    let mut from = 0;
    for (i, n) in numbers().iter().enumerate() {
        let at = [format!(r#""n{i}": {n}"#), format!(r#""n{i}":{n}"#)]
            .iter()
            .find_map(|s| text[from..].find(s.as_str()))
            .unwrap_or_else(|| panic!("n{i} is not {n} (or out of order) in {text}"));
        from += at;
    }
}

#[test]
fn the_detail_shows_each_number_as_it_came_and_the_keys_in_their_order() {
    let mut app = app();
    press(&mut app, KeyCode::Enter);
    let Some(Screen::Detail(detail)) = app.stack.top() else {
        panic!("the detail is open");
    };
    assert_exact(&detail.raw().lines().join("\n"));
    // `y` on the raw pane's first line copies the properties as they came.
    let raw = super::panes::detail::DetailPart::Raw;
    while !matches!(app.stack.top(), Some(Screen::Detail(d)) if d.focus == raw) {
        app.update(Action::Pane(super::Toward::Next));
    }
    let copied = app.update(Action::Copy);
    let Some(Command::Copy(text)) = copied.first() else {
        panic!("{copied:?}");
    };
    assert_exact(text);
    key(&mut app, 'a');
    let Some(Screen::Detail(detail)) = app.stack.top() else {
        panic!("the detail is open");
    };
    let whole = detail.raw().lines().join("\n");
    let order: Vec<usize> = ["\"properties\"", "\"name\"", "\"id\"", "\"type\""]
        .iter()
        .map(|k| whole.find(k).expect("every key shown"))
        .collect();
    assert!(order.is_sorted(), "keys in the order they came: {whole}");
    assert!(whole.contains(r#""note": "a\u202eb""#), "{whole}");
}

#[test]
fn r_copies_each_number_as_it_came_and_the_report_sends_it_so() {
    let mut app = app();
    key(&mut app, 'R');
    let Some(Screen::Report(composer)) = app.stack.top() else {
        panic!("the composer is open");
    };
    assert_exact(&composer.resource_text());
    // The escape stays as written (issue 36 item 9), not turned into the character.
    assert!(
        composer.resource_text().contains(r#""note": "a\u202eb""#),
        "{}",
        composer.resource_text()
    );
    // Findings (the provisional task id, the unknown type) ask for a second Enter.
    let body = review_and_send_body(&mut app);
    assert_exact(body.text());
    assert!(
        body.text().contains(r#""note":"a\u202eb""#),
        "{}",
        body.text()
    );
}
