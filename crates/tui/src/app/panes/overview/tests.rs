//! The overview: `4` and `:overview` open it over the list's loaded rows, it follows the pages
//! as they load, `Enter` lists the type or status under the cursor.

use std::sync::Arc;

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::{Bar, Overview, OverviewPart};
use crate::api::{Exchange, ListResponse, Reply};
use crate::app::harness::{key, press, type_text};
use crate::app::pane::Screen;
use crate::app::{Action, App, Command, RequestId, Session};
use appdeck_listing::LoadedSummary;

const STATUSES: [&str; 3] = ["active", "failed", "active"];

/// `count` resources from `start`: types repo, user, repo, …; statuses active, failed, active, …;
/// one per hour from 2026-11-20 00:00.
fn page(start: usize, count: usize, next: Option<&str>) -> ListResponse {
    let rows: Vec<Value> = (start..start + count)
        .map(|i| {
            json!({
                "id": format!("r{i}"),
                "type": if i % 2 == 0 { "repo" } else { "user" },
                "display_name": format!("row {i}"),
                "status": STATUSES[i % 3],
                "updated_at": format!("2026-11-20T{:02}:30:00Z", i % 24),
            })
        })
        .collect();
    ListResponse::from_value(json!({"resources": rows, "next": next})).unwrap()
}

fn list_request(commands: &[Command]) -> Option<RequestId> {
    commands.iter().find_map(|c| match c {
        Command::Api { id, call } => call.as_list_request().map(|_| *id),
        _ => None,
    })
}

fn answer(app: &mut App, id: RequestId, page: ListResponse) -> Vec<Command> {
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ))
}

/// An 80x24 app whose first page of 6 rows arrived (a second page is asked for at once, to fill
/// the screen): the app and that request.
fn loaded() -> (App, RequestId) {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    let first = list_request(&commands).expect("the first page is asked for");
    let commands = answer(&mut app, first, page(0, 6, Some("c2")));
    let next = list_request(&commands).expect("the next page is asked for");
    (app, next)
}

fn overview(app: &App) -> &Overview {
    match app.stack.top() {
        Some(Screen::Overview(overview)) => overview,
        other => panic!("the overview is not on top: {other:?}"),
    }
}

fn names(bars: Vec<Bar>) -> Vec<(String, usize)> {
    bars.into_iter()
        .map(|b| (b.label().to_owned(), b.rows))
        .collect()
}

/// The label of the bar under the cursor in the focused chart.
fn selected_name(overview: &Overview) -> Option<String> {
    let bars = overview.bars(overview.focus);
    bars.get(overview.selected(overview.focus))
        .map(|b| b.label().to_owned())
}

#[test]
fn four_opens_the_counts_of_the_loaded_rows_and_they_follow_the_pages() {
    let (mut app, next) = loaded();
    key(&mut app, '4');
    let shown = overview(&app);
    assert_eq!(shown.summary.rows, 6);
    assert!(shown.summary.more, "the service said there is more");
    assert_eq!(
        names(shown.bars(OverviewPart::Types)),
        [("repo".to_owned(), 3), ("user".to_owned(), 3)]
    );
    assert_eq!(
        names(shown.bars(OverviewPart::Statuses)),
        [("active".to_owned(), 4), ("failed".to_owned(), 2)],
        "most rows first"
    );
    answer(&mut app, next, page(6, 3, None));
    let shown = overview(&app);
    assert_eq!(shown.summary.rows, 9, "the next page is counted at once");
    assert!(!shown.summary.more);
    assert_eq!(
        names(shown.bars(OverviewPart::Types)),
        [("repo".to_owned(), 5), ("user".to_owned(), 4)]
    );
}

#[test]
fn the_command_line_opens_it_and_a_second_four_does_not_stack_another() {
    let (mut app, _) = loaded();
    key(&mut app, ':');
    type_text(&mut app, "overview");
    press(&mut app, KeyCode::Enter);
    overview(&app);
    key(&mut app, '2');
    assert!(matches!(app.stack.top(), Some(Screen::Types(_))));
    key(&mut app, '4');
    overview(&app);
    assert_eq!(
        app.stack.layers().len(),
        1,
        "back to the one below, not a second"
    );
    press(&mut app, KeyCode::Esc);
    assert!(app.stack.top().is_none(), "Esc goes back to the list");
}

