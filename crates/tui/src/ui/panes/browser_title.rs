//! The list's title: what is listed (type, status, `:where`, sort), how many rows, and under
//! `:watch` that the list is live and when it last looked. When the border is short on room
//! the parts that say the least give way first, so that the counts and the watch segment stay
//! whole (issue 22 item 5: a long `:where` pushed "watching" off the border).

use std::time::Instant;

use chrono::{DateTime, Utc};
use unicode_width::UnicodeWidthStr;

use crate::app::Loadable;
use crate::app::panes::browser::kept::age_words;
use crate::app::panes::browser::watch::Watch;
use crate::app::panes::browser::{Browser, More};
use crate::sanitize;
use crate::text::{count, fit};
use appdeck_listing::SortSpec;

/// A `:where` longer than this is cut in the title even with room to spare (the notice said
/// it whole).
const WHERE_IN_TITLE: usize = 40;

/// The narrowest a cut free text gets (with its `…`): enough to tell two apart.
const FREE_TEXT_MIN: usize = 8;

/// The title in `room` columns if it can (`clock`: the wall-clock time now and the monotonic
/// time it stands for, to say when the watch last looked). Each [`Form`] gives up more than
/// the one before; the first that fits is the title. On a screen too narrow for even the last,
/// the last is cut at its start (`…`), so that its end, the counts and the watch, stays (issue
/// 35: the border cut the end, and at 50 columns the counts and the watch were gone).
pub(super) fn title(browser: &Browser, clock: (DateTime<Utc>, Instant), room: usize) -> String {
    let parts = Parts::of(browser, clock);
    let steps = Form::STEPS.iter().map(|&form| parts.compose(form, room));
    let mut last = String::new();
    for text in steps {
        if text.width() <= room {
            return text;
        }
        last = text;
    }
    keep_end(&last, room)
}

/// The end of `text` in `room` columns, after a `…` when its start was cut.
fn keep_end(text: &str, room: usize) -> String {
    if text.width() <= room || room == 0 {
        return text.to_owned();
    }
    let mut kept = Vec::new();
    let mut used = 1;
    for c in text.chars().rev() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        kept.push(c);
    }
    std::iter::once('…').chain(kept.into_iter().rev()).collect()
}

/// How much a title gives up to fit, each of [`Form::STEPS`] more than the one before.
#[derive(Clone, Copy)]
struct Form {
    /// The watch segment in words (`watching every 5s · … · looked 14:02:31`), else short
    /// (`watching 5s · … · 14:02:31`).
    watch_words: bool,
    /// When the watch last looked; the last to go: what the looks found matters more.
    watch_time: bool,
    sort: SortSaid,
    /// `all types` when no type is picked (it says only that nothing is).
    all_types: bool,
    /// The `Resources` the title starts with (the list is the only one with counts).
    label: bool,
    /// `42 of 62 loaded` for `42 match · 62 loaded`.
    short_counts: bool,
    /// How many rows the `:where` failed on (`(failed on 3)`), before the `:where` is cut to
    /// its first character for it.
    where_failed: bool,
    /// Cut the free texts (`:where`, the type and status names) by what the title is over its
    /// room, none narrower than this (with its `…`); `None`: not cut.
    cut_to: Option<usize>,
    /// The free texts at all (the status bar and `:where` alone still say them).
    free_texts: bool,
    /// Whether more can be loaded (`L loads all`, `all loaded`).
    more: bool,
}

/// How the title says the sort.
#[derive(Clone, Copy)]
enum SortSaid {
    /// `by name ▲ ascending`
    Words,
    /// `by name ▲`
    Arrow,
    /// Not at all: the sorted column's title has the arrow.
    Not,
}

