//! The `subst` binary: parse arguments, set up logging, run, turn the outcome into an exit code.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let raw: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let args = match subst::cli::Args::try_parse_from(&raw) {
        Ok(args) => args,
        Err(e) => return ExitCode::from(subst::cli::usage_error(&e, &raw) as u8),
    };
    subst::cli::init_tracing(args.verbose);
    ExitCode::from(subst::cli::run_on_big_stack(args) as u8)
}
