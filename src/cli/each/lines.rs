//! The lines of `report --each`: read on a thread of their own (stdin and pipes block), each at
//! most the size of a payload, and handed over a small channel so that reading stays only a few
//! lines ahead of sending. Blank lines are counted but not handed over.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use tokio::sync::mpsc;

use crate::api::error::describe_bytes;
use crate::bounded_read::{MAX_PAYLOAD_BYTES, Pipe};
use crate::cli::Failure;

/// Where the lines come from.
pub struct Source {
    /// `stdin`, or the path as given.
    pub name: String,
    /// Its size, when it is a regular file (for a progress bar by bytes).
    pub size: Option<u64>,
    what: What,
}

enum What {
    Stdin,
    File(File),
    /// A pipe (a FIFO, `<(…)`), opened once without blocking and read through that descriptor:
    /// a second open lost what a writer let in by the first had written, and waited for ever.
    Pipe(File),
    /// `/dev/null`: no lines.
    Nothing,
}

/// One line that is not blank.
#[derive(Debug)]
pub struct Line {
    /// 1-based, blank lines counted.
    pub number: u64,
    /// Bytes read up to the end of this line, for the progress bar.
    pub end: u64,
    /// Its text (a trailing `\r` dropped), or why it cannot be used.
    pub text: Result<String, String>,
}

/// What the reading thread hands over.
#[derive(Debug)]
pub enum Next {
    Line(Line),
    /// Reading stopped here (the lines before were handed over).
    Failed(String),
}

/// Opens `path` (`-` for stdin). A regular file or a pipe is read, `/dev/null` gives no lines;
/// a directory, another device or a socket is a usage error (a device such as `/dev/zero` would
/// never end).
pub fn open(path: &Path) -> Result<Source, Failure> {
    if path == Path::new("-") {
        return Ok(Source {
            name: "stdin".to_owned(),
            size: None,
            what: What::Stdin,
        });
    }
    let name = path.display().to_string();
    let cannot = |e: std::io::Error| Failure::Usage(format!("cannot read {name}: {e}"));
    let file = crate::bounded_read::open_without_blocking(path).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    let size = meta.is_file().then_some(meta.len());
    let what = if meta.is_file() {
        What::File(file)
    } else if crate::bounded_read::is_fifo(&meta) {
        What::Pipe(file)
    } else if is_dev_null(&meta) {
        What::Nothing
    } else {
        return Err(Failure::Usage(format!(
            "cannot read {name}: it is {}, not a file of lines (give an NDJSON file, or - for \
             stdin)",
            crate::bounded_read::kind_of(&meta)
        )));
    };
    Ok(Source { size, name, what })
}

/// Whether `meta` is `/dev/null`'s (under whatever name: `/dev/stdin` redirected from it).
fn is_dev_null(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata("/dev/null")
            .is_ok_and(|null| null.rdev() == meta.rdev() && null.dev() == meta.dev())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// Starts reading `source` on its own thread; the channel holds `ahead` lines at most and closes
/// at the end. Dropping the receiver stops the thread at its next line.
pub fn spawn(source: Source, ahead: usize) -> mpsc::Receiver<Next> {
    let (tx, rx) = mpsc::channel(ahead.max(1));
    std::thread::spawn(move || {
        let name = source.name;
        let reader: Box<dyn Read> = match source.what {
            What::Stdin => Box::new(std::io::stdin()),
            // O_NONBLOCK changes nothing for a regular file.
            What::File(file) => Box::new(file),
            // A stream of reports may pause for as long as its writer likes.
            What::Pipe(file) => Box::new(Pipe::new(file, None)),
            What::Nothing => return,
        };
        let mut lines = Lines::new(BufReader::with_capacity(1 << 16, reader), MAX_PAYLOAD_BYTES);
        loop {
            let message = match lines.next_line() {
                Ok(Some(line)) => Next::Line(line),
                Ok(None) => return,
                Err(e) => Next::Failed(format!(
                    "cannot read {name} after line {}: {e}",
                    lines.number
                )),
            };
            let failed = matches!(message, Next::Failed(_));
            if tx.blocking_send(message).is_err() || failed {
                return;
            }
        }
    });
    rx
}

/// Splits a reader into lines of at most `cap` bytes, skipping blank ones.
pub struct Lines<R> {
    reader: R,
    cap: u64,
    /// The number of the last line read.
    number: u64,
    /// Bytes read so far.
    offset: u64,
}

impl<R: BufRead> Lines<R> {
    pub fn new(reader: R, cap: u64) -> Self {
        Lines {
            reader,
            cap,
            number: 0,
            offset: 0,
        }
    }

    /// The next line that is not blank; `None` at the end. A line past the cap is read to its
    /// end without being kept, and comes back as the reason it cannot be used.
    pub fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        loop {
            let mut bytes = Vec::new();
            let mut too_long = false;
            let mut read_any = false;
            loop {
                let available = self.reader.fill_buf()?;
                if available.is_empty() {
                    break;
                }
                read_any = true;
                let (take, done) = match memchr::memchr(b'\n', available) {
                    Some(i) => (i, true),
                    None => (available.len(), false),
                };
                if !too_long {
                    if (bytes.len() + take) as u64 > self.cap {
                        too_long = true;
                        bytes = Vec::new();
                    } else {
                        bytes.extend_from_slice(&available[..take]);
                    }
                }
                let consumed = take + usize::from(done);
                self.reader.consume(consumed);
                self.offset += consumed as u64;
                if done {
                    break;
                }
            }
            if !read_any {
                return Ok(None);
            }
            self.number += 1;
            if bytes.last() == Some(&b'\r') {
                bytes.pop();
            }
            if !too_long && bytes.trim_ascii().is_empty() {
                continue;
            }
            let text = if too_long {
                Err(format!(
                    "longer than the {} a payload may have",
                    describe_bytes(self.cap)
                ))
            } else {
                String::from_utf8(bytes).map_err(|e| {
                    format!(
                        "not valid UTF-8 (byte {})",
                        e.utf8_error().valid_up_to() + 1
                    )
                })
            };
            return Ok(Some(Line {
                number: self.number,
                end: self.offset,
                text,
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], cap: u64) -> Vec<(u64, Result<String, String>)> {
        let mut lines = Lines::new(input, cap);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            out.push((line.number, line.text));
        }
        out
    }

    #[test]
    fn blank_lines_are_counted_but_skipped_and_crlf_is_one_end() {
        let got = all(b"{\"a\":1}\r\n\n  \t\n{\"b\":2}", 100);
        assert_eq!(
            got,
            [
                (1, Ok("{\"a\":1}".to_owned())),
                (4, Ok("{\"b\":2}".to_owned()))
            ]
        );
    }

    #[test]
    fn a_line_past_the_cap_or_not_utf8_is_a_reason_and_the_next_line_reads() {
        let mut input = vec![b'x'; 50];
        input.extend_from_slice(b"\n\xff\xfe\nok\n");
        let got = all(&input, 10);
        assert_eq!(got.len(), 3);
        assert!(got[0].1.as_ref().unwrap_err().contains("longer than"));
        assert_eq!(got[1].1, Err("not valid UTF-8 (byte 1)".to_owned()));
        assert_eq!(got[2], (3, Ok("ok".to_owned())));
    }
}
