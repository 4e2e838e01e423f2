//! Fitting text into terminal cells by display width, shared by the CLI's tables and the TUI.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// How many zero-width characters (combining marks and the like) may follow one another: a
/// terminal stacks them over one cell, so a value of 200,000 marks would print megabytes into a
/// single cell. The rest of such a run is dropped.
const MAX_MARKS: usize = 8;

/// Cuts `text` to `width` columns, ending with `…` when something was cut, and drops zero-width
/// characters past [`MAX_MARKS`] in a row.
pub fn fit(text: &str, width: usize) -> String {
    // Printable ASCII is one column a character, none of zero width: most cells, as they are.
    // `list --all -o table` over 100,000 rows spent 7% of its time here cutting nothing.
    if text.len() <= width && text.bytes().all(|b| (b' '..=b'~').contains(&b)) {
        return text.to_owned();
    }
    let fits = text.width() <= width;
    if !fits && width == 0 {
        return String::new();
    }
    let mut out = String::with_capacity(text.len().min(width * 4 + 4));
    let mut used = 0;
    let mut marks = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        marks = if w == 0 { marks + 1 } else { 0 };
        if marks > MAX_MARKS {
            continue;
        }
        if !fits && used + w > width - 1 {
            out.push('…');
            break;
        }
        out.push(c);
        used += w;
    }
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
    if let Some(short) = short_utc_time(value) {
        return short;
    }
    match chrono::DateTime::parse_from_rfc3339(value) {
        Ok(t) => t
            .with_timezone(&chrono::Utc)
            .format("%Y-%m-%d %H:%M")
            .to_string(),
        Err(_) => value.to_owned(),
    }
}

/// [`short_time`] of the form most services write, `YYYY-MM-DDTHH:MM:SSZ`, cut to its date
/// and minute once its fields are checked (a day that does not exist, a leap second: `None`,
/// and chrono reads it). `list --all -o table` over 100,000 rows spent 3% of its time in
/// chrono parsing and formatting such times.
fn short_utc_time(value: &str) -> Option<String> {
    let b = value.as_bytes();
    let number = |at: usize, len: usize| -> Option<u32> {
        let digits = b.get(at..at + len)?;
        digits.iter().try_fold(0u32, |n, d| {
            d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
        })
    };
    let shape = b.len() == 20
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && b[19] == b'Z';
    if !shape {
        return None;
    }
    let year = i32::try_from(number(0, 4)?).ok()?;
    chrono::NaiveDate::from_ymd_opt(year, number(5, 2)?, number(8, 2)?)?;
    if number(11, 2)? > 23 || number(14, 2)? > 59 || number(17, 2)? > 59 {
        return None;
    }
    Some(format!("{} {}", &value[..10], &value[11..16]))
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

/// `n` and the noun, plural unless `n` is 1: "1 key", "12 keys", "1,024 sends".
pub fn counted(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{} {noun}s", count(n)),
    }
}

/// Where `text` breaks when wrapped at `width` columns: after the last space that fits, else
/// (a URL, an id, a long JSON token) right at the edge. The byte ranges of its rows, at most
/// `max_rows` of them; put end to end they give `text` back (spaces included), so a break never
/// hides a character. A character wider than `width` gets a row of its own.
pub fn wrap_ranges(text: &str, width: usize, max_rows: usize) -> Vec<std::ops::Range<usize>> {
    let width = width.max(1);
    let mut rows = Vec::new();
    if max_rows == 0 {
        return rows;
    }
    let (mut start, mut used) = (0, 0);
    // Just after the last space of the row, and the columns up to there.
    let mut space: Option<(usize, usize)> = None;
    for (at, c) in text.char_indices() {
        let w = c.width().unwrap_or(0);
        if used + w > width && at > start {
            let end = match space {
                Some((after, cols)) if after > start && after <= at => {
                    used -= cols;
                    after
                }
                _ => {
                    used = 0;
                    at
                }
            };
            rows.push(start..end);
            if rows.len() == max_rows {
                return rows;
            }
            start = end;
            space = None;
        }
        used += w;
        if c == ' ' {
            space = Some((at + 1, used));
        }
    }
    if rows.len() < max_rows && (start < text.len() || rows.is_empty()) {
        rows.push(start..text.len());
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quick_read_of_a_utc_time_is_chronos() {
        let chrono_short = |value: &str| match chrono::DateTime::parse_from_rfc3339(value) {
            Ok(t) => t
                .with_timezone(&chrono::Utc)
                .format("%Y-%m-%d %H:%M")
                .to_string(),
            Err(_) => value.to_owned(),
        };
        for value in [
            "2024-05-01T12:00:00Z",
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
            "2024-02-29T10:00:00Z",
            "2023-02-29T10:00:00Z",
            "2023-13-01T10:00:00Z",
            "2023-00-01T10:00:00Z",
            "2023-04-31T10:00:00Z",
            "2023-04-00T10:00:00Z",
            "2023-04-01T24:00:00Z",
            "2023-04-01T23:60:00Z",
            "2023-04-01T23:59:60Z",
            "2023-04-01t10:00:00Z",
            "2023-04-01T10:00:00z",
            "2023-04-01 10:00:00Z",
            "2023-04-01T1a:00:00Z",
            "2023-04-01T10:00:00+02:00",
            "2023-04-01T10:00:00.5Z",
            "+023-04-01T10:00:00Z",
            "-023-04-01T10:00:00Z",
            "not a time at all!!!",
        ] {
            assert_eq!(short_time(value), chrono_short(value), "{value}");
        }
        assert!(short_utc_time("2023-04-01T23:59:60Z").is_none());
        assert!(short_utc_time("2024-05-01T12:00:00Z").is_some());
    }

    #[test]
    fn a_long_run_of_combining_marks_is_cut() {
        let text = format!("a{}b", "\u{301}".repeat(200_000));
        let fitted = fit(&text, 10);
        assert_eq!(fitted, format!("a{}b", "\u{301}".repeat(MAX_MARKS)));
        // Cut to the width too, the marks still capped.
        let text = format!("a{}bcdef", "\u{301}".repeat(200_000));
        assert_eq!(
            fit(&text, 4),
            format!("a{}bc…", "\u{301}".repeat(MAX_MARKS))
        );
    }

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

    #[test]
    fn wrapping_keeps_every_character_and_respects_the_width() {
        let rows = |text: &str, width, max| -> Vec<String> {
            wrap_ranges(text, width, max)
                .into_iter()
                .map(|r| text[r].to_owned())
                .collect()
        };
        assert_eq!(rows("abcdefg", 3, 10), ["abc", "def", "g"]);
        // At a space when there is one; the space stays, so nothing is lost.
        assert_eq!(rows("ab cd efgh", 6, 10), ["ab cd ", "efgh"]);
        assert_eq!(rows("a bcdefgh", 4, 10), ["a ", "bcde", "fgh"]);
        assert_eq!(rows("abcdef gh", 4, 10), ["abcd", "ef ", "gh"]);
        assert_eq!(rows("abcdef", 3, 10), ["abc", "def"]);
        assert_eq!(rows("", 3, 10), [""]);
        assert_eq!(rows("abcdefg", 3, 2), ["abc", "def"]);
        // Wide characters never straddle a break.
        assert_eq!(rows("a平台b", 3, 10), ["a平", "台b"]);
        assert_eq!(rows("平", 1, 10), ["平"]);
    }
}
