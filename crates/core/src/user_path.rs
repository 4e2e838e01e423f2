//! A path the user typed on appdeck's command line (`:export ~/rows.csv`, `:connect ~/v2.json`):
//! no shell reads it first, so appdeck expands `~` itself, as the shell would have.

use std::path::{Path, PathBuf};

/// `~` and `~/…` at the start of `path` are the home directory; `~user/…` is left as a name.
pub fn expand_home(path: &str) -> Result<PathBuf, String> {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty());
    expand_home_in(path, home.as_deref().map(Path::new))
}

/// [`expand_home`] with the home directory given (`None`: not set).
fn expand_home_in(path: &str, home: Option<&Path>) -> Result<PathBuf, String> {
    let rest = match path.strip_prefix('~') {
        None => return Ok(PathBuf::from(path)),
        Some(rest) if rest.is_empty() || rest.starts_with('/') => rest.trim_start_matches('/'),
        Some(_) => return Ok(PathBuf::from(path)),
    };
    let home = home.ok_or_else(|| "~ cannot be expanded: HOME is not set".to_owned())?;
    Ok(home.join(rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tilde_at_the_start_is_home() {
        let home = Some(Path::new("/home/ann"));
        let expand = |path| expand_home_in(path, home).unwrap();
        assert_eq!(expand("~/x.csv"), PathBuf::from("/home/ann/x.csv"));
        assert_eq!(expand("~"), PathBuf::from("/home/ann"));
        assert_eq!(expand("~bob/x"), PathBuf::from("~bob/x"));
        assert_eq!(expand("a/~/x"), PathBuf::from("a/~/x"));
        let unset = expand_home_in("~/x", None).unwrap_err();
        assert!(unset.contains("HOME is not set"), "{unset}");
        assert_eq!(expand_home_in("x", None).unwrap(), PathBuf::from("x"));
    }
}
