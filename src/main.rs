//! The `subst` binary: parse arguments, set up logging, run, turn the outcome into an exit code.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = subst::cli::Args::parse();
    subst::cli::init_tracing(args.verbose);
    ExitCode::from(subst::cli::run_on_big_stack(args) as u8)
}
