//! DynamicCheck after an upgrade against a check of the upgraded assembly from scratch (paper 003
//! Section 5.3, Table 1), on the token ring of `benches/dynamic_ring.lts`.
//!
//! For each ring size N and each upgraded position (the first, middle and last node, which are
//! also the first, middle and last level of subst's component order), the bench writes the old
//! and the new assembly under `target/dynamic/` and runs three checks of the property
//! ONE_TOKEN with `subst::check::ag::DynamicChecker`:
//!
//! - *original*: a fresh checker on the old parts (`T_orig`);
//! - *upgrade*: the same checker, which keeps its tables, assumptions and results, on the new
//!   parts (`T_ug`);
//! - *scratch*: a fresh checker on the new parts.
//!
//! It prints a Markdown table with the membership queries (`AgStats::membership`) and times of
//! each, and the ratios upgrade/scratch and upgrade/original. Each run is repeated (the upgrade
//! on clones of the checker that ran the original) three times, and up to five while the
//! repetitions took under two seconds, and the best time is kept; the counts must not change
//! between repetitions.
//!
//! With `--breakdown`, it also shows where the time of an upgrade goes when every level's table
//! is re-used (the last node upgraded, at the largest size): per level, the time to rebuild the
//! candidate from the re-used table (`Learner::close` and `Learner::hypothesis`, no queries)
//! and the time of Oracle 1 on it.
//!
//! `--learner lstar|lsharp` (L* by default) and `--reuse hints|revalidate|adaptive` (the
//! checker's default, hints, by default) choose the learner and how the upgrade run re-uses
//! the old tables or trees.
//!
//! With `--models`, it runs instead the generated upgrades of the FSP models of
//! `tests/it/dynamic.rs` (16 per model: one transition of one part removed or added, the same
//! pseudo-random choices as the test) with L# and each re-use mode, and prints per mode the
//! membership queries and the time of the upgrade runs, summed, against the runs from scratch.
//!
//! Usage: `cargo bench --bench dynamic [-- --sizes 3,6,9 --positions first,middle,last
//! --breakdown --learner lsharp --reuse adaptive]`, `cargo bench --bench dynamic -- --models`.
//! `subst check OLD NEW --prop ONE_TOKEN --stats` on the written files runs the original and
//! the upgrade the same way from the command line; `subst verify NEW --prop ONE_TOKEN
//! --engine ag --stats` runs the check from scratch.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use subst::automata::Dla;
use subst::automata::dla::{Builder, StateId, TAU_NAME};
use subst::check::ag::{AgStats, AssumptionOracle, DynamicChecker, Outcome, Reuse, expose_errors};
use subst::check::verify::ordered_parts;
use subst::learn::lstar::FnMembership;
use subst::learn::{Algorithm, CexMode, Learner};

const TEMPLATE: &str = include_str!("dynamic_ring.lts");
const DEFAULT_SIZES: [usize; 8] = [3, 6, 9, 12, 15, 18, 21, 24];
const REPEAT_BUDGET: Duration = Duration::from_secs(2);
const MIN_REPEATS: usize = 3;
const MAX_REPEATS: usize = 5;

/// Which node is upgraded.
#[derive(Clone, Copy, Debug)]
enum Position {
    First,
    Middle,
    Last,
}

impl Position {
    fn node(self, n: usize) -> usize {
        match self {
            Position::First => 0,
            Position::Middle => n / 2,
            Position::Last => n - 1,
        }
    }

    fn parse(s: &str) -> Option<Position> {
        match s {
            "first" => Some(Position::First),
            "middle" => Some(Position::Middle),
            "last" => Some(Position::Last),
            _ => None,
        }
    }
}

