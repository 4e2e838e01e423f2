//! Fitting text into terminal cells by display width, shared by the CLI's tables and the TUI.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Cuts `text` to `width` columns, ending with `…` when something was cut.
pub fn fit(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_owned();
    }
    if width == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > width - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// Column widths that fit in `room` cells: each column as wide as `natural` says, then the
/// widest columns give way first until the sum fits or every column is at its `min` (then the
/// sum is more than `room`, and the caller cuts or wraps). The CLI's tables and the TUI's
/// resource list size their columns with it.
pub fn fit_columns(natural: &[usize], min: &[usize], room: usize) -> Vec<usize> {
    let mut widths: Vec<usize> = natural
        .iter()
        .zip(min)
        .map(|(n, m)| (*n).min(room.max(*m)).max(*m))
        .collect();
    let mut total: usize = widths.iter().sum();
    while total > room {
        let shrinkable = (0..widths.len())
            .filter(|&i| widths[i] > min[i])
            .max_by_key(|&i| (widths[i], i));
        match shrinkable {
            Some(i) => {
                widths[i] -= 1;
                total -= 1;
            }
            None => break,
        }
    }
    widths
}

/// A timestamp as the list shows it, in the TUI and the CLI alike: `2026-11-20T14:03:11Z` as
/// `2026-11-20 14:03` (UTC); anything that is not RFC 3339 as it is.
pub fn short_time(value: &str) -> String {
    match chrono::DateTime::parse_from_rfc3339(value) {
        Ok(t) => t
            .with_timezone(&chrono::Utc)
            .format("%Y-%m-%d %H:%M")
            .to_string(),
        Err(_) => value.to_owned(),
    }
}

/// Thousands separators, for row counts.
pub fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_by_display_width() {
        assert_eq!(fit("hello", 5), "hello");
        assert_eq!(fit("hello world", 6), "hello…");
        assert_eq!(fit("日本語テキスト", 7), "日本語…");
        assert_eq!(fit("abc", 0), "");
    }

    #[test]
    fn columns_give_way_widest_first_down_to_their_minimum() {
        assert_eq!(fit_columns(&[4, 10, 6], &[1, 3, 3], 30), [4, 10, 6]);
        assert_eq!(fit_columns(&[4, 10, 6], &[1, 3, 3], 16), [4, 6, 6]);
        assert_eq!(fit_columns(&[4, 10, 6], &[1, 3, 3], 2), [1, 3, 3]);
    }

    #[test]
    fn short_times() {
        assert_eq!(short_time("2026-11-20T14:03:11Z"), "2026-11-20 14:03");
        assert_eq!(short_time("2026-11-20T15:03:11+01:00"), "2026-11-20 14:03");
        assert_eq!(short_time("yesterday"), "yesterday");
    }

    #[test]
    fn counts() {
        assert_eq!(count(0), "0");
        assert_eq!(count(1234567), "1,234,567");
    }
}