/// The list opened over the overview: its type shown and the statuses of its rows.
fn opened_list(app: &App) -> (Option<&str>, Vec<Option<&str>>) {
    let Some(Screen::Browser(list)) = app.stack.top() else {
        panic!("a list is opened");
    };
    let statuses = (list.visible.iter())
        .map(|i| list.rows().at(i).status())
        .collect();
    let type_ = (list.query.type_shown.as_ref().map(|t| t.label())).or(list.type_filter.as_deref());
    (type_, statuses)
}

#[test]
fn enter_on_a_type_lists_the_loaded_rows_of_that_type_over_the_overview() {
    let (mut app, _) = loaded();
    key(&mut app, '4');
    key(&mut app, 'j');
    assert_eq!(selected_name(overview(&app)).as_deref(), Some("user"));
    let charted = overview(&app).bars(OverviewPart::Types)[1].rows;
    let commands = press(&mut app, KeyCode::Enter);
    assert_eq!(
        list_request(&commands),
        None,
        "the service is not asked again"
    );
    let (type_, statuses) = opened_list(&app);
    assert_eq!(type_, Some("user"));
    assert_eq!(
        statuses.len(),
        charted,
        "the list counts what the chart counted"
    );
    assert_eq!(app.stack.layers().len(), 2, "over the overview");
    press(&mut app, KeyCode::Esc);
    overview(&app);
}

#[test]
fn enter_on_a_status_lists_only_the_loaded_rows_of_that_status() {
    let (mut app, _) = loaded();
    key(&mut app, '4');
    press(&mut app, KeyCode::Tab);
    assert_eq!(overview(&app).focus, OverviewPart::Statuses);
    press(&mut app, KeyCode::End);
    assert_eq!(selected_name(overview(&app)).as_deref(), Some("failed"));
    let charted = overview(&app).bars(OverviewPart::Statuses)[1].rows;
    let commands = press(&mut app, KeyCode::Enter);
    assert_eq!(
        list_request(&commands),
        None,
        "the service is not asked again"
    );
    let (_, statuses) = opened_list(&app);
    assert_eq!(statuses, [Some("failed"), Some("failed")]);
    assert_eq!(
        statuses.len(),
        charted,
        "the list counts what the chart counted"
    );
}

/// A tester's finding: rows without a status (none, or not a string) were left out of the
/// chart (310 rows loaded, 309 counted); an empty status had a blank label.
#[test]
fn rows_without_a_status_have_a_bar_of_their_own_that_lists_them() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    let first = list_request(&commands).expect("the first page is asked for");
    let rows = json!({"resources": [
        {"id": "a", "type": "repo", "status": "active"},
        {"id": "b", "type": "repo"},
        {"id": "c", "type": "repo", "status": ""},
        {"id": "d", "type": "repo", "status": 3},
    ]});
    answer(&mut app, first, ListResponse::from_value(rows).unwrap());
    key(&mut app, '4');
    press(&mut app, KeyCode::Tab);
    let bars = overview(&app).bars(OverviewPart::Statuses);
    assert_eq!(
        names(bars.clone()),
        [
            ("\"\"".to_owned(), 1),
            ("active".to_owned(), 1),
            ("(none)".to_owned(), 2)
        ]
    );
    let counted: usize = bars.iter().map(|b| b.rows).sum();
    assert_eq!(counted, 4, "the bars add up to the rows loaded");
    press(&mut app, KeyCode::End);
    press(&mut app, KeyCode::Enter);
    assert_eq!(opened_list(&app).1, [None, None], "none, and a number");
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Home);
    press(&mut app, KeyCode::Enter);
    assert_eq!(opened_list(&app).1, [Some("")], "the empty status alone");
}