impl Form {
    const WHOLE: Form = Form {
        watch_words: true,
        watch_time: true,
        sort: SortSaid::Words,
        all_types: true,
        label: true,
        short_counts: false,
        where_failed: true,
        cut_to: None,
        free_texts: true,
        more: true,
    };
    const STEPS: [Form; 12] = {
        let mut steps = [Form::WHOLE; 12];
        let mut i = 1;
        while i < steps.len() {
            let mut form = steps[i - 1];
            match i {
                1 => form.watch_words = false,
                2 => form.sort = SortSaid::Arrow,
                3 => form.all_types = false,
                4 => form.cut_to = Some(FREE_TEXT_MIN),
                5 => {
                    form.sort = SortSaid::Not;
                    form.label = false;
                }
                6 => form.short_counts = true,
                7 => form.where_failed = false,
                8 => form.cut_to = Some(1),
                9 => form.free_texts = false,
                10 => form.more = false,
                _ => form.watch_time = false,
            }
            steps[i] = form;
            i += 1;
        }
        steps
    };
}

/// What the title says, sanitised, before it is fitted.
struct Parts<'a> {
    type_: Option<String>,
    status: Option<String>,
    where_: Option<String>,
    /// How many rows the `:where` failed on (left out): said once in the status bar, kept
    /// here (tester's LOW 6: each look of `:watch` said it again over any other message).
    where_failed: usize,
    /// The sort, and what `:sort` calls its column (an added one by its path).
    sort: Option<(SortSpec, String)>,
    counts: Counts,
    watch: Option<&'a Watch>,
    /// How many rows are marked with `Space`, how many of them a look found gone (`y`,
    /// `:export` and `R` leave those out) and how many the filters hide (taken all the same):
    /// read over the marks, kept as the rows shown change (`Picks::apart`), not over the rows.
    picked: (usize, appdeck_listing::MarkedApart),
    /// With no watch (whose failure says it), that the last reload failed.
    not_refreshed: bool,
    /// When the watch last looked (UTC, as the list's times).
    looked: Option<String>,
}

/// How many rows there are: never cut.
enum Counts {
    /// `42 match` (under a filter), `62 loaded`, and whether there are more.
    Loaded {
        matching: Matching,
        loaded: usize,
        /// `loaded`, or `kept 3 h ago` for rows the store kept from the last run.
        noun: String,
        more: &'static str,
    },
    Loading,
    /// Nothing to count (not loaded, or the load failed).
    None,
}

impl<'a> Parts<'a> {
    fn of(browser: &'a Browser, (now, at): (DateTime<Utc>, Instant)) -> Self {
        let looked = (browser.watch.as_ref().and_then(|w| w.looked)).map(|looked| {
            let ago = chrono::Duration::from_std(at.saturating_duration_since(looked))
                .unwrap_or_default();
            (now - ago).format("%H:%M:%S").to_string()
        });
        Parts {
            type_: (browser.query.type_shown.as_ref().map(|t| t.label()))
                .or(browser.type_filter.as_deref())
                .map(|t| sanitize::line(t).into_owned()),
            status: (browser.query.status.as_ref()).map(|s| sanitize::line(s.label()).into_owned()),
            where_: (browser.query.where_.as_ref()).map(|w| {
                fit(&sanitize::line(&w.expr), WHERE_IN_TITLE)
                    .trim_end()
                    .to_owned()
            }),
            where_failed: (browser.query.where_.as_ref()).map_or(0, |w| w.narrowing.failed_rows()),
            sort: (browser.sorting.spec).map(|s| {
                let name = sanitize::line(&browser.columns.name(s.column)).into_owned();
                (s, name)
            }),
            counts: Counts::of(browser, at),
            watch: browser.watch.as_ref(),
            picked: (
                browser.picked.len(),
                (browser.listing.loaded())
                    .map(|_| browser.picked.apart(browser.watch.as_ref()))
                    .unwrap_or_default(),
            ),
            not_refreshed: browser.not_refreshed.is_some() && browser.watch.is_none(),
            looked,
        }
    }

