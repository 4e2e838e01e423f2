//! The report composer's keys: the composer's (`panes/composer/keys.rs`) worded for a report,
//! with `Space` on the status and `f` among them, and the keys while the report `$EDITOR` left is
//! not JSON. Movement and global keys come from `keymap.rs`; while a field is being edited the
//! keymap's line or editor input table applies instead.

use crate::app::Action;
use crate::app::keymap::{Binding, Key, KeyTable, bind};
use crate::app::panes::composer::keys::{WritingHelp, back, phase_tables, table, writing};
use crate::app::widgets::send_many;

use Key::Char;

const HELP: WritingHelp = WritingHelp {
    open: "edit the field (on a finding: go to it)",
    open_footer: "edit",
    edit: "edit the field",
    undo: "undo in the resource",
    redo: "redo in the resource",
    review: "review the request, then send",
    edit_externally: "edit the whole report in $VISUAL / $EDITOR",
    discard_draft: "discard the restored draft, start again from the resource",
    back: "back to where the report was opened",
};

static WRITING: [Binding; 12] = {
    let w = writing(HELP);
    let toggle = bind(
        "toggle_status",
        &[Char(' ')],
        "toggle status ok / error",
        || Action::Toggle,
        "status",
    );
    let fill = bind(
        "fill",
        &[Char('f')],
        "fill the properties the type requires",
        || Action::Fill,
        "fill",
    );
    [
        w.open, w.edit, toggle, w.undo, w.redo, fill, w.review, w.ext, w.discard, w.next, w.prev,
        w.back,
    ]
};

pub(crate) static COMPOSER_KEYS: KeyTable = table("composer", "report composer", &WRITING);

static UNPARSED: [Binding; 3] = [
    bind(
        "edit_externally",
        &[Char('e')],
        "edit the text again in $VISUAL / $EDITOR",
        || Action::EditExternally,
        "editor",
    ),
    bind(
        "drop_edited",
        &[Char('X')],
        "drop the edited text, back to the report as it was",
        || Action::DropEdited,
        "drop",
    ),
    back(
        "back to where the report was opened (the text is kept in the draft)",
        "back",
    ),
];

/// While the report the external editor left is not JSON.
pub(crate) static UNPARSED_KEYS: KeyTable =
    table("composer_unparsed", "edited report (not JSON)", &UNPARSED);

phase_tables!("composer", "report", "send the report", COMPOSER_KEYS);

static MARKED_REVIEWING: [Binding; 3] =
    crate::app::widgets::send_flow::reviewing("send the report to each marked resource");

/// The review of a report over marked rows (`R` with rows marked): `Enter` sends one to each.
pub(crate) static MARKED_REVIEW_KEYS: KeyTable = table(
    "composer_marked_review",
    "review of a report to the marked resources",
    &MARKED_REVIEWING,
);

/// While a report over marked rows goes to each resource.
pub(crate) static MARKED_SENDING_KEYS: KeyTable = table(
    "composer_marked_sending",
    "reports to the marked resources in flight",
    &send_many::SENDING,
);

static MARKED_RESULTS: [Binding; 2] = send_many::results(
    "back to the list (the failures stay marked)",
    "copy the ids of the resources whose report was not accepted, one a line",
);

/// The results of a report over marked rows, a row a resource.
pub(crate) static MARKED_RESULTS_KEYS: KeyTable = table(
    "composer_marked_results",
    "results of the reports to the marked resources",
    &MARKED_RESULTS,
);

#[cfg(test)]
mod tests {
    use crate::app::keymap::assert_well_formed;

    #[test]
    fn well_formed() {
        for table in [
            &super::COMPOSER_KEYS,
            &super::UNPARSED_KEYS,
            &super::REVIEW_KEYS,
            &super::SENDING_KEYS,
            &super::ANSWER_KEYS,
            &super::MARKED_REVIEW_KEYS,
            &super::MARKED_SENDING_KEYS,
            &super::MARKED_RESULTS_KEYS,
        ] {
            assert_well_formed(table);
        }
    }
}
