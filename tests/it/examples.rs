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

use crate::common;

use std::path::{Path, PathBuf};

use common::header::{self, ExampleHeader};
use subst::front::{self, FrontOptions};
use subst::ir::{check, interp, parse, text};

fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples-c")
}

fn read_header(path: &Path) -> ExampleHeader {
    let text = std::fs::read_to_string(path).expect("example is readable");
    header::parse_header(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn snapshot_name(path: &Path, component: &str) -> String {
    let root = examples_dir();
    let rel = path.strip_prefix(&root).unwrap_or(path).with_extension("");
    format!("{}__{component}", rel.display()).replace('/', "__")
}

#[test]
fn examples_lower_run_and_round_trip() {
    let examples = header::c_files(&examples_dir());
    assert!(examples.len() >= 8, "examples-c/ should hold the example programs");
    let mut failures = Vec::new();
    for path in &examples {
        let ExampleHeader { components, runs, .. } = read_header(path);
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
            if events != run.events || end != run.end.keyword() {
                failures.push(format!(
                    "{} {} inputs={:?}:\n  expected {:?} end {}\n  got      {:?} end {}",
                    path.display(),
                    run.component,
                    run.inputs,
                    run.events,
                    run.end.keyword(),
                    events,
                    end
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
