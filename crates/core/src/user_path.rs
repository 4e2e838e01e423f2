//! A path the user typed on appdeck's command line (`:export ~/rows.csv`, `:connect ~/v2.json`):
//! no shell reads it first, so appdeck expands `~` itself, as the shell would have.

use std::path::PathBuf;

/// `~` and `~/…` at the start of `path` are the home directory; `~user/…` is left as a name.
pub fn expand_home(path: &str) -> Result<PathBuf, String> {
    let rest = match path.strip_prefix('~') {
        None => return Ok(PathBuf::from(path)),
        Some(rest) if rest.is_empty() || rest.starts_with('/') => rest.trim_start_matches('/'),
        Some(_) => return Ok(PathBuf::from(path)),
    };
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .ok_or_else(|| "~ cannot be expanded: HOME is not set".to_owned())?;
    Ok(PathBuf::from(home).join(rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tilde_at_the_start_is_home() {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        if let Some(home) = home.filter(|h| !h.as_os_str().is_empty()) {
            assert_eq!(expand_home("~/x.csv").unwrap(), home.join("x.csv"));
            assert_eq!(expand_home("~").unwrap(), home);
        }
        assert_eq!(expand_home("~bob/x").unwrap(), PathBuf::from("~bob/x"));
        assert_eq!(expand_home("a/~/x").unwrap(), PathBuf::from("a/~/x"));
    }
}
