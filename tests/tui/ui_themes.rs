//! The built-in themes, a `[theme]` table from a config file, and `NO_COLOR`, on the same
//! screens: the words never change, the colours of each role do, and without colour the
//! selection and the focus still show. The cells of `TestBackend` carry their styles.

use appdeck_core::api::{Exchange, ListResponse, Reply};
use appdeck_core::config::ConfigText;
use appdeck_tui::harness::{line, press};
use appdeck_tui::ui_settings;
use appdeck_tui::{Action, App, Command, Session};
use appdeck_tui::{Palette, Role, Theme};
use chrono::{DateTime, Utc};
use crossterm::event::KeyCode;
use ratatui::backend::TestBackend;
use ratatui::buffer::Cell;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use serde_json::json;

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-21T12:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// Three resources at 100x24, the second one selected.
fn listing() -> App {
    let (mut app, commands) = App::new(
        Session {
            origin: "themes".into(),
            host: "127.0.0.1:8080".into(),
            warnings: Vec::new(),
        },
        Rect::new(0, 0, 100, 24),
        None,
    );
    let id = commands
        .iter()
        .find_map(Command::request_id)
        .expect("first page");
    let rows: Vec<_> = (0..3)
        .map(|i| {
            json!({"id": format!("res_{i}"), "type": "repository",
                   "display_name": format!("repo {i}"), "status": "active",
                   "updated_at": "2026-11-20T09:30:00Z",
                   "properties": {"name": "a string", "stars": 42, "archived": false}})
        })
        .collect();
    let page = ListResponse::from_value(json!({"resources": rows, "next": null})).unwrap();
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    press(&mut app, KeyCode::Down);
    app
}

/// The resource open, its properties tree focused.
fn detail() -> App {
    let mut app = listing();
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Tab);
    app
}

fn draw(app: &App, theme: &Theme) -> TestBackend {
    appdeck_tui::harness::draw(app, theme, now())
}

/// The theme a config file with `text` gives.
fn configured(text: &str) -> Theme {
    let config = ConfigText {
        path: "/home/u/.config/appdeck/config.toml".into(),
        text: text.to_owned(),
        shared: false,
    };
    let settings = ui_settings(Some(&config)).expect("a valid theme");
    Theme::chosen(&settings.theme, None)
}

/// The cells of the first line holding `text`, from where it starts.
fn cells_of<'a>(screen: &'a TestBackend, text: &str) -> Vec<&'a Cell> {
    let buffer = screen.buffer();
    for y in 0..buffer.area.height {
        let row = line(screen, y);
        if let Some(at) = row.find(text) {
            let x = row[..at].chars().count() as u16;
            return (x..x + text.chars().count() as u16)
                .map(|x| &buffer[(x, y)])
                .collect();
        }
    }
    panic!("{text:?} is not on screen:\n{}", screen);
}

/// The row of the list marked selected.
fn selected_row(screen: &TestBackend) -> Vec<&Cell> {
    let buffer = screen.buffer();
    let y = (0..buffer.area.height)
        .find(|y| buffer[(1, *y)].symbol() == "▶")
        .expect("a selected row");
    (1..buffer.area.width - 1)
        .map(|x| &buffer[(x, y)])
        .collect()
}

#[test]
fn dark_light_and_no_color_draw_the_same_words_in_their_own_colours() {
    let themes = [
        ("dark", configured("theme = \"dark\"")),
        ("light", configured("theme = \"light\"")),
        ("no_color", Theme::MONOCHROME),
    ];
    assert_eq!(themes[0].1, Theme::COLOR, "dark is appdeck's default");
    for (name, app) in [("list", listing()), ("detail", detail())] {
        let dark = draw(&app, &themes[0].1);
        for (theme_name, theme) in &themes {
            let screen = draw(&app, theme);
            assert_eq!(
                screen.to_string(),
                dark.to_string(),
                "{theme_name}: a theme changes no words"
            );
        }
        insta::assert_snapshot!(format!("themes_{name}_100x24"), dark.to_string());
    }

    let list = listing();
    for (theme_name, theme) in &themes[..2] {
        let palette = theme.palette;
        let screen = draw(&list, theme);
        for cell in selected_row(&screen) {
            assert_eq!(
                (cell.fg, cell.bg),
                (
                    palette.get(Role::SelectionText),
                    palette.get(Role::Selection)
                ),
                "{theme_name}: {cell:?}"
            );
        }
        let status = &screen.buffer()[(0, 0)];
        assert_eq!(status.bg, palette.get(Role::StatusBar), "{theme_name}");
        let header = cells_of(&screen, "TYPE")[0];
        assert_eq!(header.fg, palette.get(Role::Header), "{theme_name}");
    }
    let light = draw(&list, &themes[1].1);
    assert_eq!(light.buffer()[(0, 0)].bg, Color::Indexed(254));
    assert_eq!(
        light.buffer()[(10, 0)].fg,
        Color::Black,
        "dark text on the light bar"
    );

    let open = detail();
    for (theme_name, theme) in &themes[..2] {
        let screen = draw(&open, theme);
        // The tree's lines below the selected one keep the colours of their JSON types.
        let boolean = cells_of(&screen, "false")[0];
        assert_eq!(boolean.fg, theme.colour(Role::Bool), "{theme_name}");
        let number = cells_of(&screen, "42")[0];
        assert_eq!(number.fg, theme.colour(Role::Number), "{theme_name}");
    }
    assert_ne!(
        Palette::DARK.get(Role::Bool),
        Palette::LIGHT.get(Role::Bool)
    );
}

#[test]
fn theme_colours_override_roles_as_names_hex_and_indexes() {
    let theme = configured(
        "[theme]\nname = \"light\"\nselection = \"#112233\"\nselection_text = \"yellow\"\nheader = 99\n",
    );
    let screen = draw(&listing(), &theme);
    for cell in selected_row(&screen) {
        assert_eq!(
            (cell.fg, cell.bg),
            (Color::Yellow, Color::Rgb(0x11, 0x22, 0x33)),
            "{cell:?}"
        );
    }
    assert_eq!(cells_of(&screen, "TYPE")[0].fg, Color::Indexed(99));
    // The rest is the light theme.
    assert_eq!(screen.buffer()[(0, 0)].bg, Color::Indexed(254));
}

#[test]
fn no_color_wins_over_the_theme_and_keeps_selection_and_focus_visible() {
    let choice = ui_settings(Some(&ConfigText {
        path: "config.toml".into(),
        text: "[theme]\nname = \"light\"\nselection = \"red\"\n".to_owned(),
        shared: false,
    }))
    .unwrap()
    .theme;
    let theme = Theme::chosen(&choice, Some(std::ffi::OsStr::new("1")));
    assert_eq!(theme, Theme::MONOCHROME);
    for app in [listing(), detail()] {
        let screen = draw(&app, &theme);
        for cell in screen.buffer().content() {
            assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset), "{cell:?}");
        }
    }
    let list = draw(&listing(), &theme);
    for cell in selected_row(&list) {
        assert!(cell.modifier.contains(Modifier::REVERSED), "{cell:?}");
    }
    let open = draw(&detail(), &theme);
    let text = open.to_string();
    assert!(
        text.contains('┏'),
        "the focused pane has a thick border:\n{text}"
    );
    // The focused tree's selected line: reverse video (the unfocused fields pane's is bold).
    let marker = cells_of(&open, "┃▶")[1];
    assert!(marker.modifier.contains(Modifier::REVERSED), "{marker:?}");
}
