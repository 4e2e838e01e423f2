//! Popups drawn over the panes: the `?` help, the `:` command line, the type picker, and the
//! details of the last error. Each owns its own small state.

use super::cursor::ListCursor;
use super::input::LineInput;
use super::keymap::{Binding, Context, bindings};

#[derive(Clone, Debug)]
pub enum Overlay {
    Help(Help),
    CommandLine(CommandLine),
    TypePicker(TypePicker),
    Error(ErrorPopup),
}

/// The keys of the pane that was focused when `?` was pressed, narrowed as the user types.
#[derive(Clone, Debug)]
pub struct Help {
    pub context: Context,
    pub filter: LineInput,
    pub cursor: ListCursor,
}

impl Help {
    pub fn new(context: Context) -> Self {
        Help {
            context,
            filter: LineInput::new(),
            cursor: ListCursor::default(),
        }
    }

    /// The bindings that match the filter (on the keys or on what they do).
    pub fn entries(&self) -> Vec<&'static Binding> {
        let needle = self.filter.text().to_lowercase();
        bindings(self.context)
            .into_iter()
            .filter(|b| {
                needle.is_empty()
                    || b.label.to_lowercase().contains(&needle)
                    || b.help.to_lowercase().contains(&needle)
            })
            .collect()
    }
}

#[derive(Clone, Debug, Default)]
pub struct CommandLine {
    pub input: LineInput,
    /// What Tab found, shown above the line.
    pub candidates: Vec<String>,
    pub error: Option<String>,
}

/// Choosing a type filter among the types seen so far; `None` is "all types".
#[derive(Clone, Debug)]
pub struct TypePicker {
    pub options: Vec<Option<String>>,
    pub cursor: ListCursor,
}

/// The last error in full, with what to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorReport {
    /// What appdeck was doing ("loading resources").
    pub doing: String,
    pub message: String,
    pub hint: Option<String>,
}

#[derive(Clone, Debug)]
pub struct ErrorPopup {
    pub report: ErrorReport,
    pub scroll: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_filters_on_keys_and_descriptions() {
        let mut help = Help::new(Context::Browser);
        let all = help.entries().len();
        help.filter.set("type");
        let some = help.entries();
        assert!(some.len() < all);
        assert!(
            some.iter()
                .all(|b| b.help.contains("type") || b.label.contains("type"))
        );
        help.filter.set("zzzz");
        assert!(help.entries().is_empty());
    }
}
