//! `subst check` on C (containment): the verdicts of the old/new pairs of `examples-c/contain/`
//! and `benches/contain/` against the answers in their headers, an independent check of every
//! missing behaviour reported, snapshots of the reports, and the SARIF report against the SARIF
//! 2.1.0 schema.
//!
//! A pair's new file opens with
//!
//! ```c
//! // check: contained | not contained
//! // removed: PROCESS        (optional: the --removed process)
//! // missing: e1 e2 ...      (not contained: a shortest missing trace, which must be reported)
//! // divergence: LINE        (not contained: the line of the new file where it is cut off)
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use subst::abs::blocks::Blocks;
use subst::abs::refine::{Replay, simulate};
use subst::check::cegar::{CegarOptions, run_labels};
use subst::check::contain::{ContainOptions, ContainOutcome};
use subst::check::substitution::{self, Change};
use subst::front::{self, FrontOptions};
use subst::ir::interp;
use subst::ir::{Component, Event, Stmt};
use subst::smt::{Encoder, Smt, Take};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A pair: its folder, the old and new C files and the spec.
struct Pair {
    name: String,
    old: PathBuf,
    new: PathBuf,
    spec: PathBuf,
    contained: bool,
    removed: Option<String>,
    missing: Option<Vec<String>>,
    divergence: Option<u32>,
}

fn only_file(dir: &Path, ext: &str) -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    assert_eq!(found.len(), 1, "one .{ext} file in {}", dir.display());
    found.pop().expect("one")
}

fn pairs(under: &str) -> Vec<Pair> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join(under))
        .expect("a folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let new = only_file(&dir.join("new"), "c");
            let text = std::fs::read_to_string(&new).expect("readable");
            let header = |key: &str| {
                text.lines().take(8).find_map(|l| l.strip_prefix(&format!("// {key}:")).map(|v| v.trim().to_string()))
            };
            let check = header("check").unwrap_or_else(|| panic!("{}: no `// check:` line", new.display()));
            Pair {
                name: dir.file_name().expect("a name").to_string_lossy().into_owned(),
                old: only_file(&dir.join("old"), "c"),
                spec: only_file(&dir, "lts"),
                new,
                contained: check == "contained",
                removed: header("removed"),
                missing: header("missing").map(|m| m.split_whitespace().map(String::from).collect()),
                divergence: header("divergence").map(|d| d.parse().expect("a line number")),
            }
        })
        .collect()
}

fn load(path: &Path, spec: &subst::spec::Spec) -> front::Program {
    let options = FrontOptions { families: spec.family_ranges(), ..FrontOptions::default() };
    front::load(&[path.to_path_buf()], &options).expect("loads")
}

/// Whether some run of `comp` performs `trace`, decided by symbolic simulation of every path of
/// the IR that could perform it (up to `max_edges` edges): `Ok(false)` when each one is
/// infeasible, `Err` when a path was cut by the bound.
fn can_perform(comp: &Component, trace: &[String], max_edges: usize) -> Result<bool, String> {
    let enc = Encoder::new(comp);
    let mut smt = Smt::new(subst::smt::DEFAULT_QUERY_BUDGET);
    let succ = comp.successors();
    let mut stack: Vec<(Vec<(usize, Take)>, usize)> = vec![(Vec::new(), 0)];
    while let Some((path, pos)) = stack.pop() {
        if pos == trace.len() {
            return Ok(true);
        }
        if path.len() >= max_edges {
            return Err(format!("a path of {max_edges} edges still follows {}", trace[..pos].join(" ")));
        }
        let at = path.last().map_or(comp.entry, |&(e, _)| comp.edges[e].to);
        for &e in succ.get(at.index()).map(Vec::as_slice).unwrap_or(&[]) {
            let label = &trace[pos];
            let value =
                |name: &str| label.strip_prefix(name).and_then(|r| r.strip_prefix('.')).and_then(|v| v.parse().ok());
            let mut steps: Vec<(Take, usize)> = Vec::new();
            match &comp.edges[e].stmt {
                Stmt::Event(Event::Plain(n)) if n == subst::front::ERROR_EVENT => {
                    if *label == format!("{}!{n}", comp.name) {
                        steps.push((Take::Normal, pos + 1));
                    }
                }
                Stmt::Event(Event::Plain(n)) => {
                    if label == n {
                        steps.push((Take::Normal, pos + 1));
                    }
                }
                Stmt::Event(ev) => {
                    if let Some(v) = value(ev.name()) {
                        steps.push((Take::Value(v), pos + 1));
                    }
                }
                Stmt::Check(_, f) => {
                    steps.push((Take::Normal, pos));
                    if *label == format!("{}!{}", comp.name, f.keyword()) {
                        steps.push((Take::Fault, pos + 1));
                    }
                }
                _ => steps.push((Take::Normal, pos)),
            }
            for (take, next) in steps {
                let mut p = path.clone();
                p.push((e, take));
                match simulate(&enc, &mut smt, &p).map_err(|e| e.to_string())? {
                    Replay::Feasible(_) => stack.push((p, next)),
                    Replay::Infeasible { .. } => {}
                }
            }
        }
    }
    Ok(false)
}