#[test]
fn the_cursor_stays_on_the_bars_and_enter_on_nothing_says_so() {
    let mut empty = Overview::new(Arc::new(LoadedSummary::default()));
    assert_eq!(selected_name(&empty), None);
    assert!(empty.selected_open().is_none());
    empty.step(crate::app::action::Move::Down);
    assert_eq!(empty.selected(OverviewPart::Types), 0);
    let (mut app, _) = loaded();
    key(&mut app, '4');
    for _ in 0..5 {
        key(&mut app, 'j');
    }
    assert_eq!(overview(&app).selected(OverviewPart::Types), 1, "two bars");
    key(&mut app, 'k');
    assert_eq!(overview(&app).selected(OverviewPart::Types), 0);
}

#[test]
fn the_histogram_spreads_the_hours_over_the_columns() {
    let mut summary = LoadedSummary::default();
    // Hours 0, 1 and 3 of a day: 1, 2 and 4 rows.
    for (hour, n) in [(0, 1), (1, 2), (3, 4)] {
        summary.updated_by_hour.insert(hour * 3600, n);
    }
    let overview = Overview::new(Arc::new(summary));
    let histogram = overview.histogram(4).unwrap();
    assert_eq!((histogram.first, histogram.last), (0, 3 * 3600));
    assert_eq!(histogram.buckets, [1, 2, 0, 4], "one column an hour");
    assert_eq!((histogram.hours_per_bucket, histogram.most()), (1, 4));
    let histogram = overview.histogram(2).unwrap();
    assert_eq!(histogram.buckets, [3, 4], "two hours a column");
    assert_eq!(histogram.hours_per_bucket, 2);
    assert!(Overview::default().histogram(10).is_none());
}

/// Issue 35 item 14: a bucket spans a whole number of hours, the same for all (the old
/// buckets were a fraction of the span each, so no width could be said): 5 hours in 3
/// columns are 3 buckets of 2 hours, the last one half used.
#[test]
fn the_histogram_buckets_whole_hours() {
    let mut summary = LoadedSummary::default();
    for (hour, n) in [(0, 1), (1, 1), (2, 5), (4, 2)] {
        summary.updated_by_hour.insert(hour * 3600, n);
    }
    let histogram = Overview::new(Arc::new(summary)).histogram(3).unwrap();
    assert_eq!(histogram.hours_per_bucket, 2);
    assert_eq!(histogram.buckets, [2, 5, 2]);
    let mut long = LoadedSummary::default();
    long.updated_by_hour.insert(0, 1);
    long.updated_by_hour.insert(99 * 3600, 1);
    let histogram = Overview::new(Arc::new(long)).histogram(40).unwrap();
    assert_eq!(
        (histogram.hours_per_bucket, histogram.buckets.len()),
        (3, 34)
    );
}

#[test]
fn the_histogram_follows_new_counts_and_a_new_width() {
    let day = |hours: &[i64]| {
        let mut summary = LoadedSummary::default();
        for hour in hours {
            summary.updated_by_hour.insert(hour * 3600, 1);
        }
        Arc::new(summary)
    };
    let mut overview = Overview::new(day(&[0, 3]));
    assert_eq!(overview.histogram(4).unwrap().buckets, [1, 0, 0, 1]);
    assert_eq!(
        overview.histogram(2).unwrap().buckets,
        [1, 1],
        "a new width"
    );
    overview.summary = day(&[0, 1, 3]);
    assert_eq!(overview.histogram(2).unwrap().buckets, [2, 1], "new counts");
    assert_eq!(
        overview.histogram(2).unwrap().buckets,
        [2, 1],
        "asked again"
    );
}

/// Issue 20 item 8: the header said "1 rows loaded".
#[test]
fn the_header_counts_one_row_in_the_singular() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    let first = list_request(&commands).expect("the first page is asked for");
    answer(&mut app, first, page(0, 1, None));
    key(&mut app, '4');
    let screen =
        crate::app::harness::draw(&app, &crate::ui::theme::Theme::COLOR, chrono::Utc::now());
    let header = (0..6)
        .map(|y| crate::app::harness::line(&screen, y))
        .collect::<Vec<_>>();
    let header = header.join("\n");
    assert!(header.contains("Overview · 1 row loaded ·"), "{header}");
}

