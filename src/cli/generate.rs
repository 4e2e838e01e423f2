//! `appdeck completions SHELL` and `appdeck man`: generated from the clap definition, so they
//! always match the commands and flags of this very binary (tested by running the binary, in
//! tests/cli_messages.rs).

use std::io::Write;

use clap_complete::Shell;

use super::Failure;
use super::args;

/// Writes the completion script for `shell`.
pub fn completions(shell: Shell, out: &mut impl Write) -> Result<(), Failure> {
    let mut command = args::command();
    let name = command.get_name().to_owned();
    clap_complete::generate(shell, &mut command, name, out);
    out.flush()?;
    Ok(())
}

/// Writes the manual page, in roff.
pub fn man_page(out: &mut impl Write) -> Result<(), Failure> {
    clap_mangen::Man::new(args::command()).render(out)?;
    out.flush()?;
    Ok(())
}
