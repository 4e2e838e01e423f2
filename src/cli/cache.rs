//! `appdeck cache` and `appdeck cache clear`: the listings the TUI keeps in the local store to
//! show at the next start before the service answers. They hold rows the service sent (never
//! the token); some users must not leave them on disk, so `clear` erases them for real.

use std::io::Write;

use super::Failure;
use super::args::CacheCommand;
use super::table::{fit_widths, join_cells};
use crate::config;
use crate::sanitize;
use crate::store::{KEPT_MAX_BYTES, KEPT_MAX_LISTINGS, KEPT_MAX_ROWS, KeptSummary, Store};
use crate::text::{count, counted};

const HEADERS: [&str; 6] = ["SERVICE", "PROFILE", "TYPE", "ROWS", "SIZE", "KEPT (UTC)"];
const MIN_WIDTHS: [usize; 6] = [12, 7, 4, 4, 4, 16];

pub fn run(
    command: Option<&CacheCommand>,
    width: usize,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let env = config::Env::from_process()?;
    let path = config::store_path(&env).ok_or_else(|| {
        Failure::Usage("no data directory to find the local store in; set APPDECK_DATA_DIR".into())
    })?;
    let path = path.value;
    let bounds = bounds();
    // Neither a look nor a clear creates a store that is not there.
    if !path.exists() {
        writeln!(out, "nothing kept: there is no store at {}", path.display())?;
        return Ok(());
    }
    let mut store = Store::open(&path)?;
    match command {
        Some(CacheCommand::Clear) => {
            let gone = store.clear_kept_listings()?;
            writeln!(
                out,
                "removed {} from {} (their rows overwritten, not only unlinked)",
                counted(gone, "kept listing"),
                path.display()
            )?;
        }
        None => {
            let kept = store.kept_listings()?;
            if kept.is_empty() {
                writeln!(out, "nothing kept in {} ({bounds})", path.display())?;
            } else {
                write_table(&kept, width, out)?;
                let bytes: usize = kept.iter().map(|k| k.bytes).sum();
                writeln!(
                    out,
                    "\n{} kept, {} of rows, in {} ({bounds}); `appdeck cache clear` erases them",
                    kept.len(),
                    size(bytes),
                    path.display()
                )?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// How much is kept at most, as the help says it.
fn bounds() -> String {
    format!(
        "at most {KEPT_MAX_LISTINGS} listings, each its first {} rows or {} MiB",
        count(KEPT_MAX_ROWS),
        KEPT_MAX_BYTES / (1024 * 1024)
    )
}

fn write_table(kept: &[KeptSummary], width: usize, out: &mut impl Write) -> std::io::Result<()> {
    let rows: Vec<[String; 6]> = kept
        .iter()
        .map(|k| {
            let shown = |text: Option<&str>, none: &str| {
                text.map_or(none.to_owned(), |t| sanitize::line(t).into_owned())
            };
            let rows = match &k.set_aside {
                Some(why) => format!("set aside: {}", sanitize::line(why)),
                None => k.rows.to_string(),
            };
            [
                sanitize::line(&k.base_url).into_owned(),
                shown(k.profile.as_deref(), "-"),
                shown(k.type_filter.as_deref(), "(all)"),
                rows,
                size(k.bytes),
                k.kept_at.format("%Y-%m-%d %H:%M").to_string(),
            ]
        })
        .collect();
    let cells: Vec<&[String]> = rows.iter().map(|r| r.as_slice()).collect();
    let widths = fit_widths(&HEADERS, &MIN_WIDTHS, &cells, width);
    writeln!(out, "{}", join_cells(&widths, &HEADERS.map(String::from)))?;
    for row in &rows {
        writeln!(out, "{}", join_cells(&widths, row))?;
    }
    Ok(())
}

/// A size as people read it: `812 B`, `14 KiB`, `1.9 MiB`.
fn size(bytes: usize) -> String {
    match bytes {
        0..1024 => format!("{bytes} B"),
        1024..1_048_576 => format!("{} KiB", bytes / 1024),
        _ => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_help_states_the_bounds_the_store_keeps() {
        let help = super::super::args::CACHE_HELP;
        assert!(help.replace('\n', " ").contains(&super::bounds()), "{help}");
    }
}
