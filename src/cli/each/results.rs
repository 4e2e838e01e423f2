//! The results of `report --each` on stdout, one a line, as `-o` and `--jq` say: text lines,
//! one JSON object a line (ndjson), or one JSON array written as the results come (json, as
//! `list -o json` writes its array; an interrupted run leaves it unclosed).

use std::io::Write;

use super::outcome::Outcome;
use crate::cli::Failure;
use crate::cli::args::AnswerOutput;
use crate::cli::shape::{jq::Jq, jq_failure};
use crate::sanitize;

pub struct Results<W: Write> {
    format: AnswerOutput,
    jq: Option<Jq>,
    out: W,
    written: bool,
}

impl<W: Write> Results<W> {
    pub fn new(format: AnswerOutput, jq: Option<Jq>, out: W) -> Self {
        Results {
            format,
            jq,
            out,
            written: false,
        }
    }

    /// Writes one result, flushed: a script reading the results sees each as it comes.
    pub fn write(&mut self, outcome: &Outcome) -> Result<(), Failure> {
        match (&self.jq, self.format) {
            (Some(jq), _) => jq
                .run(outcome.to_json_text().as_bytes(), &mut self.out)
                .map_err(jq_failure)?,
            (None, AnswerOutput::Text) => writeln!(self.out, "{}", outcome.to_text())?,
            (None, AnswerOutput::Ndjson) => {
                writeln!(self.out, "{}", json_line(outcome))?;
            }
            (None, AnswerOutput::Json) => {
                let start: &[u8] = if self.written { b",\n  " } else { b"[\n  " };
                self.out.write_all(start)?;
                self.out.write_all(json_line(outcome).as_bytes())?;
            }
        }
        self.written = true;
        Ok(self.out.flush()?)
    }

    /// Closes the json array (an empty one when there was no result).
    pub fn finish(&mut self) -> Result<(), Failure> {
        if self.jq.is_none() && self.format == AnswerOutput::Json {
            self.out
                .write_all(if self.written { b"\n]\n" } else { b"[]\n" })?;
        }
        Ok(self.out.flush()?)
    }
}

/// A result as compact JSON, safe to print (the answer's numbers and keys as they came).
fn json_line(outcome: &Outcome) -> String {
    sanitize::json_for_terminal(&outcome.to_json_text()).into_owned()
}
