//! `e`: the whole report in `$VISUAL` / `$EDITOR`. The composer only decides: the text to edit
//! goes out in `Command::EditExternally` (the runtime suspends the terminal and runs the
//! editor), and what comes back is read here. A result that is not JSON is kept as typed with its
//! syntax error ([`Unparsed`]), never thrown away.

use serde_json::Value;

use super::check::assemble;
use super::{Report, Unparsed};
use crate::app::panes::composer::Edited;

/// Stands for the resource while a report whose resource is not JSON is laid out.
pub(super) const RESOURCE_MARK: &str = "\u{0}appdeck-resource\u{0}";

/// `laid_out`, a report laid out with [`RESOURCE_MARK`] as its resource, with the text
/// `resource` in the (first) mark's place, its lines indented as the line the mark is on.
pub(super) fn put_resource(laid_out: &str, resource: &str) -> Option<String> {
    let mark = Value::from(RESOURCE_MARK).to_string();
    let at = laid_out.find(&mark)?;
    let indent = laid_out[..at]
        .rsplit('\n')
        .next()
        .map_or(0, |line| line.len() - line.trim_start().len());
    let resource = resource.replace('\n', &format!("\n{}", " ".repeat(indent)));
    Some(laid_out.replacen(&mark, &resource, 1))
}

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
        let text = self.resource_text();
        let spliced = crate::validate::parse_json(&text)
            .ok()
            .and_then(|_| self.text_around(&text));
        let whole = match spliced {
            Some(whole) => crate::json_text::pretty(&whole),
            None => {
                let report = assemble(&self.header(), Value::from(RESOURCE_MARK));
                let laid_out =
                    serde_json::to_string_pretty(&report).unwrap_or_else(|_| "{}".into());
                let resource = match crate::validate::parse_json(&text) {
                    Ok(_) => crate::json_text::pretty(&text),
                    Err(_) => text,
                };
                put_resource(&laid_out, &resource).unwrap_or(laid_out)
            }
        };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_resource_goes_in_the_marks_place_its_lines_indented_as_the_marks() {
        let mark = Value::from(RESOURCE_MARK).to_string();
        let laid_out = format!("{{\n  \"response\": {{\n    \"resource\": {mark}\n  }}\n}}");
        let put = put_resource(&laid_out, "{\n  \"a\": 1\n}");
        let expected = "{\n  \"response\": {\n    \"resource\": {\n      \"a\": 1\n    }\n  }\n}";
        assert_eq!(put.as_deref(), Some(expected));
        assert_eq!(put_resource("{}", "1"), None, "no mark, no place");
    }
}
