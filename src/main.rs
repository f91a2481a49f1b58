//! The `subst` binary: parse arguments, set up logging, run, turn the outcome into an exit code.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // A reader that stops early (`subst show ... | head`) ends the run the way it ends other
    // Unix tools, by SIGPIPE, instead of a panic in `print!` on a broken pipe.
    // SAFETY: called first, before any other thread exists; SIG_DFL is a valid disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let raw: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let args = match subst::cli::Args::try_parse_from(&raw) {
        Ok(args) => args,
        Err(e) => return ExitCode::from(subst::cli::usage_error(&e, &raw) as u8),
    };
    subst::cli::init_tracing(args.verbose);
    ExitCode::from(subst::cli::run_on_big_stack(args) as u8)
}