fn main() -> ExitCode {
    let mut sizes: Vec<usize> = DEFAULT_SIZES.to_vec();
    let mut positions = vec![Position::First, Position::Middle, Position::Last];
    let mut breakdown = false;
    let mut setup = Setup { learner: Algorithm::LStar, reuse: Reuse::default() };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            // `cargo bench` passes `--bench` to every harness-less bench.
            "--bench" => {}
            "--breakdown" => breakdown = true,
            "--models" => return models(),
            "--learner" => match args.next().as_deref() {
                Some("lstar") => setup.learner = Algorithm::LStar,
                Some("lsharp") => setup.learner = Algorithm::LSharp,
                _ => return usage("--learner takes lstar or lsharp"),
            },
            "--reuse" => match args.next().as_deref().and_then(parse_reuse) {
                Some(r) => setup.reuse = r,
                None => return usage("--reuse takes hints, revalidate or adaptive"),
            },
            "--sizes" => match args.next().map(|v| v.split(',').map(str::parse).collect::<Result<Vec<usize>, _>>()) {
                Some(Ok(v)) if v.iter().all(|&n| n >= 2) => sizes = v,
                _ => return usage("--sizes takes a list of ring sizes of at least 2, e.g. 3,6,9"),
            },
            "--positions" => match args.next().map(|v| v.split(',').map(Position::parse).collect::<Option<Vec<_>>>()) {
                Some(Some(v)) => positions = v,
                _ => return usage("--positions takes a list of first, middle, last"),
            },
            other => return usage(&format!("unknown argument `{other}`")),
        }
    }
    if sizes.is_empty() {
        return usage("--sizes needs at least one size");
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target").join("dynamic");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("dynamic: cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    println!(
        "| N | upgraded node (level) | MQ orig | MQ upgrade | MQ scratch | MQ upgrade/scratch | ms orig | ms upgrade \
         | ms scratch | time upgrade/scratch | time upgrade/orig | levels re-validated |"
    );
    println!("|{}", "---|".repeat(12));
    for &n in &sizes {
        for &position in &positions {
            match measure(n, position, &dir, setup) {
                Ok(row) => println!("{row}"),
                Err(e) => {
                    eprintln!("dynamic: N={n} {position:?}: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    if breakdown {
        let n = *sizes.iter().max().expect("at least one size");
        if let Err(e) = print_breakdown(n) {
            eprintln!("dynamic: breakdown at N={n}: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn usage(problem: &str) -> ExitCode {
    eprintln!("dynamic: {problem}");
    eprintln!("usage: dynamic [--sizes 3,6,9] [--positions first,middle,last] [--breakdown]");
    ExitCode::from(2)
}

/// The template with the three constants set.
fn instantiate(n: usize, k: usize, version: u32) -> Result<String, String> {
    let mut out = String::new();
    let mut set = [false; 3];
    for line in TEMPLATE.lines() {
        let replaced = if line.starts_with("const N =") {
            set[0] = true;
            format!("const N = {n}")
        } else if line.starts_with("const K =") {
            set[1] = true;
            format!("const K = {k}")
        } else if line.starts_with("const V =") {
            set[2] = true;
            format!("const V = {version}")
        } else {
            line.to_string()
        };
        out.push_str(&replaced);
        out.push('\n');
    }
    if set != [true; 3] {
        return Err("the template lacks one of `const N`, `const K`, `const V`".into());
    }
    Ok(out)
}

/// The parts of RING in subst's order, and ONE_TOKEN as `subst verify` prepares it.
fn load(source: &str, file: &str) -> Result<(Vec<Dla>, Dla), String> {
    let spec = subst::spec::parse(source, file).map_err(|e| format!("{e:?}"))?;
    let assembly = spec.assembly("RING").map_err(|e| format!("{e:?}"))?;
    let parts = ordered_parts(&assembly, &[]).map_err(|e| format!("{e:?}"))?;
    let hidden = |e: &str| assembly.is_hidden(e);
    let property = spec
        .process("ONE_TOKEN")
        .map_err(|e| format!("{e:?}"))?
        .relabel(&|e| if hidden(e) { vec![] } else { vec![e.to_string()] });
    Ok((parts, property))
}

/// One timed run; the outcome must be `Holds`.
fn timed(
    checker: &mut DynamicChecker,
    parts: &[Dla],
    property: &Dla,
    what: &str,
) -> Result<(AgStats, Duration), String> {
    let start = Instant::now();
    let (outcome, stats) = checker.run(parts, Some(property));
    let time = start.elapsed();
    match outcome {
        Outcome::Holds => Ok((stats, time)),
        Outcome::Violated(trace) => Err(format!("the {what} run reports a violation: {}", trace.join(" "))),
        Outcome::Stopped => Err(format!("the {what} run stopped without a deadline")),
    }
}

/// Runs `make` and then the run on its checker, repeatedly within the budget: the statistics,
/// the best time, and the checker after the first run.
fn best_of(
    make: &dyn Fn() -> DynamicChecker,
    parts: &[Dla],
    property: &Dla,
    what: &str,
) -> Result<(AgStats, Duration, DynamicChecker), String> {
    let mut first = make();
    let (stats, mut best) = timed(&mut first, parts, property, what)?;
    let mut spent = best;
    let mut runs = 1;
    while runs < MIN_REPEATS || (runs < MAX_REPEATS && spent < REPEAT_BUDGET) {
        let (again, time) = timed(&mut make(), parts, property, what)?;
        if again.membership != stats.membership {
            return Err(format!("the {what} run asked {} queries, then {}", stats.membership, again.membership));
        }
        best = best.min(time);
        spent += time;
        runs += 1;
    }
    Ok((stats, best, first))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn percent(a: f64, b: f64) -> String {
    if b == 0.0 { "-".into() } else { format!("{:.2}%", 100.0 * a / b) }
}

fn measure(n: usize, position: Position, dir: &std::path::Path, setup: Setup) -> Result<String, String> {
    let k = position.node(n);
    let (old_src, new_src) = (instantiate(n, k, 1)?, instantiate(n, k, 2)?);
    let old_file = dir.join(format!("ring-N{n}-K{k}-old.lts"));
    let new_file = dir.join(format!("ring-N{n}-K{k}-new.lts"));
    for (file, src) in [(&old_file, &old_src), (&new_file, &new_src)] {
        std::fs::write(file, src).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    }
    let (old_parts, old_property) = load(&old_src, &old_file.display().to_string())?;
    let (new_parts, new_property) = load(&new_src, &new_file.display().to_string())?;
    let changed: Vec<usize> = (0..old_parts.len()).filter(|&i| old_parts[i] != new_parts[i]).collect();
    let [level] = changed.as_slice() else {
        return Err(format!("expected one changed component, found levels {changed:?}"));
    };

    let fresh = || DynamicChecker::new(CexMode::RivestSchapire).with_algorithm(setup.learner).with_reuse(setup.reuse);
    let (original, t_orig, checker) = best_of(&fresh, &old_parts, &old_property, "original")?;
    let (upgrade, t_ug, _) = best_of(&|| checker.clone(), &new_parts, &new_property, "upgrade")?;
    let (scratch, t_scratch, _) = best_of(&fresh, &new_parts, &new_property, "scratch")?;
    let revalidated = format!("{:?}", upgrade.revalidated);
    Ok(format!(
        "| {n} | {k} ({level}) | {} | {} | {} | {} | {:.1} | {:.1} | {:.1} | {} | {} | {revalidated} |",
        original.membership,
        upgrade.membership,
        scratch.membership,
        percent(upgrade.membership as f64, scratch.membership as f64),
        ms(t_orig),
        ms(t_ug),
        ms(t_scratch),
        percent(ms(t_ug), ms(t_scratch)),
        percent(ms(t_ug), ms(t_orig)),
    ))
}

/// Where an upgrade run spends its time when it re-uses every table: after the original run,
/// each level's candidate is rebuilt from its table as the upgrade run does, and Oracle 1 is run
/// on it; both are timed.
fn print_breakdown(n: usize) -> Result<(), String> {
    let src = instantiate(n, n - 1, 1)?;
    let (parts, property) = load(&src, "dynamic_ring.lts")?;
    let (parts, property) = expose_errors(&parts, Some(&property), &[]);
    let mut checker = DynamicChecker::new(CexMode::RivestSchapire).with_algorithm(subst::learn::Algorithm::LStar);
    checker.run(&parts, property.as_ref());
    let tables: Vec<_> = checker.tables().into_iter().map(|t| t.cloned()).collect();
    let assumptions: Vec<Option<Dla>> = checker.assumptions().into_iter().map(|a| a.cloned()).collect();
    println!();
    println!("Upgrade of node {} at N = {n}: where the re-used levels spend their time", n - 1);
    println!();
    println!("| level | rows S | columns E | letters | answers | ms rebuild candidate | ms Oracle 1 |");
    println!("|{}", "---|".repeat(7));
    let (mut rebuild_total, mut oracle_total) = (Duration::ZERO, Duration::ZERO);
    for (level, table) in tables.iter().enumerate() {
        let table = table.clone().ok_or_else(|| format!("level {level} has no table"))?;
        let level_property = if level == 0 { property.clone() } else { assumptions[level - 1].clone() };
        let start = Instant::now();
        let mut learner = Learner::from_table(table.clone(), CexMode::RivestSchapire, true);
        let mut no_queries = FnMembership(|w: &[String]| panic!("a re-used table asked `{}`", w.join(" ")));
        learner.close(&mut no_queries);
        let candidate = learner.hypothesis();
        let rebuild = start.elapsed();
        let oracle = AssumptionOracle::new(&parts[level], level_property.as_ref(), &table.alphabet);
        let start = Instant::now();
        if oracle.oracle1(&candidate).is_some() {
            return Err(format!("Oracle 1 rejects the re-used candidate of level {level}"));
        }
        let check = start.elapsed();
        println!(
            "| {level} | {} | {} | {} | {} | {:.2} | {:.2} |",
            table.s.len(),
            table.e.len(),
            table.alphabet.len(),
            table.answers.len(),
            ms(rebuild),
            ms(check)
        );
        rebuild_total += rebuild;
        oracle_total += check;
    }
    println!("| all | | | | | {:.1} | {:.1} |", ms(rebuild_total), ms(oracle_total));
    Ok(())
}

/// The learner and the re-use mode of the ring runs.
#[derive(Clone, Copy, Debug)]
struct Setup {
    learner: Algorithm,
    reuse: Reuse,
}

fn parse_reuse(s: &str) -> Option<Reuse> {
    match s {
        "hints" => Some(Reuse::Hints),
        "revalidate" => Some(Reuse::Revalidate),
        "adaptive" => Some(Reuse::Adaptive),
        "hints-then-adaptive" => Some(Reuse::HintsThenAdaptive),
        _ => None,
    }
}

/// The FSP models of `tests/it/dynamic.rs`: file, assembly, property.
const MODELS: &[(&str, &str, &str)] = &[
    ("paper000.lts", "SYS", "ORDER"),
    ("paper000.lts", "BROKEN", "ORDER"),
    ("mutex.lts", "SEMADEMO", "MUTEX"),
    ("buffer.lts", "PRODCONS", "BOUNDED"),
    ("pipeline.lts", "PIPELINE", "ORDERED"),
    ("token_ring.lts", "RING", "ONE_TOKEN"),
    ("carpark.lts", "CARPARK", "CAPACITY"),
    ("readers_writers.lts", "READERS_WRITERS", "SAFE_RW"),
    ("abp.lts", "ABP", "EXACTLY_ONCE"),
    ("lock.lts", "LOCK_MODEL", "GRANTED"),
];

/// A copy of `d` with one transition added (`add`) or removed, chosen by `pick` (as in
/// `tests/it/dynamic.rs`).
fn mutate(d: &Dla, add: bool, pick: u64) -> Dla {
    let mut b = Builder::new();
    for e in d.alphabet() {
        b.add_event(e);
    }
    for s in d.states() {
        match s.kind {
            subst::automata::dla::Kind::Error => b.add_error_state(),
            subst::automata::dla::Kind::Normal { accepting } => b.add_state(&[], accepting),
        };
    }
    let all: Vec<(usize, u32, StateId)> =
        d.states().iter().enumerate().flat_map(|(i, s)| s.out.iter().map(move |t| (i, t.event, t.to))).collect();
    let skip = if add || all.is_empty() { usize::MAX } else { (pick % all.len() as u64) as usize };
    for (k, &(from, e, to)) in all.iter().enumerate() {
        if k != skip {
            let name = if e == subst::automata::TAU { TAU_NAME } else { d.event_name(e) };
            b.add_transition(StateId(from as u32), name, to);
        }
    }
    if add && !d.alphabet().is_empty() {
        let n = d.n_states() as u64;
        let from = StateId((pick % n) as u32);
        let to = StateId(((pick / 7) % n) as u32);
        if !d.is_error(from) {
            b.add_transition(from, &d.alphabet()[(pick / 13) as usize % d.alphabet().len()], to);
        }
    }
    for &i in d.initial() {
        b.set_initial(i);
    }
    b.build()
}

/// The generated upgrades of the FSP models, with L# and every re-use mode.
fn models() -> ExitCode {
    let mut cases = Vec::new();
    let mut seed: u64 = 0x5eed;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for &(file, assembly, property) in MODELS {
        let path = format!("{}/specs/{file}", env!("CARGO_MANIFEST_DIR"));
        let Ok(spec) = subst::spec::load(std::path::Path::new(&path)) else {
            eprintln!("dynamic: cannot load {path}");
            return ExitCode::FAILURE;
        };
        let (Ok(a), Ok(p)) = (spec.assembly(assembly), spec.process(property)) else {
            eprintln!("dynamic: {file}: no {assembly} or {property}");
            return ExitCode::FAILURE;
        };
        let Ok(parts) = ordered_parts(&a, &[]) else {
            eprintln!("dynamic: {file}: cannot order the parts");
            return ExitCode::FAILURE;
        };
        let property = p.relabel(&|e| if a.is_hidden(e) { vec![] } else { vec![e.to_string()] });
        for _ in 0..16 {
            let k = (next() % parts.len() as u64) as usize;
            let mut new_parts = parts.clone();
            new_parts[k] = mutate(&parts[k], next() % 2 == 0, next());
            cases.push((parts.clone(), new_parts, property.clone()));
        }
    }
    println!(
        "| reuse | upgrades | MQ upgrade | MQ scratch | MQ upgrade/scratch | ms upgrade | ms scratch | time upgrade/scratch |"
    );
    println!("|{}", "---|".repeat(8));
    for reuse in [Reuse::Hints, Reuse::Revalidate, Reuse::Adaptive, Reuse::HintsThenAdaptive] {
        let fresh = || {
            DynamicChecker::new(CexMode::RivestSchapire)
                .with_algorithm(Algorithm::LSharp)
                .with_reuse(reuse)
                .with_probe(0)
        };
        let (mut mq_up, mut mq_scratch, mut t_up, mut t_scratch) = (0, 0, Duration::ZERO, Duration::ZERO);
        for (old, new, property) in &cases {
            let mut checker = fresh();
            checker.run(old, Some(property));
            // The best of three for the times; the counts do not change.
            let mut best = Duration::MAX;
            let mut mq = 0;
            for _ in 0..3 {
                let mut c = checker.clone();
                let start = Instant::now();
                let (_, stats) = c.run(new, Some(property));
                best = best.min(start.elapsed());
                mq = stats.membership;
            }
            mq_up += mq;
            t_up += best;
            let mut best = Duration::MAX;
            for _ in 0..3 {
                let start = Instant::now();
                let (_, stats) = fresh().run(new, Some(property));
                best = best.min(start.elapsed());
                mq = stats.membership;
            }
            mq_scratch += mq;
            t_scratch += best;
        }
        println!(
            "| {reuse:?} | {} | {mq_up} | {mq_scratch} | {} | {:.1} | {:.1} | {} |",
            cases.len(),
            percent(mq_up as f64, mq_scratch as f64),
            ms(t_up),
            ms(t_scratch),
            percent(ms(t_up), ms(t_scratch)),
        );
    }
    ExitCode::SUCCESS
}