    /// The title in `form`; with `form.cut_to`, the free texts cut (the `:where` first, then
    /// the type, then the status) by what the whole title is over `room`.
    fn compose(&self, form: Form, room: usize) -> String {
        let mut widths = [&self.where_, &self.type_, &self.status]
            .map(|text| text.as_deref().map_or(0, UnicodeWidthStr::width));
        if let Some(narrowest) = form.cut_to {
            let mut over = self.compose_in(form, widths).width().saturating_sub(room);
            for width in &mut widths {
                let give = over.min(width.saturating_sub(narrowest));
                *width -= give;
                over -= give;
            }
        }
        self.compose_in(form, widths)
    }

    /// The title in `form` with the `:where`, type and status cut to `widths`.
    fn compose_in(&self, form: Form, [where_, type_, status]: [usize; 3]) -> String {
        let mut said = Vec::new();
        if form.label {
            said.push("Resources".to_owned());
        }
        match &self.type_ {
            Some(t) if form.free_texts => said.push(format!("type {}", fit(t, type_))),
            None if form.all_types => said.push("all types".to_owned()),
            _ => {}
        }
        if let Some(s) = self.status.as_ref().filter(|_| form.free_texts) {
            said.push(format!("status {}", fit(s, status)));
        }
        if let Some(expr) = self.where_.as_ref().filter(|_| form.free_texts) {
            said.push(match self.where_failed {
                n if n == 0 || !form.where_failed => format!("where {}", fit(expr, where_)),
                n => format!("where {} (failed on {})", fit(expr, where_), count(n)),
            });
        }
        match (&self.sort, form.sort) {
            (Some((spec, name)), SortSaid::Words) => {
                said.push(format!("by {}", spec.words_naming(name)))
            }
            (Some((spec, name)), SortSaid::Arrow) => {
                said.push(format!("by {name} {}", spec.arrow()))
            }
            (None, _) | (_, SortSaid::Not) => {}
        }
        said.extend(self.counts.said(form.short_counts, form.more));
        if self.picked.0 > 0 {
            let (marked, apart) = self.picked;
            let apart: Vec<String> = [(apart.gone, "gone"), (apart.hidden, "hidden")]
                .into_iter()
                .filter(|&(n, _)| n > 0)
                .map(|(n, what)| format!("{} {what}", count(n)))
                .collect();
            said.push(match apart.is_empty() {
                true => format!("{} marked", count(marked)),
                false => format!("{} marked ({})", count(marked), apart.join(", ")),
            });
        }
        if self.not_refreshed {
            said.push("not refreshed: r retries".to_owned());
        }
        let mut title = format!(" {} ", said.join(" · "));
        if let Some(watch) = self.watch {
            let time = self.looked.as_deref().filter(|_| form.watch_time);
            title.push_str(&watching(watch, time, form.watch_words));
        }
        title
    }
}

/// How many rows pass the filters, as far as the title can say.
#[derive(Clone, Copy)]
enum Matching {
    /// No filter: every row.
    All,
    /// How many rows pass, and how many of those a `:watch` look found gone (shown, struck
    /// through, but not counted as loaded: `60 match (2 gone) · 64 loaded`).
    Known(usize, usize),
    /// A `/` or `:where` whose job has not answered yet: the rows shown are still those of the
    /// query before, so their count is not this one's (`… match`; the status bar says how far
    /// it is).
    Pending,
}

