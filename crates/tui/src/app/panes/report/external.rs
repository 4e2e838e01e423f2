//! `e`: the whole report in `$VISUAL` / `$EDITOR`. The composer only decides: the text to edit
//! goes out in `Command::EditExternally` (the runtime suspends the terminal and runs the
//! editor), and what comes back is read here. A result that is not JSON is kept as typed with its
//! syntax error ([`Unparsed`]), never thrown away.

use serde_json::Value;

use super::{Report, Unparsed};
use crate::app::panes::composer::Edited;

/// Stands for the resource while a report whose resource is not JSON is laid out.
pub(super) const RESOURCE_MARK: &str = "\u{0}appdeck-resource\u{0}";

impl Report {
    /// The whole report as pretty JSON, as the external editor gets it. Text that is not JSON
    /// is edited as it is: the unparsed report itself, or the report laid out around a resource
    /// whose text is not JSON.
    pub(crate) fn report_text(&self) -> String {
        if let Some(unparsed) = &self.unparsed {
            return unparsed.text.clone();
        }
        let mut report = self.header();
        if let Some(Value::Object(response)) = report.get_mut("response") {
            response.insert("resource".into(), Value::from(RESOURCE_MARK));
        }
        let laid_out =
            serde_json::to_string_pretty(&Value::Object(report)).unwrap_or_else(|_| "{}".into());
        let resource = match crate::validate::parse_json(&self.resource_text()) {
            Ok(resource) => serde_json::to_string_pretty(&resource).unwrap_or_default(),
            Err(_) => self.resource_text(),
        };
        let Some(at) = laid_out.find(&serde_json::to_string(RESOURCE_MARK).unwrap_or_default())
        else {
            return laid_out;
        };
        // The resource's lines, indented as the line the mark is on.
        let indent = laid_out[..at]
            .rsplit('\n')
            .next()
            .map_or(0, |line| line.len() - line.trim_start().len());
        let resource = resource.replace('\n', &format!("\n{}", " ".repeat(indent)));
        let mark = serde_json::to_string(RESOURCE_MARK).unwrap_or_default();
        laid_out.replacen(&mark, &resource, 1)
    }

    /// Reads what the external editor left.
    pub(crate) fn take_edited(&mut self, text: String) -> Edited {
        if text == self.report_text() {
            return Edited::Unchanged;
        }
        let error = match crate::validate::parse_json(&text) {
            Ok(report) if report.is_object() => {
                self.set_report(&report);
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
