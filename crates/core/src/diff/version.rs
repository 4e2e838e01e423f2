//! Whether a connect's `version` comes after the one it replaces: semver order when both parse as
//! semver, else only the same string is flagged (a free-form version has no order to check). One
//! rule for `appdeck connect` and the TUI's connect composer, each wording it its own way.

use std::fmt;

/// How a version fails to come after the one it replaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotAfter {
    /// Both are semver, and `new` is not greater than `old` (lower, or equal).
    Semver {
        new: semver::Version,
        old: semver::Version,
    },
    /// Not both semver, and the same string.
    SameString(String),
}

/// As `appdeck connect` says it.
impl fmt::Display for NotAfter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotAfter::Semver { new, old } if new == old => {
                write!(f, "version {new} is the same as {old}")
            }
            NotAfter::Semver { new, old } if precedence(new) == precedence(old) => write!(
                f,
                "version {new} ranks the same as {old} (semver ignores build metadata)"
            ),
            NotAfter::Semver { new, old } => write!(f, "version {new} goes back from {old}"),
            NotAfter::SameString(new) => write!(f, "replaces the same version string {new:?}"),
        }
    }
}

/// Why `new` does not come after `old`, or `None` when it does (or cannot be told).
pub fn not_after(new: &str, old: &str) -> Option<NotAfter> {
    match (semver::Version::parse(new), semver::Version::parse(old)) {
        (Ok(new), Ok(old)) if precedence(&new) <= precedence(&old) => {
            Some(NotAfter::Semver { new, old })
        }
        (Ok(_), Ok(_)) => None,
        _ if new == old => Some(NotAfter::SameString(new.to_owned())),
        _ => None,
    }
}

/// `version` as semver orders it: without its build metadata (`Version`'s own `Ord` compares
/// that too, which would put `1.2.0+build` after `1.2.0`).
fn precedence(version: &semver::Version) -> semver::Version {
    semver::Version {
        build: semver::BuildMetadata::EMPTY,
        ..version.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::not_after;

    fn said(new: &str, old: &str) -> Option<String> {
        not_after(new, old).map(|why| why.to_string())
    }

    #[test]
    fn only_a_version_that_does_not_come_after_is_flagged() {
        assert_eq!(
            said("1.3.0", "1.10.0").as_deref(),
            Some("version 1.3.0 goes back from 1.10.0")
        );
        assert_eq!(
            said("1.4.0", "1.4.0").as_deref(),
            Some("version 1.4.0 is the same as 1.4.0")
        );
        assert_eq!(not_after("1.10.0", "1.9.0"), None);
        assert_eq!(
            not_after("2024-05", "2024-04"),
            None,
            "not semver: no order"
        );
        assert_eq!(
            said("v2", "v2").as_deref(),
            Some("replaces the same version string \"v2\"")
        );
    }

    /// Semver ranks versions apart from their build metadata: `1.2.0+build` does not come after
    /// `1.2.0` (nor `1.2.0+b` after `1.2.0+c`), though they are different strings.
    #[test]
    fn build_metadata_does_not_make_a_version_greater() {
        assert_eq!(
            said("1.2.0+build", "1.2.0").as_deref(),
            Some("version 1.2.0+build ranks the same as 1.2.0 (semver ignores build metadata)")
        );
        assert!(not_after("1.2.0+b", "1.2.0+c").is_some());
        assert!(not_after("1.1.0+z", "1.2.0").is_some());
        assert_eq!(not_after("1.2.1+a", "1.2.0+z"), None);
    }
}
