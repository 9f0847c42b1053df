//! `rephyre`: parse the command line, run the command, and turn any error into one line on
//! stderr (`rephyre: error: …`) with exit status 2.

use clap::error::ErrorKind;
use std::process::ExitCode;

/// Exit status of every error.
const FAILURE: u8 = 2;

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!(
            "rephyre: internal error (a bug, please report it): {}",
            one_line(&info.to_string())
        );
    }));
    let cli = match harness::cli::parse_cli(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => return clap_error(e),
    };
    match harness::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // `rephyre tasks list | head`: the reader went away; that is not an error.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rephyre: error: {}", one_line(&format!("{e:#}")));
            ExitCode::from(FAILURE)
        }
    }
}

/// Help and version go to stdout with status 0; every other parse error is one line.
fn clap_error(e: clap::Error) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprintln!("rephyre: error: a command is needed (see --help)");
            ExitCode::from(FAILURE)
        }
        _ => {
            let text = e.to_string();
            let mut lines = text.lines().map(str::trim).skip_while(|l| l.is_empty());
            let first = lines.next().unwrap_or("invalid command line");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            // "the following required arguments were not provided:" lists them on the lines
            // after it, up to a blank line: name them on the same line.
            let listed = if first.ends_with(':') {
                let names: Vec<&str> = lines.take_while(|l| !l.is_empty()).collect();
                format!(" {}", names.join(", "))
            } else {
                String::new()
            };
            // A bad value of a typed option: say which values it takes, on the same line.
            let values = text
                .lines()
                .map(str::trim)
                .find(|l| l.starts_with("[possible values:"))
                .map_or(String::new(), |l| format!(" {l}"));
            eprintln!(
                "rephyre: error: {}{listed}{values} (see --help)",
                one_line(first)
            );
            ExitCode::from(FAILURE)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Collapse whitespace runs (newlines included) into single spaces.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
