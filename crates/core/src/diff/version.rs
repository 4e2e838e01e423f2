//! Whether a connect's `version` comes after the one it replaces: semver order when both parse as
//! semver, else only the same string is flagged (a free-form version has no order to check).

/// Why `new` does not come after `old`, or `None` when it does (or cannot be told).
pub fn not_after(new: &str, old: &str) -> Option<String> {
    match (semver::Version::parse(new), semver::Version::parse(old)) {
        (Ok(n), Ok(o)) if n < o => Some(format!("version {n} goes back from {o}")),
        (Ok(n), Ok(o)) if n == o => Some(format!("version {n} is the same as {o}")),
        (Ok(_), Ok(_)) => None,
        _ if new == old => Some(format!("replaces the same version string {new:?}")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::not_after;

    #[test]
    fn only_a_version_that_does_not_come_after_is_flagged() {
        assert_eq!(
            not_after("1.3.0", "1.10.0").as_deref(),
            Some("version 1.3.0 goes back from 1.10.0")
        );
        assert_eq!(
            not_after("1.4.0", "1.4.0").as_deref(),
            Some("version 1.4.0 is the same as 1.4.0")
        );
        assert_eq!(not_after("1.10.0", "1.9.0"), None);
        assert_eq!(
            not_after("2024-05", "2024-04"),
            None,
            "not semver: no order"
        );
        assert!(not_after("v2", "v2").is_some());
    }
}
