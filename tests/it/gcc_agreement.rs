//! The interpreter agrees with gcc: for the same inputs, the IR of a component and the native
//! program compiled by gcc (`-fwrapv`, x86-64) perform the same events and end the same way.
//!
//! Checked on every example whose stated runs do not fault (a fault is undefined behaviour, so
//! gcc's behaviour there is not a reference) and on 240 programs from the seeded generator in
//! `tests/common/generator.rs`, each with several input lists, and 220 more that also use structs
//! and pointers to known objects.

use crate::common;

use std::path::Path;
use std::sync::Mutex;

use common::generator;
use common::header::{self, ExpectedEnd};
use common::native::{End, Native, NativeRun};
use subst::front::{self, FrontOptions};
use subst::ir::{Component, interp};

fn outcome_name(end: &End) -> String {
    end.keyword().to_string()
}

/// Runs both and describes the first difference, if any.
fn compare(comp: &Component, native: &Native, inputs: &[i128], limit: usize) -> Option<String> {
    let NativeRun { events, end } = native.run(inputs, limit);
    let limits = interp::Limits { max_steps: 5_000_000, max_events: limit };
    let run = interp::run(comp, &mut interp::Scripted::new(inputs.iter().copied()), limits);
    let ours: Vec<String> = run.events.iter().map(|e| e.to_string()).collect();
    let ours_end = run.outcome.to_string();
    if ours == events && ours_end == outcome_name(&end) {
        return None;
    }
    Some(format!("inputs {inputs:?}:\n  gcc:         {events:?} end {end:?}\n  interpreter: {ours:?} end {ours_end}"))
}

fn input_lists(seed: u64) -> Vec<Vec<i128>> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let extremes = [0, 1, -1, 2147483647, -2147483648, 4294967295, 255, -128, 9223372036854775807, 65535, 7, -7];
    let mut random: Vec<i128> = Vec::new();
    for _ in 0..40 {
        let r = next();
        random.push(match r % 4 {
            0 => extremes[(r >> 8) as usize % extremes.len()],
            1 => (r >> 8) as i64 as i128 % 20,
            2 => (r >> 3) as i32 as i128,
            _ => (r >> 1) as i64 as i128,
        });
    }
    vec![
        vec![],
        (0..30).map(|i| (i * 7 % 11) - 3).collect(),
        extremes.iter().copied().cycle().take(36).collect(),
        random,
    ]
}

#[test]
fn examples_agree_with_gcc() {
    let mut failures = Vec::new();
    let mut compared = 0;
    for path in header::c_files(&std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples-c")) {
        let text = std::fs::read_to_string(&path).expect("example is readable");
        let header::ExampleHeader { components, runs, .. } = header::parse_header(&text).expect("a header");
        let program = front::load(std::slice::from_ref(&path), &FrontOptions::default()).expect("example loads");
        for name in components {
            let comp = program.lower(&name).expect("example lowers");
            let events = common::native::scan_events(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let native = Native::compile(&path, &name, &events)
                .unwrap_or_else(|e| panic!("{}: gcc failed: {e}", path.display()));
            for run in runs.iter().filter(|r| r.component == name && !matches!(r.end, ExpectedEnd::Fault(_))) {
                compared += 1;
                if let Some(diff) = compare(&comp, &native, &run.inputs, run.limit) {
                    failures.push(format!("{} {name} {diff}", path.display()));
                }
            }
            for inputs in input_lists(path.as_os_str().len() as u64) {
                let limits = interp::Limits { max_steps: 5_000_000, max_events: 40 };
                let run = interp::run(&comp, &mut interp::Scripted::new(inputs.clone()), limits);
                // Runs that reach undefined behaviour have no reference behaviour.
                if matches!(run.outcome, interp::Outcome::Fault(_)) {
                    continue;
                }
                compared += 1;
                if let Some(diff) = compare(&comp, &native, &inputs, 40) {
                    failures.push(format!("{} {name} {diff}", path.display()));
                }
            }
        }
    }
    assert!(compared > 20, "too few runs compared: {compared}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const GENERATED: u64 = 240;

#[test]
fn generated_programs_agree_with_gcc() {
    let failures = Mutex::new(Vec::new());
    let next_seed = Mutex::new(0u64);
    let faults = Mutex::new(0usize);
    std::thread::scope(|s| {
        for _ in 0..std::thread::available_parallelism().map_or(2, |n| n.get()).min(4) {
            s.spawn(|| {
                loop {
                    let seed = {
                        let mut n = next_seed.lock().unwrap();
                        if *n >= GENERATED {
                            return;
                        }
                        *n += 1;
                        *n - 1
                    };
                    if let Some(f) = check_generated(seed, &faults) {
                        failures.lock().unwrap().push(f);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{} of {GENERATED} programs disagree:\n{}", failures.len(), failures.join("\n\n"));
    // The generator avoids undefined behaviour, so the interpreter must never report a fault.
    assert_eq!(faults.into_inner().unwrap(), 0, "the interpreter reported faults in UB-free programs");
}

/// Generated programs with structs and pointers to known objects.
const GENERATED_WITH_MEMORY: u64 = 220;

#[test]
fn generated_programs_with_structs_and_pointers_agree_with_gcc() {
    let failures = Mutex::new(Vec::new());
    let next_seed = Mutex::new(0u64);
    let faults = Mutex::new(0usize);
    std::thread::scope(|s| {
        for _ in 0..std::thread::available_parallelism().map_or(2, |n| n.get()).min(4) {
            s.spawn(|| {
                loop {
                    let seed = {
                        let mut n = next_seed.lock().unwrap();
                        if *n >= GENERATED_WITH_MEMORY {
                            return;
                        }
                        *n += 1;
                        *n - 1
                    };
                    if let Some(f) = check_program(seed, generator::program_with_memory(seed), &faults) {
                        failures.lock().unwrap().push(f);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {GENERATED_WITH_MEMORY} programs disagree:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert_eq!(faults.into_inner().unwrap(), 0, "the interpreter reported faults in UB-free programs");
}

fn check_generated(seed: u64, faults: &Mutex<usize>) -> Option<String> {
    check_program(seed, generator::program(seed), faults)
}

fn check_program(seed: u64, g: generator::GenProgram, faults: &Mutex<usize>) -> Option<String> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join(format!("gen{seed}.c"));
    std::fs::write(&path, &g.source).expect("write the program");
    let program = match front::load(std::slice::from_ref(&path), &FrontOptions::default()) {
        Ok(p) => p,
        Err(d) => {
            return Some(format!("seed {seed}: front end rejected the program:\n{}\n{}", d.render(false), g.source));
        }
    };
    let comp = match program.lower(&g.component) {
        Ok(c) => c,
        Err(d) => return Some(format!("seed {seed}: lowering failed:\n{}\n{}", d.render(false), g.source)),
    };
    let native = match Native::compile(Path::new(&path), &g.component, &g.events) {
        Ok(n) => n,
        Err(e) => return Some(format!("seed {seed}: gcc failed: {e}")),
    };
    for inputs in input_lists(seed) {
        let limits = interp::Limits { max_steps: 5_000_000, max_events: 60 };
        let run = interp::run(&comp, &mut interp::Scripted::new(inputs.clone()), limits);
        if matches!(run.outcome, interp::Outcome::Fault(_)) {
            *faults.lock().unwrap() += 1;
        }
        if let Some(diff) = compare(&comp, &native, &inputs, 60) {
            return Some(format!("seed {seed} {diff}\n{}", g.source));
        }
    }
    None
}