/// A tester's finding: rows without a readable type (an item that is not an object, a type
/// that is not a string) were left out of the type chart (306 rows loaded, 300 counted).
#[test]
fn rows_without_a_type_have_a_bar_of_their_own_that_lists_them() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    let first = list_request(&commands).expect("the first page is asked for");
    let rows = json!({"resources": [
        {"id": "a", "type": "repo", "status": "active"},
        "not a resource",
        {"id": "b", "type": "repo"},
        {"id": "c", "type": 7, "status": "active"},
    ]});
    answer(&mut app, first, ListResponse::from_value(rows).unwrap());
    key(&mut app, '4');
    let bars = overview(&app).bars(OverviewPart::Types);
    assert_eq!(
        names(bars.clone()),
        [("repo".to_owned(), 2), ("(none)".to_owned(), 2)]
    );
    let counted: usize = bars.iter().map(|b| b.rows).sum();
    assert_eq!(
        counted,
        overview(&app).summary.rows,
        "the bars add up to the rows loaded"
    );
    press(&mut app, KeyCode::End);
    let commands = press(&mut app, KeyCode::Enter);
    assert_eq!(
        list_request(&commands),
        None,
        "the service is not asked again"
    );
    assert_eq!(
        opened_list(&app).1,
        [None, Some("active")],
        "the two rows without a type"
    );
}

/// Types each row of `types` (ids `t0`, `t1`...), as one page with no more.
fn page_of_types(types: &[&str]) -> ListResponse {
    let rows: Vec<Value> = (types.iter().enumerate())
        .map(|(i, t)| json!({"id": format!("t{i}"), "type": t, "status": "active"}))
        .collect();
    ListResponse::from_value(json!({"resources": rows, "next": null})).unwrap()
}

/// A tester's finding: after `:type alpha`, the type chart still listed `beta 0` from the
/// listing before, and `Enter` on it opened a list no page could fill.
#[test]
fn the_type_chart_has_only_the_types_of_the_rows_loaded() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    let first = list_request(&commands).expect("the first page is asked for");
    answer(&mut app, first, page_of_types(&["alpha", "beta"]));
    key(&mut app, ':');
    type_text(&mut app, "type alpha");
    let commands = press(&mut app, KeyCode::Enter);
    let alpha = list_request(&commands).expect("the type's first page");
    answer(&mut app, alpha, page_of_types(&["alpha"]));
    key(&mut app, '4');
    assert_eq!(
        names(overview(&app).bars(OverviewPart::Types)),
        [("alpha".to_owned(), 1)]
    );
}

/// A tester's finding: after `:profile`, the overview and the types view listed the other
/// service's types at 0.
#[test]
fn a_new_service_forgets_the_types_seen_in_the_other() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    app.profiles = vec!["other".into()];
    let first = list_request(&commands).expect("the first page is asked for");
    answer(&mut app, first, page_of_types(&["alpha", "beta"]));
    key(&mut app, ':');
    type_text(&mut app, "profile other");
    press(&mut app, KeyCode::Enter);
    let switched = crate::app::ProfileSwitch {
        session: Session::default(),
        base_url: "http://other.example".into(),
        read_only: None,
    };
    let commands = app.update(Action::reply(
        RequestId(1),
        crate::app::Delivery::ProfileSwitched(Ok(Box::new(switched))),
    ));
    let reload = list_request(&commands).expect("the list reloads");
    assert!(
        app.browser.summary().per_type.is_empty(),
        "before the new service's first page: {:?}",
        app.browser.summary().per_type
    );
    answer(&mut app, reload, page_of_types(&["gamma"]));
    let counts = app.browser.summary().per_type.clone();
    assert_eq!(
        counts.into_iter().collect::<Vec<_>>(),
        [("gamma".to_owned(), 1)]
    );
    assert!(
        app.browser.types_seen().iter().eq(["gamma"]),
        "nor does :type offer them"
    );
}

/// Answers every page request of `commands` and of the answers, `page_at` giving each cursor's
/// page (`None`: the first): the requests answered.
fn serve_pages(
    app: &mut App,
    commands: Vec<Command>,
    page_at: impl Fn(Option<&str>) -> ListResponse,
) -> usize {
    let mut asked: Vec<(RequestId, Option<String>)> = requests_of(&commands);
    let mut served = 0;
    while let Some((id, next)) = asked.pop() {
        let more = answer(app, id, page_at(next.as_deref()));
        served += 1;
        asked.extend(requests_of(&more));
    }
    served
}

