//! Every program under `examples-c/` states its expected runs in a header comment; this test
//! lowers each component, snapshots its IR, checks that the IR's text form round-trips, and runs
//! the interpreter on every stated run.
//!
//! Header format (one or more runs per file):
//! ```c
//! // Components: writer reader
//! // run: writer inputs=3,5,-1 limit=12
//! // expect: acquire send.3 release
//! // end: eof
//! ```

use std::path::{Path, PathBuf};

use subst::front::{self, FrontOptions};
use subst::ir::{check, interp, parse, text};

/// One expected run from a header.
#[derive(Debug)]
pub struct ExpectedRun {
    pub component: String,
    pub inputs: Vec<i128>,
    pub limit: usize,
    pub events: Vec<String>,
    pub end: String,
}

/// The components and runs an example's header declares.
pub fn header(path: &Path) -> (Vec<String>, Vec<ExpectedRun>) {
    let source = std::fs::read_to_string(path).expect("example is readable");
    let mut components = Vec::new();
    let mut runs: Vec<ExpectedRun> = Vec::new();
    for line in source.lines() {
        let Some(line) = line.trim().strip_prefix("//") else { continue };
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("Components:") {
            components.extend(rest.split_whitespace().map(str::to_string));
        } else if let Some(rest) = line.strip_prefix("run:") {
            let mut words = rest.split_whitespace();
            let component = words.next().expect("run: names a component").to_string();
            let mut run =
                ExpectedRun { component, inputs: Vec::new(), limit: 100, events: Vec::new(), end: String::new() };
            for w in words {
                if let Some(v) = w.strip_prefix("inputs=") {
                    run.inputs =
                        v.split(',').filter(|s| !s.is_empty()).map(|s| s.parse().expect("an input value")).collect();
                } else if let Some(v) = w.strip_prefix("limit=") {
                    run.limit = v.parse().expect("a limit");
                }
            }
            runs.push(run);
        } else if let Some(rest) = line.strip_prefix("expect:") {
            runs.last_mut().expect("expect: follows run:").events =
                rest.split_whitespace().map(str::to_string).collect();
        } else if let Some(rest) = line.strip_prefix("end:") {
            runs.last_mut().expect("end: follows run:").end = rest.trim().to_string();
        }
    }
    (components, runs)
}

/// The example programs (not the unsupported ones), sorted.
pub fn examples() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples-c")];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).expect("examples-c exists") {
            let p = entry.expect("a directory entry").path();
            if p.is_dir() && p.file_name().is_some_and(|n| n != "unsupported") {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "c") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn snapshot_name(path: &Path, component: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples-c");
    let rel = path.strip_prefix(&root).unwrap_or(path).with_extension("");
    format!("{}__{component}", rel.display()).replace('/', "__")
}

#[test]
fn examples_lower_run_and_round_trip() {
    let examples = examples();
    assert!(examples.len() >= 8, "examples-c/ should hold the example programs");
    let mut failures = Vec::new();
    for path in &examples {
        let (components, runs) = header(path);
        assert!(!components.is_empty(), "{}: no `// Components:` header", path.display());
        assert!(!runs.is_empty(), "{}: no `// run:` header", path.display());
        let program = front::load(std::slice::from_ref(path), &FrontOptions::default())
            .unwrap_or_else(|d| panic!("{}", d.render(false)));
        for name in &components {
            let comp = program.lower(name).unwrap_or_else(|d| panic!("{}", d.render(false)));
            assert!(check::check(&comp).is_empty());
            let printed = text::component(&comp);
            let reparsed = parse::component(&printed).unwrap_or_else(|e| panic!("{}: {e}\n{printed}", path.display()));
            assert_eq!(reparsed, comp, "{}: text form does not round-trip", path.display());
            // Paths in origins are absolute on this machine; snapshots show them relative.
            let root = format!("{}/", env!("CARGO_MANIFEST_DIR"));
            insta::assert_snapshot!(snapshot_name(path, name), printed.replace(&root, ""));
        }
        for run in &runs {
            let comp = program.lower(&run.component).expect("lowered above");
            let limits = interp::Limits { max_steps: 1_000_000, max_events: run.limit };
            let result = interp::run(&comp, &mut interp::Scripted::new(run.inputs.clone()), limits);
            let events: Vec<String> = result.events.iter().map(|e| e.to_string()).collect();
            let end = result.outcome.to_string();
            if events != run.events || end != run.end {
                failures.push(format!(
                    "{} {} inputs={:?}:\n  expected {:?} end {}\n  got      {:?} end {}",
                    path.display(),
                    run.component,
                    run.inputs,
                    run.events,
                    run.end,
                    events,
                    end
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
