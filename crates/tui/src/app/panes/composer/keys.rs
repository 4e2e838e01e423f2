//! The keys every composer has, worded by its kind: the writing keys (`Enter`, `i`, undo, the
//! review, `$EDITOR`, `D`, the findings, `Esc`) and the tables of the review, the send in flight
//! and the answer. A kind's own keys go between them in its table (`panes/*/keys.rs`).

use crossterm::event::KeyCode;

use crate::app::keymap::{Binding, Key, KeyTable, PANE_SHARED, bind};
use crate::app::{Action, Toward};

use Key::{Char, Code, Ctrl};

/// What a kind's writing keys say in the help (and `Enter`, in the footer).
pub(crate) struct WritingHelp {
    pub open: &'static str,
    pub open_footer: &'static str,
    pub edit: &'static str,
    pub undo: &'static str,
    pub redo: &'static str,
    pub review: &'static str,
    pub edit_externally: &'static str,
    pub discard_draft: &'static str,
    pub back: &'static str,
}

/// The writing keys every kind has; its table lists them in this order, its own among them.
pub(crate) struct Writing {
    pub open: Binding,
    pub edit: Binding,
    pub undo: Binding,
    pub redo: Binding,
    pub review: Binding,
    pub ext: Binding,
    pub discard: Binding,
    pub next: Binding,
    pub prev: Binding,
    pub back: Binding,
}

/// The writing keys (`Enter`, `i`, undo, redo, the review, `$EDITOR`, `D`, `n`, `N`, `Esc`),
/// worded by `help`.
pub(crate) const fn writing(help: WritingHelp) -> Writing {
    Writing {
        open: bind(
            "open",
            &[Code(KeyCode::Enter)],
            help.open,
            || Action::Open,
            help.open_footer,
        ),
        edit: bind("edit", &[Char('i')], help.edit, || Action::StartEdit, ""),
        undo: bind(
            "undo",
            &[Char('u')],
            help.undo,
            || Action::Undo(Toward::Previous),
            "",
        ),
        redo: bind(
            "redo",
            &[Ctrl('r')],
            help.redo,
            || Action::Undo(Toward::Next),
            "",
        ),
        review: bind(
            "review",
            &[Char('s'), Ctrl('s')],
            help.review,
            || Action::Review,
            "send",
        ),
        // Not in the footer: at 80 columns it would push `q quit` out.
        ext: bind(
            "edit_externally",
            &[Char('e')],
            help.edit_externally,
            || Action::EditExternally,
            "",
        ),
        discard: bind(
            "discard_draft",
            &[Char('D')],
            help.discard_draft,
            || Action::DiscardDraft,
            "",
        ),
        next: bind(
            "next_match",
            &[Char('n')],
            "go to the next finding",
            || Action::Match(Toward::Next),
            "",
        ),
        prev: bind(
            "prev_match",
            &[Char('N')],
            "go to the previous finding",
            || Action::Match(Toward::Previous),
            "",
        ),
        back: back(help.back, "back"),
    }
}

/// `Esc`: back, or out of what is under way, as `help` says.
pub(crate) const fn back(help: &'static str, footer: &'static str) -> Binding {
    let keys = &[Code(KeyCode::Esc)];
    bind("back", keys, help, || Action::Back, footer)
}

/// A kind's table of `own` keys, with the keys every pane has.
pub(crate) const fn table(
    id: &'static str,
    name: &'static str,
    own: &'static [Binding],
) -> KeyTable {
    KeyTable {
        id,
        name,
        own,
        shared: &PANE_SHARED,
    }
}

/// The key tables of the review (`REVIEW_KEYS`), the send in flight (`SENDING_KEYS`) and the
/// answer (`ANSWER_KEYS`), ids and names made of the kind's table prefix and noun, and with the
/// kind's `$writing` table, its `Kind::KEYS` (`PHASES`).
macro_rules! phase_tables {
    ($prefix:literal, $noun:literal, $send_help:literal, $writing:ident) => {
        pub(crate) const PHASES: $crate::app::panes::composer::PhaseKeys =
            $crate::app::panes::composer::PhaseKeys {
                writing: &$writing,
                review: &REVIEW_KEYS,
                sending: &SENDING_KEYS,
                answer: &ANSWER_KEYS,
            };

        static REVIEWING: [$crate::app::keymap::Binding; 3] =
            $crate::app::widgets::send_flow::reviewing($send_help);

        pub(crate) static REVIEW_KEYS: $crate::app::keymap::KeyTable =
            $crate::app::panes::composer::keys::table(
                concat!($prefix, "_review"),
                concat!($noun, " review"),
                &REVIEWING,
            );

        pub(crate) static SENDING_KEYS: $crate::app::keymap::KeyTable =
            $crate::app::keymap::KeyTable {
                id: concat!($prefix, "_sending"),
                name: concat!($noun, " in flight"),
                own: &$crate::app::widgets::send_flow::SENDING,
                shared: &[&$crate::app::keymap::GLOBAL, &$crate::app::keymap::ANYWHERE],
            };

        pub(crate) static ANSWER_KEYS: $crate::app::keymap::KeyTable =
            $crate::app::keymap::KeyTable {
                id: concat!($prefix, "_answer"),
                name: concat!($noun, " answer"),
                own: &$crate::app::widgets::send_flow::ANSWERED,
                shared: &[&$crate::app::keymap::GLOBAL, &$crate::app::keymap::ANYWHERE],
            };
    };
}
pub(crate) use phase_tables;
