//! Reading a token file, and noticing when a secret is readable by other users.

use std::path::Path;

use super::ConfigError;
use crate::api::Token;
use crate::bounded_read;

/// A token is short; reading at most this much keeps a token file that never ends from hanging.
const MAX_TOKEN_FILE_BYTES: u64 = 64 * 1024;

/// Whether group or others may read the file. Only Unix has such permission bits.
pub(crate) fn readable_by_others(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o044 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// Reads a token file: its trimmed content is the token. Returns a warning when the file is
/// readable by group or others. Errors never quote the content.
pub fn read_token_file(path: &Path) -> Result<(Token, Option<String>), ConfigError> {
    let fail = |problem: String| ConfigError::TokenFile {
        path: path.to_owned(),
        problem,
    };
    let (bytes, meta) =
        bounded_read::file(path, MAX_TOKEN_FILE_BYTES).map_err(|e| match e.kind() {
            std::io::ErrorKind::FileTooLarge => fail("too large to be a token".to_owned()),
            _ => fail(e.to_string()),
        })?;
    let text = String::from_utf8(bytes).map_err(|_| fail("not valid UTF-8".to_owned()))?;
    let text = text.trim();
    if text.is_empty() {
        return Err(fail("is empty".to_owned()));
    }
    if text.contains(['\n', '\r']) {
        return Err(fail(
            "holds more than one line; it should hold the token alone".to_owned(),
        ));
    }
    let warning = readable_by_others(&meta).then(|| {
        format!(
            "token file {} is readable by group or others; run: chmod 600 {}",
            path.display(),
            path.display()
        )
    });
    Ok((Token::new(text), warning))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, content: &str, mode: u32) -> std::path::PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        #[cfg(not(unix))]
        let _ = mode;
        path
    }

    #[test]
    fn reads_a_private_token_file_without_warning() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "t", "  abc123\n", 0o600);
        let (token, warning) = read_token_file(&path).unwrap();
        assert_eq!(token.expose(), "abc123");
        assert_eq!(warning, None);
    }

    #[cfg(unix)]
    #[test]
    fn warns_about_a_shared_token_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "t", "abc123", 0o644);
        let (_, warning) = read_token_file(&path).unwrap();
        assert!(warning.unwrap().contains("chmod 600"));
    }

    #[test]
    fn refuses_empty_multi_line_and_missing_files_without_quoting_them() {
        let dir = tempfile::tempdir().unwrap();
        let empty = write(dir.path(), "e", " \n", 0o600);
        assert!(
            read_token_file(&empty)
                .unwrap_err()
                .to_string()
                .contains("empty")
        );
        let two = write(dir.path(), "two", "secret-one\nsecret-two", 0o600);
        let message = read_token_file(&two).unwrap_err().to_string();
        assert!(!message.contains("secret"), "{message}");
        assert!(read_token_file(&dir.path().join("nope")).is_err());
    }
}
