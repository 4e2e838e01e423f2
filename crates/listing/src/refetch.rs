//! A listing fetched again behind the one shown (a `:watch` look, `r`, a reload after a
//! report): whether its rows may still take the place of those shown when they land.

use crate::loader::Listing;

/// Where a listing fetched again stands against the one shown. The fetch goes as deep as the
/// list shown is as each of its pages arrives (pages loaded meanwhile, by `L` or a move,
/// included; to the end once that list is whole or loading every page). Should the list shown take a page after the
/// fetch has all its rows (while they are compared, tested or sorted), or be loading every page
/// (`L`) when they would land, the fetch is out of date: its rows are dropped and a new fetch
/// starts from the rows the list holds then. So a fetch never leaves the list shorter than the
/// pages loaded while it ran made it, and never stops `L` (a `:watch` look waits for `L` to end).
#[derive(Clone, Copy, Debug, Default)]
pub struct Refetch {
    /// How many pages the list shown had taken when the fetch had all its rows (`None` before).
    pages: Option<usize>,
}

impl Refetch {
    /// The fetch has all its rows: notes where the list `shown` stands then.
    pub fn fetched(&mut self, shown: Option<&Listing>) {
        self.pages = shown.map(|l| l.pages);
    }

    /// Whether the fetch's rows may no longer take the place of those `shown` (see [`Refetch`]);
    /// `loading_all`: the list shown is loading every page.
    pub fn outdated(&self, shown: Option<&Listing>, loading_all: bool) -> bool {
        loading_all || self.pages != shown.map(|l| l.pages)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page taken after the fetch had its rows, or `L` running, puts it out of date; a fetch
    /// that has not got its rows yet is never ready to land.
    #[test]
    fn a_page_taken_since_the_fetch_ended_or_l_running_puts_it_out_of_date() {
        let mut shown = Listing::default();
        shown.pages = 2;
        let mut refetch = Refetch::default();
        assert!(refetch.outdated(Some(&shown), false), "still fetching");
        refetch.fetched(Some(&shown));
        assert!(!refetch.outdated(Some(&shown), false));
        assert!(refetch.outdated(Some(&shown), true), "under L");
        shown.pages += 1;
        assert!(refetch.outdated(Some(&shown), false), "a page since");
    }
}
