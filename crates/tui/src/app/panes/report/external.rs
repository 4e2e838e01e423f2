//! `e`: the whole report in `$VISUAL` / `$EDITOR`. The composer only decides: the text to edit
//! goes out in `Command::EditExternally` (the runtime suspends the terminal and runs the
//! editor), and what comes back is read here. A result that is not JSON is kept as typed with its
//! syntax error ([`Unparsed`]), never thrown away.

use super::{Report, Unparsed};
use crate::app::panes::composer::Edited;

impl Report {
    /// The whole report as pretty JSON, as the external editor gets it: the resource laid out
    /// from its text, so its numbers and escapes are as written (a parsed value would give
    /// `1e+400` for `1E400` and a raw bidi override for `\u202e`). Text that is not JSON is
    /// edited as it is: the unparsed report itself, or the report laid out around a resource
    /// whose text is not JSON.
    pub(crate) fn report_text(&self) -> String {
        if let Some(unparsed) = &self.unparsed {
            return unparsed.text.clone();
        }
        let whole = self
            .as_read
            .pretty_around(self.typed(), &self.resource_text());
        crate::sanitize::json_for_terminal(&whole).into_owned()
    }

    /// Reads what the external editor left.
    pub(crate) fn take_edited(&mut self, text: String) -> Edited {
        if text == self.report_text() {
            return Edited::Unchanged;
        }
        let error = match crate::validate::parse_json(&text) {
            Ok(report) if report.is_object() => {
                self.set_report(&report, &text);
                self.unparsed = None;
                return Edited::Applied;
            }
            Ok(_) => "the report must be a JSON object ({…})".to_owned(),
            Err(error) => error.to_string(),
        };
        let unparsed = Unparsed { text, error };
        self.unparsed = Some(unparsed.clone());
        Edited::NotJson(unparsed.error)
    }
}
