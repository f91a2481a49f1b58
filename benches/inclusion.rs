//! Times `subst::automata::inclusion::check` on one pair of automata in libmata's `.mata` text
//! format; `benches/run.py` runs it beside libmata (`benches/mata_check.py`) on the same files,
//! each case in its own process under a time limit, and prints the comparison. See
//! `benches/README.md`.
//!
//! Usage: `inclusion A.mata B.mata`, or `cargo bench --bench inclusion -- A.mata B.mata`.
//!
//! Prints `loaded` once the files are read (the driver's clock starts there), then one line,
//! `inclusion verdict=included|not-included ms=<best> runs=<n> pairs=<p> [cex=a,b,...]`. The
//! check runs once, and twice more while the runs so far took under two seconds, so fast cases
//! report the best of three and slow ones a single run; reading the files is not timed. A
//! counterexample is checked against both automata after timing, and a wrong one aborts the run.

use std::collections::{HashMap, HashSet};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use subst::automata::dla::{Builder, Dla, StateId, Trace};
use subst::automata::inclusion::{self, Inclusion};

const REPEAT_BUDGET: Duration = Duration::from_secs(2);

fn main() -> ExitCode {
    // `cargo bench` passes `--bench` to every harness-less bench; it means nothing here.
    let paths: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let [a_path, b_path] = paths.as_slice() else {
        eprintln!("usage: inclusion A.mata B.mata (benches/run.sh runs the whole comparison)");
        return ExitCode::SUCCESS;
    };
    let (a, b) = match (read_mata(a_path), read_mata(b_path)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("inclusion: {e}");
            return ExitCode::from(2);
        }
    };
    // The driver's clock starts here.
    println!("loaded");
    let mut times = Vec::new();
    let outcome = loop {
        let start = Instant::now();
        let outcome = inclusion::check(&a, &b);
        times.push(start.elapsed());
        if times.len() == 3 || times.iter().sum::<Duration>() >= REPEAT_BUDGET {
            break outcome;
        }
    };
    let best = times.iter().min().expect("at least one run");
    let ms = best.as_secs_f64() * 1000.0;
    match outcome {
        Inclusion::Included { pairs } => {
            println!("inclusion verdict=included ms={ms:.3} runs={} pairs={pairs}", times.len());
        }
        Inclusion::NotIncluded { trace, pairs } => {
            if !is_witness(&a, &b, &trace) {
                eprintln!("inclusion: the counterexample `{trace}` is not in L(A) \\ L(B)");
                return ExitCode::from(3);
            }
            let cex = trace.events().join(",");
            println!("inclusion verdict=not-included ms={ms:.3} runs={} pairs={pairs} cex={cex}", times.len());
        }
    }
    ExitCode::SUCCESS
}

fn is_witness(a: &Dla, b: &Dla, trace: &Trace) -> bool {
    a.accepts(trace) && !b.accepts(trace)
}

/// Reads the explicit NFA form of libmata's `.mata` format: `@NFA-explicit`, `%Initial` and
/// `%Final` lines listing state names, and one `source symbol target` transition per line.
/// Other `%` lines (`%Alphabet-auto`) and `#` comments are skipped. States are numbered in order
/// of first appearance, which keeps the reader to two passes over the lines.
fn read_mata(path: &str) -> Result<Dla, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut initial: Vec<&str> = Vec::new();
    let mut finals: HashSet<&str> = HashSet::new();
    let mut transitions: Vec<(&str, &str, &str)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        match words.next() {
            None => {}
            Some(w) if w.starts_with('#') => {}
            Some("@NFA-explicit") => {}
            Some(w) if w.starts_with('@') => return Err(format!("{path}:{}: only @NFA-explicit is read", n + 1)),
            Some("%Initial") => initial.extend(words),
            Some("%Final") => finals.extend(words),
            Some(w) if w.starts_with('%') => {}
            Some(source) => match (words.next(), words.next(), words.next()) {
                (Some(symbol), Some(target), None) => transitions.push((source, symbol, target)),
                _ => return Err(format!("{path}:{}: expected `source symbol target`", n + 1)),
            },
        }
    }
    let mut builder = Builder::new();
    let mut ids: HashMap<&str, StateId> = HashMap::new();
    let mut state =
        |builder: &mut Builder, name| *ids.entry(name).or_insert_with(|| builder.add_state(&[], finals.contains(name)));
    for &name in &initial {
        let id = state(&mut builder, name);
        builder.set_initial(id);
    }
    for &name in &finals {
        state(&mut builder, name);
    }
    for &(source, symbol, target) in &transitions {
        let (from, to) = (state(&mut builder, source), state(&mut builder, target));
        builder.add_transition(from, symbol, to);
    }
    Ok(builder.build())
}