impl Counts {
    fn of(browser: &Browser, at: Instant) -> Self {
        let filtered = !browser.filter.text().is_empty()
            || browser.query.status.is_some()
            || browser.query.type_shown.is_some()
            || browser.query.where_.is_some();
        let matching = match filtered {
            false => Matching::All,
            true if !browser.query.answered() => Matching::Pending,
            true => Matching::Known(
                browser.visible.len(),
                (browser.watch.as_ref())
                    .filter(|_| browser.gone_shown() > 0)
                    .map_or(0, |w| w.gone_among(browser.rows(), &browser.visible)),
            ),
        };
        let ago = |since| format!("{} ago", age_words(at.saturating_duration_since(since)));
        // A filter or a sort is only over the rows loaded: the title says the rest is a key away.
        let partial = filtered || browser.sorting.spec.is_some();
        match &browser.listing {
            // Kept rows say so, never cut: how long ago, and how the live page is doing.
            Loadable::Loaded(listing) if let Some(kept) = &browser.kept => Counts::Loaded {
                matching,
                loaded: listing.rows.len(),
                noun: match kept.too_large {
                    0 => format!("kept {}", ago(kept.since)),
                    n => format!("kept {}, {} too large to keep", ago(kept.since), count(n)),
                },
                more: kept.live.said(),
            },
            Loadable::Loaded(listing) => Counts::Loaded {
                matching,
                loaded: listing.rows.len() - browser.gone_shown(),
                noun: "loaded".to_owned(),
                more: match listing.more {
                    More::End => "all loaded",
                    More::Available(_) | More::Paused(_) if partial => "L loads all",
                    More::Available(_) | More::Paused(_) => "more available",
                    More::Loading { .. } if browser.loading_all => "loading all…",
                    More::Loading { .. } => "loading more…",
                    More::Failed { .. } => "more failed to load",
                    More::Fault(_) => "stopped: server fault",
                },
            },
            Loadable::Loading(_) => Counts::Loading,
            _ => Counts::None,
        }
    }

    /// `42 match`, `62 loaded`, `all loaded`; `short`: `42 of 62 loaded`, `all loaded`;
    /// without `more`, not whether more can be loaded.
    fn said(&self, short: bool, with_more: bool) -> Vec<String> {
        match self {
            Counts::Loaded {
                matching,
                loaded,
                noun,
                more,
            } => {
                let loaded = count(*loaded);
                // How many match, and of those how many are gone (` (2 gone)`).
                let matched = match *matching {
                    Matching::All => None,
                    Matching::Known(n, 0) => Some((count(n), String::new())),
                    Matching::Known(n, gone) => {
                        Some((count(n), format!(" ({} gone)", count(gone))))
                    }
                    Matching::Pending => Some(("…".to_owned(), String::new())),
                };
                let mut said = match matched {
                    Some((n, gone)) if short => vec![format!("{n}{gone} of {loaded} {noun}")],
                    Some((n, gone)) => vec![format!("{n} match{gone}"), format!("{loaded} {noun}")],
                    None => vec![format!("{loaded} {noun}")],
                };
                if with_more {
                    said.push((*more).to_owned());
                }
                said
            }
            Counts::Loading => vec!["loading…".to_owned()],
            Counts::None => Vec::new(),
        }
    }
}

/// The title's end under `:watch`: that the list is live, what the looks marked, why the last
/// look failed and when the next is, and when it last looked if `looked` is given. In words or
/// (`words` false) short: the marks by their symbols alone, a failed look without its reason
/// (the status bar said it).
fn watching(watch: &Watch, looked: Option<&str>, words: bool) -> String {
    let every = watch.every.as_secs();
    let mut parts = vec![if words {
        format!("watching every {every}s")
    } else {
        format!("watching {every}s")
    }];
    let marks: Vec<String> = (watch.counts().iter())
        .filter(|(_, n)| *n > 0)
        .map(|(mark, n)| {
            let symbol = mark.symbol();
            if words {
                format!("{symbol}{n} {}", mark.word())
            } else {
                format!("{symbol}{n}")
            }
        })
        .collect();
    if !marks.is_empty() {
        parts.push(marks.join(" "));
    }
    if let Some(why) = &watch.failure {
        let next = watch.delay.as_secs();
        parts.push(if words {
            format!("look failed: {}; next in {next}s", sanitize::line(why))
        } else {
            format!("look failed; next in {next}s")
        });
    }
    if let Some(time) = looked {
        parts.push(if words {
            format!("looked {time}")
        } else {
            time.to_owned()
        });
    }
    format!("· {} ", parts.join(" · "))
}
