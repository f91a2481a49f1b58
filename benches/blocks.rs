//! CEGAR alone (no invariant prover, no bounded search, no only-run: [`subst::check::cegar::run`])
//! with an abstract state at every location (`--blocks single`) and with the block encoding
//! (`--blocks loop`, [`subst::abs::blocks`]), side by side in one run, on the programs of
//! `examples-c/loops`, `examples-c/cegar` and `benches/svcomp`. Prints one row per program:
//! the verdict, abstract states of the last graph, refinements and SMT calls of each, and the
//! ratio of their times. See benches/VERIFY.md.
//!
//!     cargo bench --bench blocks -- [--timeout SECS] [--only SUBSTRING]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use subst::abs::blocks::Blocks;
use subst::abs::{Abstractor, EventView};
use subst::check::cegar::{CPart, CegarOptions, CegarOutcome, run};
use subst::deadline::Deadline;
use subst::front::{self, FrontOptions};

struct Row {
    verdict: String,
    states: usize,
    refinements: usize,
    calls: u64,
    time: Duration,
}

fn cegar(path: &Path, blocks: Blocks, limit: Duration) -> Option<Row> {
    let program = front::load(&[path.to_path_buf()], &FrontOptions::default()).ok()?;
    let comp = program.lower("main").ok()?;
    let mut parts = [CPart::new(Abstractor::new(&comp, EventView::Hidden))];
    let options = CegarOptions { blocks, deadline: Deadline::from_limit(Some(limit)), ..CegarOptions::default() };
    let start = Instant::now();
    let (outcome, stats) = run(&[], &mut parts, None, options);
    let verdict = match outcome {
        CegarOutcome::Holds => "holds".to_string(),
        CegarOutcome::Fails { .. } => "fails".to_string(),
        CegarOutcome::Unknown(r) => format!("unknown ({})", r.to_string().chars().take(24).collect::<String>()),
    };
    Some(Row {
        verdict,
        states: stats.abstract_states,
        refinements: stats.refinements,
        calls: stats.smt.calls,
        time: start.elapsed(),
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut limit = Duration::from_secs(60);
    let mut only = String::new();
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--timeout" if i + 1 < args.len() => {
                limit = Duration::from_secs(args[i + 1].parse().unwrap_or(60));
                i += 1;
            }
            "--only" if i + 1 < args.len() => {
                only = args[i + 1].clone();
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["examples-c/loops", "examples-c/cegar", "benches/svcomp"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        let mut here: Vec<PathBuf> =
            entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "c")).collect();
        here.sort();
        files.extend(here);
    }
    println!(
        "| program | single: verdict | states | refinements | smt calls | loop: verdict | states | refinements | smt calls | time loop / single |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for f in files {
        let name = f.strip_prefix(&root).unwrap_or(&f).display().to_string();
        if !name.contains(&only) {
            continue;
        }
        let (Some(s), Some(l)) = (cegar(&f, Blocks::Single, limit), cegar(&f, Blocks::Loop, limit)) else {
            println!("| `{name}` | not loaded | | | | | | | | |");
            continue;
        };
        println!(
            "| `{name}` | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} |",
            s.verdict,
            s.states,
            s.refinements,
            s.calls,
            l.verdict,
            l.states,
            l.refinements,
            l.calls,
            l.time.as_secs_f64() / s.time.as_secs_f64().max(1e-3)
        );
    }
}