/// Runs containment on a pair through the library and checks its verdict and, independently,
/// every missing behaviour: the interpreter replays it on the old version, and symbolic
/// simulation of the new version finds no run that performs it but a run of all its events
/// except the last (a shortest missing trace); no two reported traces are one a prefix of the
/// other.
fn check_pair(pair: &Pair, removed: Option<&str>, contained: bool) -> Vec<String> {
    check_pair_with(pair, removed, contained, Blocks::Single)
}

/// Containment of the pair in `dir` (with the process `removed` taken out of the old version's
/// behaviours) through the library, at the CLI's default of five missing behaviours, with the
/// may-abstractions encoded as `blocks` says. Each is run once per test binary, in a thread of
/// its own (Z3's context is per thread, and the models it picks can depend on the terms made
/// in it before): the test of a folder's answers and the tests about how one pair of it is
/// decided read the same run.
fn containment_run(dir: &Path, removed: Option<&str>, blocks: Blocks) -> &'static substitution::Substitution {
    type Cells = BTreeMap<(PathBuf, Option<String>, bool), &'static OnceLock<substitution::Substitution>>;
    static RUNS: Mutex<Cells> = Mutex::new(BTreeMap::new());
    let key = (dir.to_path_buf(), removed.map(String::from), blocks == Blocks::Loop);
    let cell: &'static OnceLock<_> = RUNS.lock().unwrap().entry(key).or_insert_with(|| Box::leak(Box::default()));
    cell.get_or_init(|| {
        let run = || {
            let (old, new, spec) =
                (only_file(&dir.join("old"), "c"), only_file(&dir.join("new"), "c"), only_file(dir, "lts"));
            let spec = subst::spec::load(&spec).expect("the spec loads");
            let (old, new) = (load(&old, &spec), load(&new, &spec));
            let b = removed.map(|r| spec.process(r).expect("the removed process"));
            let options = ContainOptions {
                limits: CegarOptions {
                    // Budgets of work decide; the time limit only stops a run that would hang
                    // the suite, so that the verdict does not depend on the machine's load (and
                    // it is far from the point where the solver's own timeout is set, so a
                    // result is the one of a run without a deadline).
                    deadline: subst::deadline::Deadline::after(std::time::Duration::from_secs(30 * 60)),
                    blocks,
                    ..CegarOptions::default()
                },
                max_missing: 5,
                product: true,
            };
            substitution::check(&old, &new, b.as_ref(), &options).expect("checks")
        };
        std::thread::scope(|s| s.spawn(run).join()).unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

/// The folder of a pair.
fn pair_dir(pair: &Pair) -> &Path {
    pair.spec.parent().expect("the pair's folder")
}

/// [`check_pair`] with the may-abstractions encoded as `blocks` says.
fn check_pair_with(pair: &Pair, removed: Option<&str>, contained: bool, blocks: Blocks) -> Vec<String> {
    let spec = subst::spec::load(&pair.spec).expect("the spec loads");
    let b = removed.map(|r| spec.process(r).expect("the removed process"));
    let result = containment_run(pair_dir(pair), removed, blocks);
    let mut problems = Vec::new();
    let verdict = result.verdict();
    if matches!(verdict, subst::check::Verdict::Unknown(_)) || (verdict == subst::check::Verdict::Holds) != contained {
        problems
            .push(format!("{} (removed {removed:?}): expected contained = {contained}, got {verdict:?}", pair.name));
    }
    for c in &result.components {
        let Change::Changed(ct) = &c.change else { continue };
        let ContainOutcome::NotContained { missing, .. } = &ct.outcome else { continue };
        let (o, n) = (c.old.as_ref().expect("old"), c.new.as_ref().expect("new"));
        if !contained
            && removed.is_none()
            && let Some(expected) = &pair.missing
            && !missing.iter().any(|m| &m.trace == expected)
        {
            let got: Vec<String> = missing.iter().map(|m| m.trace.join(" ")).collect();
            problems.push(format!("{}: `{}` not among the missing {got:?}", pair.name, expected.join(" ")));
        }
        // Distinct: no reported trace is another one, or another one with events after it.
        for (i, a) in missing.iter().enumerate() {
            for b in &missing[i + 1..] {
                if a.trace.starts_with(&b.trace) || b.trace.starts_with(&a.trace) {
                    problems.push(format!("{}: {:?} and {:?} are not distinct", pair.name, a.trace, b.trace));
                }
            }
        }
        for m in missing {
            // Shortest: the new version performs all of it but its last event.
            match can_perform(n, &m.trace[..m.trace.len() - 1], 400) {
                Ok(true) => {}
                Ok(false) => problems.push(format!("{}: the new version cannot perform {:?}", pair.name, m.trace)),
                Err(e) => problems.push(format!("{}: undecided for the prefix of {:?}: {e}", pair.name, m.trace)),
            }
            let limits = interp::Limits { max_steps: 1_000_000, max_events: m.trace.len() };
            let run = interp::run(o, &mut interp::Scripted::new(m.old_run.inputs()), limits);
            let labels = run_labels(o, &run);
            if labels != m.trace {
                problems.push(format!("{}: the old version replays {labels:?}, not {:?}", pair.name, m.trace));
            }
            match can_perform(n, &m.trace, 400) {
                Ok(false) => {}
                Ok(true) => problems.push(format!("{}: the new version can perform {:?}", pair.name, m.trace)),
                Err(e) => problems.push(format!("{}: undecided for {:?}: {e}", pair.name, m.trace)),
            }
            if let Some(b) = &b {
                let t = subst::automata::dla::Trace::of_events(&m.trace.iter().map(String::as_str).collect::<Vec<_>>());
                if b.accepts(&t) {
                    problems.push(format!("{}: {:?} is a removed behaviour", pair.name, m.trace));
                }
            }
        }
    }
    problems
}

#[test]
fn example_pairs_get_their_answers_and_every_missing_behaviour_is_real() {
    let mut problems = Vec::new();
    for pair in pairs("examples-c/contain") {
        problems.extend(check_pair(&pair, pair.removed.as_deref(), pair.contained));
        if pair.removed.is_some() {
            // Without the removed behaviours, the fix is not contained.
            problems.extend(check_pair(&pair, None, false));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn example_pairs_get_their_answers_with_block_encoded_may_models() {
    let mut problems = Vec::new();
    for pair in pairs("examples-c/contain") {
        problems.extend(check_pair_with(&pair, pair.removed.as_deref(), pair.contained, Blocks::Loop));
        if pair.removed.is_some() {
            problems.extend(check_pair_with(&pair, None, false, Blocks::Loop));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn benchmark_pairs_get_their_answers_and_every_missing_behaviour_is_real() {
    let mut problems = Vec::new();
    for pair in pairs("benches/contain") {
        problems.extend(check_pair(&pair, pair.removed.as_deref(), pair.contained));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `subst check` on a pair, from the repository root: (stdout, exit code).
fn cli(pair: &Pair, extra: &[&str]) -> (String, i32) {
    let rel = |p: &Path| p.strip_prefix(root()).expect("inside the repository").to_string_lossy().into_owned();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_subst"));
    // Without a cache: a containment verdict read from one would change the report.
    cmd.current_dir(root()).arg("check").arg(rel(&pair.old)).arg(rel(&pair.new)).arg("--no-cache").args(extra);
    if let Some(r) = &pair.removed {
        cmd.args(["--removed", r]);
    }
    let out = cmd.output().expect("subst runs");
    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code().unwrap_or(-1))
}

/// The reports of one example pair, all from one run of `subst check`: text on stdout, JSON
/// and SARIF written by `--report`.
struct Reports {
    pair: Pair,
    code: i32,
    text: String,
    json: String,
    sarif: String,
}

/// The reports of every example pair, from one run each, shared by the tests of the three
/// formats (three runs per pair cost a debug `cargo test` about 40 s on a loaded machine).
fn example_reports() -> &'static [Reports] {
    static REPORTS: std::sync::OnceLock<Vec<Reports>> = std::sync::OnceLock::new();
    REPORTS.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temp dir");
        pairs("examples-c/contain")
            .into_iter()
            .map(|pair| {
                let json = dir.path().join(format!("{}.json", pair.name));
                let sarif = dir.path().join(format!("{}.sarif", pair.name));
                let report = |format: &str, path: &Path| format!("{format}={}", path.display());
                let (text, code) =
                    cli(&pair, &["--report", &report("json", &json), "--report", &report("sarif", &sarif)]);
                let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                Reports { code, text, json: read(&json), sarif: read(&sarif), pair }
            })
            .collect()
    })
}

#[test]
fn reports_of_the_example_pairs() {
    for Reports { pair, code, text, json, .. } in example_reports() {
        assert_eq!(*code, if pair.contained { 0 } else { 1 }, "{}: {text}", pair.name);
        insta::assert_snapshot!(format!("text_{}", pair.name), text);
        let mut v: serde_json::Value = serde_json::from_str(json).expect("JSON");
        assert_eq!(v["schema"], "subst-check/1");
        for c in v["components"].as_array_mut().expect("components") {
            // Times and counts vary with the machine and the solver; the snapshot keeps the rest.
            c.as_object_mut().expect("an object").remove("stats");
        }
        v.as_object_mut().expect("an object").remove("tool_version");
        insta::assert_snapshot!(format!("json_{}", pair.name), serde_json::to_string_pretty(&v).expect("prints"));
        if let Some(line) = pair.divergence {
            let d = &v["components"][0]["missing"][0]["divergence"];
            assert_eq!(d["new"]["line"].as_u64(), Some(u64::from(line)), "{}: divergence {d}", pair.name);
        }
    }
}

/// The SARIF 2.1.0 schema, from the copy the crate `serde-sarif` ships (see Cargo.toml).
fn sarif_schema() -> serde_json::Value {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(root().join("Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata JSON");
    let package = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|p| p["name"] == "serde-sarif")
        .expect("serde-sarif is in the dependency graph");
    let manifest = PathBuf::from(package["manifest_path"].as_str().expect("a path"));
    let text = std::fs::read_to_string(manifest.with_file_name("src/schema.json")).expect("the schema is there");
    serde_json::from_str(&text).expect("the schema is JSON")
}

#[test]
fn sarif_reports_validate_against_the_sarif_schema() {
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource("urn:sarif-2.1.0", sarif_schema()).expect("the schema loads");
    let schema = compiler.compile("urn:sarif-2.1.0", &mut schemas).expect("the schema compiles");
    // The validator rejects what the schema forbids.
    let bad = serde_json::json!({ "version": "9.9", "runs": [] });
    assert!(schemas.validate(&bad, schema).is_err());
    let mut results = 0;
    for Reports { pair, sarif, .. } in example_reports() {
        let doc: serde_json::Value = serde_json::from_str(sarif).expect("JSON");
        if let Err(e) = schemas.validate(&doc, schema) {
            panic!("{}: the SARIF report is not valid: {e:#}\n{sarif}", pair.name);
        }
        let found = doc["runs"][0]["results"].as_array().expect("results");
        if pair.contained {
            assert!(found.is_empty(), "{}: {sarif}", pair.name);
        } else {
            assert!(!found.is_empty(), "{}: no result", pair.name);
            for r in found {
                assert!(r["codeFlows"][0]["threadFlows"][0]["locations"].as_array().is_some_and(|l| !l.is_empty()));
                assert!(r["relatedLocations"].as_array().is_some_and(|l| !l.is_empty()));
            }
        }
        results += found.len();
    }
    assert!(results > 0);
}

#[test]
fn a_family_without_a_range_is_rejected_with_its_location() {
    let dir = tempfile::tempdir().expect("a temp dir");
    for (v, body) in [("old", "out(x);"), ("new", "out(x + 0);")] {
        std::fs::create_dir(dir.path().join(v)).expect("mkdir");
        let src = format!(
            "// Components: f\nvoid out(int v);\nint nondet_int(void);\nvoid f(void) {{\n    int x = nondet_int();\n    {body}\n}}\n"
        );
        std::fs::write(dir.path().join(v).join("f.c"), src).expect("write");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_subst"))
        .arg("check")
        .arg(dir.path().join("old/f.c"))
        .arg(dir.path().join("new/f.c"))
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("f.c:6:") && err.contains("no range"), "{err}");
}

#[test]
fn a_limit_gives_unknown_and_exit_code_3() {
    // A pair that the product of the versions leaves to the abstraction loop (the new version
    // loops without an event), which needs two refinements.
    let pair = pairs("examples-c/contain").into_iter().find(|p| p.name == "silent_loop_in_new").expect("the pair");
    let (text, code) = cli(&pair, &["--max-refinements", "1"]);
    assert_eq!(code, 3, "{text}");
    assert!(text.contains("UNKNOWN") && text.contains("the limit of 1 refinements was reached"), "{text}");
}

#[test]
fn git_base_takes_the_old_version_from_a_revision() {
    let repo = tempfile::tempdir().expect("a temp dir");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.name=subst", "-c", "user.email=subst@localhost"])
            .args(args)
            .current_dir(repo.path())
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    let pair = root().join("examples-c/contain/off_by_one");
    std::fs::create_dir(repo.path().join("src")).expect("mkdir");
    std::fs::copy(pair.join("old/blinker.c"), repo.path().join("src/blinker.c")).expect("copy");
    std::fs::copy(pair.join("blinker.lts"), repo.path().join("src/blinker.lts")).expect("copy");
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-qm", "old"]);
    std::fs::copy(pair.join("new/blinker.c"), repo.path().join("src/blinker.c")).expect("copy");
    let run = |rev: &str| {
        Command::new(env!("CARGO_BIN_EXE_subst"))
            .current_dir(repo.path())
            .args(["check", "--git-base", rev, "src/blinker.c", "--format", "json", "--max-missing", "1"])
            .output()
            .expect("subst runs")
    };
    let out = run("HEAD");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["git_base"], "HEAD");
    let m = &v["components"][0]["missing"][0];
    assert_eq!(m["trace"], serde_json::json!(["count.1", "blink.1"]));
    assert_eq!(m["divergence"]["old"]["file"], "HEAD:src/blinker.c");
    assert_eq!(m["divergence"]["new"]["file"], "src/blinker.c");
    assert_eq!(m["divergence"]["new"]["line"], 19);
    // The working tree against itself: unchanged.
    git(&["commit", "-qam", "new"]);
    assert_eq!(run("HEAD").status.code(), Some(0));
    // A revision that does not exist is bad input.
    assert_eq!(run("no-such-revision").status.code(), Some(2));
}

#[test]
fn a_sarif_report_with_a_property_violation_validates() {
    let dir = tempfile::tempdir().expect("a temp dir");
    for (v, client, server) in [
        ("old", "examples-c/lock_client.c", "examples-c/lock_server.c"),
        ("new", "examples-c/assembly/greedy_client.c", "examples-c/assembly/greedy_server.c"),
    ] {
        std::fs::create_dir(dir.path().join(v)).expect("mkdir");
        std::fs::copy(root().join(client), dir.path().join(v).join("client.c")).expect("copy");
        std::fs::copy(root().join(server), dir.path().join(v).join("server.c")).expect("copy");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_subst"))
        .current_dir(dir.path())
        .args(["check", "old", "new", "--spec"])
        .arg(root().join("specs/lock.lts"))
        .args(["--assembly", "LOCK", "--prop", "GRANTED", "--format", "sarif", "--max-missing", "1"])
        .output()
        .expect("subst runs");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource("urn:sarif-2.1.0", sarif_schema()).expect("the schema loads");
    let schema = compiler.compile("urn:sarif-2.1.0", &mut schemas).expect("the schema compiles");
    if let Err(e) = schemas.validate(&doc, schema) {
        panic!("not valid SARIF: {e:#}");
    }
    let results = doc["runs"][0]["results"].as_array().expect("results");
    let violated: Vec<&serde_json::Value> =
        results.iter().filter(|r| r["ruleId"] == "subst/property-violated").collect();
    assert_eq!(violated.len(), 1);
    assert_eq!(violated[0]["properties"]["trace"], serde_json::json!(["request", "grant.1", "request", "grant.1"]));
    assert_eq!(violated[0]["codeFlows"][0]["threadFlows"].as_array().map(Vec::len), Some(2));
}

/// The one component's containment in the shared run of the pair in `dir` ([`containment_run`]).
fn shared_one(dir: &Path) -> &'static subst::check::contain::Containment {
    let result = containment_run(dir, None, Blocks::Single);
    let Change::Changed(c) = &result.components.first().expect("one component").change else {
        panic!("the component changed")
    };
    c
}

/// Containment of `pair` through the library with `--max-missing 1`: the component's result.
fn contain_one(old: &Path, new: &Path, spec: &Path) -> subst::check::contain::Containment {
    let spec = subst::spec::load(spec).expect("the spec loads");
    let (old, new) = (load(old, &spec), load(new, &spec));
    let options = ContainOptions { limits: CegarOptions::default(), max_missing: 1, product: true };
    let result = substitution::check(&old, &new, None, &options).expect("checks");
    let Change::Changed(c) = result.components.into_iter().next().expect("one component").change else {
        panic!("the component changed")
    };
    *c
}

#[test]
fn loops_against_their_closed_forms_are_decided_on_the_product_without_refining_the_old_version() {
    for pair in pairs("examples-c/contain") {
        if !["sum_loop", "mul_loop", "countdown"].iter().any(|p| pair.name.starts_with(p)) {
            continue;
        }
        // The run of `example_pairs_get_their_answers_and_every_missing_behaviour_is_real`, at
        // five missing behaviours: the search for missing behaviours goes on after the first
        // (the shortest) only, so its first missing trace and the refinements of the old
        // version and of the must-model up to it are those of a run that stops at one.
        let c = shared_one(pair_dir(&pair));
        let s = &c.stats;
        match (&c.outcome, pair.contained) {
            (ContainOutcome::Contained, true) => {
                assert!(s.proof.is_some(), "{}: contained, but not by the product: {s:?}", pair.name)
            }
            (ContainOutcome::NotContained { missing, .. }, false) => {
                if let Some(expected) = &pair.missing {
                    assert_eq!(&missing[0].trace, expected, "{}: the shortest missing trace", pair.name);
                }
            }
            (other, _) => panic!("{}: expected contained = {}, got {other:?}", pair.name, pair.contained),
        }
        // No abstraction of the old version was refined: the product decided, and a missing
        // behaviour cost at most Validation 2's refinements of the new version.
        assert_eq!((s.refinements_old, s.refinements_must), (0, 0), "{}: {s:?}", pair.name);
    }
}

/// A copy of the `benches/contain` pair `name` in `dir` with the argument range `lo..=hi` (and
/// `out` wide enough for every result).
fn widened(name: &str, dir: &Path, lo: i64, hi: i64) -> (PathBuf, PathBuf, PathBuf) {
    let src = root().join("benches/contain").join(name);
    let range = |text: String| text.replace("assume(-8 <= x && x <= 7)", &format!("assume({lo} <= x && x <= {hi})"));
    for v in ["old", "new"] {
        std::fs::create_dir_all(dir.join(v)).expect("a folder");
        let text = std::fs::read_to_string(src.join(v).join("f.c")).expect("readable");
        assert!(text.contains("assume(-8 <= x && x <= 7)"), "{name}: the range");
        std::fs::write(dir.join(v).join("f.c"), range(text)).expect("written");
    }
    let spec = format!("event arg[{lo}..{hi}]\nevent out[-10000..10000]\n");
    std::fs::write(dir.join("f.lts"), spec).expect("written");
    (dir.join("old/f.c"), dir.join("new/f.c"), dir.join("f.lts"))
}

#[test]
fn refinements_do_not_grow_with_the_input_range() {
    // Before the product, max_const took 19 rounds at 16 values and ran out of time at 256: the
    // may-model learned the identity branch one value per refinement (benches/CONTAIN.md).
    for name in ["max_const", "sat_add_bug", "sum_loop", "countdown_bug"] {
        let counts: Vec<(usize, usize, bool)> = [(-8, 7), (-128, 127)]
            .into_iter()
            .map(|(lo, hi)| {
                let tmp = tempfile::tempdir().expect("a temp dir");
                let (old, new, spec) = widened(name, tmp.path(), lo, hi);
                let c = contain_one(&old, &new, &spec);
                (c.stats.rounds, c.stats.refinements(), matches!(c.outcome, ContainOutcome::Contained))
            })
            .collect();
        assert_eq!(counts[0], counts[1], "{name}: (rounds, refinements, contained) at 16 and at 256 values");
    }
}

#[test]
fn countdown_over_a_signed_range_is_proved_on_the_product_by_a_case_split() {
    // At the loop's exit k == 0 only when x was positive (else k == x): the invariant is a
    // disjunction, `x > 0 -> k >= 0` and `x <= 0 -> k == x`, which the case splits give.
    // The run of `benchmark_pairs_get_their_answers_and_every_missing_behaviour_is_real`: a
    // contained pair has no missing behaviour, so the limit on them changes nothing.
    let c = shared_one(&root().join("benches/contain/countdown"));
    assert!(matches!(c.outcome, ContainOutcome::Contained), "{:?}", c.outcome);
    assert!(c.stats.proof.is_some(), "contained, but not by the product: {:?}", c.stats);
    assert_eq!(c.stats.refinements(), 0, "{:?}", c.stats);
}

#[test]
fn validation_2_refines_no_abstraction_of_a_new_version_that_cannot_loop_between_events() {
    // Without the product, the abstraction loop finds sat_add_bug's missing behaviour; its
    // Validation 2 is the exact search of the new version restricted to the trace, so the
    // new version's may-model is never refined (62e02df refined it twice).
    let dir = root().join("benches/contain/sat_add_bug");
    let spec = subst::spec::load(&dir.join("f.lts")).expect("the spec loads");
    let (old, new) = (load(&dir.join("old/f.c"), &spec), load(&dir.join("new/f.c"), &spec));
    let options = ContainOptions { limits: CegarOptions::default(), max_missing: 1, product: false };
    let result = substitution::check(&old, &new, None, &options).expect("checks");
    let Change::Changed(c) = result.components.into_iter().next().expect("one component").change else {
        panic!("the component changed")
    };
    assert!(matches!(c.outcome, ContainOutcome::NotContained { .. }), "{:?}", c.outcome);
    assert_eq!((c.stats.refinements_must, c.stats.refinements_new), (0, 0), "{:?}", c.stats);
}

/// The IPC's ipc3 upgrade drops `ipc_ack.0` after a full queue. The product of the two versions
/// finds it by its bounded search at depth 6, whose query is over budget for Z3's incremental
/// mode and answered by the one-shot retry of [`Smt`]; without the retry the product gave up and
/// the abstraction loop took 28 refinements instead. A tenth of the default budget keeps the
/// test quick (45 s against 139 s in one measurement): the incremental check runs out of it
/// as it does of the default, and the one-shot check needs about half a million units.
#[test]
fn the_product_of_the_ipc3_queue_finds_its_missing_behaviour_by_bounded_search() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples-c/ipc");
    let spec = subst::spec::load(&root.join("ipc.lts")).expect("the spec loads");
    let old = load(&root.join("old/ipc.c"), &spec).lower("ipc_queue").expect("lowers");
    let new = load(&root.join("upgrades/ipc3/ipc.c"), &spec).lower("ipc_queue").expect("lowers");
    let (decision, stats) = subst::check::product::decide(
        &old,
        &new,
        subst::smt::DEFAULT_QUERY_BUDGET / 10,
        subst::deadline::Deadline::none(),
    );
    match decision {
        subst::check::product::Decision::Refuted(r) => {
            assert_eq!(r.trace.last().map(String::as_str), Some("ipc_ack.0"), "{r:?}");
            assert!(stats.one_shot >= 1, "the one-shot retry answered: {stats:?}");
        }
        d => panic!("the product did not refute: {d:?} ({stats:?})"),
    }
}

/// `table_typos` loses two behaviours, `arg.2 out.6` and `arg.6 out.18`, and its old version
/// computes by a loop without events, where the abstraction loop learns one value per
/// refinement (and so does not look for more). Before the product was searched again without
/// the traces it had found, only the first was reported.
#[test]
fn every_distinct_missing_behaviour_that_the_product_finds_is_reported() {
    // The run of `example_pairs_get_their_answers_and_every_missing_behaviour_is_real`, at five
    // missing behaviours, which also checks that each one is real.
    let c = shared_one(&root().join("examples-c/contain/table_typos"));
    let ContainOutcome::NotContained { missing, .. } = &c.outcome else { panic!("not contained: {:?}", c.outcome) };
    let traces: Vec<String> = missing.iter().map(|m| m.trace.join(" ")).collect();
    // Shortest loop first, as the bounded search of the product finds them.
    assert_eq!(traces, ["arg.2 out.6", "arg.6 out.18"]);
    // Found on the product, without an abstraction.
    assert_eq!((c.stats.rounds, c.stats.refinements()), (0, 0), "{:?}", c.stats);
}
