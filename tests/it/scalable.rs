//! The scalable lock assembly of `examples-c/scalable/` (N clients and a lock server, generated
//! by `examples-c/scalable/gen.py`): at the committed sizes, every engine and every learner
//! gives the verdict of the spec's `check:` lines (MUTEX holds, TURNS fails), so that the
//! measurements of `benches/scalable.sh` compare engines that agree.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The committed sizes.
const SIZES: [usize; 2] = [2, 3];

/// `subst verify` of the assembly with `n` clients for `prop` with `args`: (exit code, stdout).
fn verify(n: usize, prop: &str, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_subst"))
        .current_dir(root())
        .args(["verify", &format!("examples-c/scalable/n{n}/lock.c"), "--assembly", "CS", "--prop", prop, "--no-cache"])
        .args(args)
        .output()
        .expect("subst runs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The `check: CS PROP VERDICT` lines of the spec: (property, exit code).
fn expected(n: usize) -> Vec<(String, i32)> {
    let spec = std::fs::read_to_string(root().join(format!("examples-c/scalable/n{n}/lock.lts"))).expect("the spec");
    let lines: Vec<(String, i32)> = spec
        .lines()
        .filter_map(|l| l.strip_prefix("// check: CS "))
        .map(|l| {
            let (prop, verdict) = l.split_once(' ').expect("PROP VERDICT");
            (prop.to_string(), if verdict == "holds" { 0 } else { 1 })
        })
        .collect();
    assert_eq!(lines.len(), 2, "one property that holds and one that fails");
    lines
}

#[test]
fn every_engine_and_learner_gives_the_verdicts_of_the_spec() {
    // The ag runs search no product first (`--probe-states 0`): their verdicts are the rule's.
    let configs: [&[&str]; 4] = [
        &["--engine", "mono"],
        &["--engine", "ag"],
        &["--engine", "ag", "--learner", "lstar", "--probe-states", "0"],
        &["--engine", "ag", "--learner", "lsharp", "--probe-states", "0"],
    ];
    for n in SIZES {
        for (prop, code) in expected(n) {
            for args in configs {
                let (got, out) = verify(n, &prop, args);
                assert_eq!(got, code, "n{n} {prop} {args:?}:\n{out}");
            }
        }
    }
}

#[test]
fn a_violation_of_turns_is_a_run_where_a_client_other_than_the_first_enters_first() {
    let (_, out) = verify(2, "TURNS", &["--engine", "mono"]);
    let trace = out.lines().find_map(|l| l.trim().strip_prefix("trace: ")).expect("a trace");
    assert_eq!(trace, "lock2 grant2 enter2");
}
