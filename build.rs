//! Puts the commit and the build date into `appdeck --version` when built from a git checkout.
//!
//! Sets `APPDECK_BUILD_INFO` to ` (commit 0123456789ab, built 2026-01-31)`, or to nothing when
//! there is no git or no repository (a source tarball, a crates.io download): the build never
//! fails for want of git. It reruns only when the checked-out commit changes (`HEAD`, the branch
//! it points to, packed refs), not on every build.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    let info = match git_commit() {
        Some((commit, watched)) => {
            for path in watched.iter().filter(|p| p.exists()) {
                println!("cargo:rerun-if-changed={}", path.display());
            }
            format!(" (commit {commit}, built {})", build_date())
        }
        None => String::new(),
    };
    println!("cargo:rustc-env=APPDECK_BUILD_INFO={info}");
}

/// The short commit id, and the files that change when another commit is checked out.
fn git_commit() -> Option<(String, Vec<PathBuf>)> {
    let commit = git(&["rev-parse", "--short=12", "HEAD"])?;
    // In a worktree, HEAD is in the worktree's git dir and branches in the common one.
    let git_dir = PathBuf::from(git(&["rev-parse", "--git-dir"])?);
    let common_dir = git(&["rev-parse", "--git-common-dir"]).map_or(git_dir.clone(), PathBuf::from);
    let mut watched = vec![git_dir.join("HEAD"), common_dir.join("packed-refs")];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(common_dir.join(Path::new(&branch)));
    }
    Some((commit, watched))
}

/// The trimmed output of a successful git command run in the package's directory, else `None`.
fn git(args: &[&str]) -> Option<String> {
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")?;
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (output.status.success() && !text.is_empty()).then(|| text.to_owned())
}

/// Today's date in UTC as `YYYY-MM-DD`, or the date of `SOURCE_DATE_EPOCH` for reproducible
/// builds.
fn build_date() -> String {
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        });
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}
