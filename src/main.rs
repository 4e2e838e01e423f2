//! The appdeck binary: parses the arguments, starts the async runtime, and hands over to the
//! library, where everything lives so that tests can drive it.

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = appdeck::cli::args::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("appdeck: cannot start the async runtime: {e}");
            return ExitCode::from(1);
        }
    };
    match cli.command {
        // TUI DISPATCH POINT: `appdeck` and `appdeck --demo` (cli.demo) open the terminal UI of
        // src/tui. Until it lands, print the help and exit 2 (a usage error).
        None => {
            let _ = appdeck::cli::args::command().print_help();
            ExitCode::from(2)
        }
        Some(command) => runtime.block_on(appdeck::cli::run(command, &cli.global, cli.demo)),
    }
}