fn requests_of(commands: &[Command]) -> Vec<(RequestId, Option<String>)> {
    (commands.iter())
        .filter_map(|c| match c {
            Command::Api { id, call } => Some((*id, call.as_list_request()?.next)),
            _ => None,
        })
        .collect()
}

/// The pages after the first: `c2` brings 3 rows and `c3`, `c3` the last 3.
fn later_page(next: Option<&str>) -> ListResponse {
    match next {
        Some("c2") => page(6, 3, Some("c3")),
        Some("c3") => page(9, 3, None),
        other => panic!("no page at {other:?}"),
    }
}

/// The tester's report: `L` in the list of one status opened from the overview loaded every
/// page, and `Esc` back to the overview lost them: it still counted the rows of before.
#[test]
fn l_in_a_status_list_loads_the_rows_the_overview_counts_after_esc() {
    let (mut app, next) = loaded();
    key(&mut app, '4');
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    assert_eq!(opened_list(&app).1.len(), 4, "the active rows of the 6");
    let all = key(&mut app, 'L');
    serve_pages(&mut app, all, later_page);
    assert_eq!(opened_list(&app).1.len(), 8, "the active rows of the 12");
    press(&mut app, KeyCode::Esc);
    let shown = overview(&app);
    assert_eq!(shown.summary.rows, 12, "the rows L loaded are counted");
    assert!(!shown.summary.more);
    assert_eq!(app.browser.rows().len(), 12, "and listed");
    answer(&mut app, next, page(6, 3, Some("c3")));
    assert_eq!(
        app.browser.rows().len(),
        12,
        "the list's late page is not taken twice"
    );
}

/// `L` in the list of the first status opened from the overview (`4`, `Tab`, `Enter`), its
/// first page answered: the app, and what that answer asked for next.
fn l_in_a_status_list_one_page_in() -> (App, Vec<Command>) {
    let (mut app, _) = loaded();
    key(&mut app, '4');
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    let all = key(&mut app, 'L');
    let (id, next) = requests_of(&all).pop().expect("the next page");
    let more = answer(&mut app, id, later_page(next.as_deref()));
    (app, more)
}

/// `Esc` while `L` loads in a status list stops it and says so; the pages it took stay, and
/// the overview counts them once back, the list's `r` going on from where it stopped.
#[test]
fn esc_stops_l_in_a_status_list_and_keeps_the_pages_it_took() {
    let (mut app, more) = l_in_a_status_list_one_page_in();
    assert!(!requests_of(&more).is_empty(), "the last page is asked for");
    press(&mut app, KeyCode::Esc);
    assert_eq!(
        crate::app::harness::status(&app),
        "load cancelled; r resumes"
    );
    press(&mut app, KeyCode::Esc);
    assert_eq!(overview(&app).summary.rows, 9, "the page L took is counted");
    press(&mut app, KeyCode::Esc);
    let resumed = key(&mut app, 'r');
    assert_eq!(
        requests_of(&resumed)
            .iter()
            .map(|(_, c)| c.as_deref())
            .collect::<Vec<_>>(),
        [Some("c3")],
        "the list goes on from the page L stopped at"
    );
}

/// A status list closed another way than `Esc` (`4` back to the overview) while `L` loads:
/// the load goes on in the resource list, and the overview's counts grow as pages arrive.
#[test]
fn l_left_running_in_a_status_list_goes_on_and_the_overview_counts_its_pages() {
    let (mut app, _) = l_in_a_status_list_one_page_in();
    let back = key(&mut app, '4');
    assert_eq!(overview(&app).summary.rows, 9);
    assert!(app.browser.loading_all(), "L goes on in the resource list");
    serve_pages(&mut app, back, later_page);
    assert_eq!(
        overview(&app).summary.rows,
        12,
        "its pages are counted as they come"
    );
    assert!(!overview(&app).summary.more);
}
