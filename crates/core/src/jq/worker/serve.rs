//! The worker's side: reads the expression and then rows from stdin, answers each on stdout.

use std::io::{self, BufReader, BufWriter, Read, Write};
use std::process::ExitCode;

use super::{ERROR, FALSE, MAX_ERROR_BYTES, TRUE, read_frame, write_frame};
use crate::jq::Program;

/// Runs as a worker until stdin ends. Exits 0 then; 2 when the expression does not compile
/// (appdeck compiles it first, so only a mismatched binary gets here); 1 when a pipe breaks.
pub fn serve() -> ExitCode {
    let mut input = BufReader::with_capacity(1 << 16, io::stdin().lock());
    let mut output = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    match answer_rows(&mut input, &mut output) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(2),
        Err(_) => ExitCode::from(1),
    }
}

/// Answers each row of `input` on `output`; `false` when the expression does not compile.
fn answer_rows(input: &mut BufReader<impl Read>, output: &mut impl Write) -> io::Result<bool> {
    let mut frame = Vec::new();
    if !read_frame(input, &mut frame)? {
        return Ok(true);
    }
    let Ok(Ok(program)) = std::str::from_utf8(&frame).map(Program::compile) else {
        return Ok(false);
    };
    loop {
        // Answers wait in the buffer while rows keep coming, and go out before the worker
        // waits for more: appdeck sees them as soon as they can matter, in few writes.
        if !holds_a_frame(input.buffer()) {
            output.flush()?;
        }
        if !read_frame(input, &mut frame)? {
            break;
        }
        match program.is_true(&frame) {
            Ok(true) => output.write_all(&[TRUE])?,
            Ok(false) => output.write_all(&[FALSE])?,
            Err(error) => {
                let mut cut = error.len().min(MAX_ERROR_BYTES);
                while !error.is_char_boundary(cut) {
                    cut -= 1;
                }
                output.write_all(&[ERROR])?;
                write_frame(output, &error.as_bytes()[..cut])?;
            }
        }
    }
    output.flush()?;
    Ok(true)
}

/// Whether `buffered` holds a whole frame (else reading the next one may wait).
fn holds_a_frame(buffered: &[u8]) -> bool {
    match buffered.first_chunk::<4>() {
        Some(len) => buffered.len() - 4 >= u32::from_le_bytes(*len) as usize,
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frames appdeck would send: the expression, then each row.
    fn sent(expr: &str, rows: &[&str]) -> Vec<u8> {
        let mut bytes = Vec::new();
        write_frame(&mut bytes, expr.as_bytes()).unwrap();
        for row in rows {
            write_frame(&mut bytes, row.as_bytes()).unwrap();
        }
        bytes
    }

    #[test]
    fn each_row_is_answered_in_order_with_its_error() {
        let input = sent(".n > 1", &[r#"{"n":2}"#, r#"{"n":1}"#, r#"{"n":"x"}"#, "{"]);
        let mut output = Vec::new();
        assert!(answer_rows(&mut BufReader::new(&input[..]), &mut output).unwrap());
        assert_eq!(&output[..2], b"TF", "true, then false");
        // A string is greater than a number in jq: true.
        assert_eq!(output[2], TRUE);
        assert_eq!(output[3], ERROR, "a row that is not JSON");
        let mut error = Vec::new();
        assert!(read_frame(&mut &output[4..], &mut error).unwrap());
        assert!(!error.is_empty());
        assert_eq!(output.len(), 4 + 4 + error.len(), "nothing more");
    }

    #[test]
    fn an_expression_that_does_not_compile_is_refused() {
        let mut output = Vec::new();
        assert!(
            !answer_rows(&mut BufReader::new(&sent(".a >", &["{}"])[..]), &mut output).unwrap()
        );
        assert!(output.is_empty());
        assert!(
            answer_rows(&mut BufReader::new(&b""[..]), &mut output).unwrap(),
            "no input"
        );
    }
}
