//! The contract of the command line (issue 16): state propositions are checked against the
//! sources and read by properties' guards and by containment, every verdict command speaks
//! text, JSON and SARIF, one spec search serves every command, `show` looks inside. Inputs are files under `tests/data/`; outputs are snapshots.

use std::path::{Path, PathBuf};
use std::process::Command;

fn data(dir: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(dir)
}

/// Runs subst in `dir` and returns its exit code, stdout and stderr.
fn subst(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_subst"))
        .current_dir(dir)
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .expect("subst runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// The `.lts` files of a data folder whose name starts with `prefix`, sorted.
fn specs(dir: &Path, keep: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".lts") && keep(n))
        .collect();
    names.sort();
    names
}

// ---- State propositions ----------------------------------------------------------------------

#[test]
fn propositions_over_globals_of_the_component_are_accepted() {
    let (code, out, err) = subst(&data("props"), &["verify", "server.c", "--spec", "good.lts"]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn every_bad_prop_is_rejected_at_its_line() {
    let dir = data("props");
    let bad = specs(&dir, &|n| n != "good.lts");
    assert!(bad.len() >= 7, "{bad:?}");
    for name in bad {
        let (code, out, err) = subst(&dir, &["verify", "server.c", "--spec", &name]);
        assert_eq!(code, 2, "{name}: {out}{err}");
        assert!(out.is_empty(), "{name}: {out}");
        insta::assert_snapshot!(format!("prop_{}", name.trim_end_matches(".lts")), err);
    }
}

// ---- Guards over state propositions ----------------------------------------------------------

/// `subst verify` of `tests/data/labels/FILE` against `lock.lts`, with an engine.
fn verify_labels(file: &str, engine: &str) -> (i32, String) {
    let (code, out, err) =
        subst(&data("labels"), &["verify", file, "--spec", "lock.lts", "--no-cache", "--engine", engine]);
    (code, format!("{out}{err}"))
}

#[test]
fn a_write_only_after_the_lock_is_marked_owned_satisfies_the_guard_over_locked() {
    for engine in ["mono", "ag"] {
        let (code, out) = verify_labels("lock_ok.c", engine);
        assert_eq!(code, 0, "{engine}: {out}");
        assert!(out.contains("SAFE: holds"), "{engine}: {out}");
    }
}

#[test]
fn a_guard_on_an_event_of_the_propositions_own_component_reads_the_state_it_leaves() {
    let dir = data("labels");
    let (code, out, err) = subst(&dir, &["verify", "own_ok.c", "--spec", "own.lts", "--no-cache"]);
    assert_eq!(code, 0, "{out}{err}");
    for engine in ["mono", "ag"] {
        let (code, out, err) =
            subst(&dir, &["verify", "own_bad.c", "--spec", "own.lts", "--no-cache", "--engine", engine]);
        assert_eq!(code, 1, "{engine}: {out}{err}");
        assert!(out.contains("trace: [] acquire [] release{} []"), "{engine}: {out}");
    }
}

#[test]
fn an_observed_event_hidden_by_the_assembly_is_hidden_from_the_property() {
    let (code, out, err) =
        subst(&data("labels"), &["verify", "lock_race.c", "--spec", "lock_hidden.lts", "--no-cache"]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_write_before_the_lock_is_marked_owned_fails_with_the_label_in_the_trace() {
    let (code, out) = verify_labels("lock_race.c", "mono");
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!(out);
    let (code, ag) = verify_labels("lock_race.c", "ag");
    assert_eq!((code, ag), (1, out), "both engines give the same counterexample");
}

#[test]
fn a_c_trace_shows_the_label_after_every_step_in_json() {
    let dir = data("labels/partial");
    let (code, out, _) = subst(&dir, &["verify", "late_open.c", "--spec", "partial.lts", "--format", "json"]);
    assert_eq!(code, 1);
    let doc = validate("subst-verify-1.json", &out);
    assert_eq!(doc["properties"][0]["trace"], serde_json::json!(["start", "acquire", "write{Locked}"]));
    // The locker marks the lock owned after `acquire`, an internal step: the label right after
    // `acquire` is empty, and `write` happens (and leads) where Locked holds.
    assert_eq!(doc["properties"][0]["labels"], serde_json::json!([[], [], [], ["Locked"]]));
}

#[test]
fn the_compatibility_trace_of_check_shows_the_label_after_every_step() {
    let dir = data("labels/partial");
    let (code, out, _) =
        subst(&dir, &["check", "ok.c", "late_open.c", "--spec", "partial.lts", "--no-cache", "--format", "json"]);
    assert_eq!(code, 1);
    let doc = validate("subst-check-1.json", &out);
    assert_eq!(doc["properties"][0]["trace"], serde_json::json!(["start", "acquire", "write{Locked}"]));
    assert_eq!(doc["properties"][0]["labels"], serde_json::json!([[], [], [], ["Locked"]]));
}

/// `subst verify late_open.c` of `tests/data/labels/partial` in `format`.
fn late_open(format: &str) -> String {
    let dir = data("labels/partial");
    let (code, out, err) =
        subst(&dir, &["verify", "late_open.c", "--spec", "partial.lts", "--no-cache", "--format", format]);
    assert_eq!(code, 1, "{err}");
    out
}

#[test]
fn a_c_run_names_the_label_at_the_statement_that_changes_it() {
    // The locker's label changes at `owner = 1`, between its events `acquire` and `write`.
    let out = late_open("text");
    assert!(out.contains("late_open.c:10: owner = 1    label [Locked]"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn the_json_run_carries_the_label_after_every_statement() {
    let doc = validate("subst-verify-1.json", &late_open("json"));
    let locker = &doc["properties"][0]["runs"][0];
    assert_eq!(locker["propositions"], serde_json::json!(["Locked"]));
    let labels: Vec<&serde_json::Value> = locker["path"].as_array().unwrap().iter().map(|s| &s["label"]).collect();
    assert_eq!(labels, [&serde_json::json!([]), &serde_json::json!(["Locked"]), &serde_json::json!(["Locked"])]);
}

#[test]
fn sarif_thread_flow_locations_carry_the_labels_as_their_state() {
    let doc = validate("sarif", &late_open("sarif"));
    let result = &doc["runs"][0]["results"][0];
    let shown = serde_json::json!({
        "properties": result["properties"],
        "threadFlows": result["codeFlows"][0]["threadFlows"],
    });
    insta::assert_snapshot!(serde_json::to_string_pretty(&shown).unwrap());
}

#[test]
fn sarif_of_an_fsp_trace_carries_its_labels() {
    let (code, out, _) = subst(&data("labels/fsp"), &["verify", "partial_late_open.lts", "--format", "sarif"]);
    assert_eq!(code, 1);
    let doc = validate("sarif", &out);
    let labels = &doc["runs"][0]["results"][0]["properties"]["labels"];
    assert_eq!(*labels, serde_json::json!([[], ["Locked"], ["Locked"]]));
}

// ---- Propositions of FSP processes ---------------------------------------------------------

/// `subst verify` in `tests/data/labels/fsp` with `args` and an engine.
fn verify_fsp(args: &[&str], engine: &str) -> (i32, String) {
    let mut all = vec!["verify"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--no-cache", "--engine", engine]);
    let (code, out, err) = subst(&data("labels/fsp"), &all);
    (code, format!("{out}{err}"))
}

#[test]
fn a_guard_over_the_proposition_of_an_fsp_process_holds_when_writes_happen_in_its_state() {
    for engine in ["mono", "ag"] {
        let (code, out) = verify_fsp(&["lock_ok.lts"], engine);
        assert_eq!(code, 0, "{engine}: {out}");
    }
}

#[test]
fn a_write_outside_the_fsp_processs_labelled_state_fails_with_the_label_in_the_trace() {
    for engine in ["mono", "ag"] {
        let (code, out) = verify_fsp(&["lock_race.lts"], engine);
        assert_eq!(code, 1, "{engine}: {out}");
        assert!(out.contains("trace: [] write{} []"), "{engine}: {out}");
    }
}

#[test]
fn a_trace_over_fsp_propositions_shows_the_label_after_every_step() {
    let (code, out) = verify_fsp(&["counter_early_flush.lts"], "mono");
    assert_eq!(code, 1, "{out}");
    let trace = out.lines().find(|l| l.contains("trace:")).unwrap_or_else(|| panic!("a trace: {out}"));
    insta::assert_snapshot!(trace.trim());
}

#[test]
fn the_json_trace_carries_the_label_after_every_step() {
    let (code, out, _) = subst(&data("labels/fsp"), &["verify", "partial_late_open.lts", "--format", "json"]);
    assert_eq!(code, 1);
    let doc = validate("subst-verify-1.json", &out);
    assert_eq!(doc["properties"][0]["trace"], serde_json::json!(["acquire", "write{Locked}"]));
    assert_eq!(doc["properties"][0]["labels"], serde_json::json!([[], ["Locked"], ["Locked"]]));
}

#[test]
fn propositions_over_indexed_local_processes_label_each_instance() {
    for engine in ["mono", "ag"] {
        let (code, out) = verify_fsp(&["counter.lts"], engine);
        assert_eq!(code, 0, "{engine}: {out}");
        let (code, out) = verify_fsp(&["counter_early_flush.lts"], engine);
        assert_eq!(code, 1, "{engine}: {out}");
        assert!(out.contains("flush{NonEmpty}"), "{engine}: {out}");
    }
}

#[test]
fn a_c_component_is_checked_against_a_guard_over_an_fsp_processs_proposition() {
    for engine in ["mono", "ag"] {
        let (code, out) = verify_fsp(&["writer_ok.c", "--spec", "mixed.lts"], engine);
        assert_eq!(code, 0, "{engine}: {out}");
    }
    let (code, out) = verify_fsp(&["writer_race.c", "--spec", "mixed.lts"], "mono");
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!(out);
    let (code, ag) = verify_fsp(&["writer_race.c", "--spec", "mixed.lts"], "ag");
    assert_eq!((code, ag), (1, out), "both engines give the same counterexample");
}

#[test]
fn a_guard_over_propositions_of_two_fsp_processes_reads_both_at_an_event_of_one() {
    for engine in ["mono", "ag"] {
        let (code, out) = verify_fsp(&["partial.lts"], engine);
        assert_eq!(code, 0, "{engine}: {out}");
        let (code, out) = verify_fsp(&["partial_late_open.lts"], engine);
        assert_eq!(code, 1, "{engine}: {out}");
        assert!(out.contains("trace: [] acquire [Locked] write{Locked} [Locked]"), "{engine}: {out}");
    }
}

#[test]
fn a_c_component_performs_an_event_guarded_by_its_own_and_another_components_propositions() {
    let dir = data("labels/partial");
    for engine in ["mono", "ag"] {
        let (code, out, err) =
            subst(&dir, &["verify", "ok.c", "--spec", "partial.lts", "--no-cache", "--engine", engine]);
        assert_eq!(code, 0, "{engine}: {out}{err}");
        let (code, out, err) =
            subst(&dir, &["verify", "late_open.c", "--spec", "partial.lts", "--no-cache", "--engine", engine]);
        assert_eq!(code, 1, "{engine}: {out}{err}");
        assert!(out.contains("trace: [] start [] acquire [] write{Locked} [Locked]"), "{engine}: {out}");
    }
}

#[test]
fn check_of_two_models_shows_the_labels_along_the_new_trace() {
    let dir = data("labels/fsp/upgrade");
    let (code, out, _) = subst(&dir, &["check", "old.lts", "new.lts", "--format", "json"]);
    assert_eq!(code, 1);
    let doc = validate("subst-upgrade-1.json", &out);
    assert_eq!(doc["properties"][0]["trace"], serde_json::json!(["acquire", "write{Locked}", "release", "write{}"]));
    assert_eq!(doc["properties"][0]["labels"], serde_json::json!([[], ["Locked"], ["Locked"], [], []]));
}

/// `subst check` of `tests/data/labels/contain/old` against `NEW`, with the propositions of
/// `locker.lts`.
fn contain_labels(new: &str) -> (i32, String) {
    let new = format!("{new}/locker.c");
    let (code, out, err) =
        subst(&data("labels/contain"), &["check", "old/locker.c", &new, "--spec", "locker.lts", "--no-cache"]);
    (code, format!("{out}{err}"))
}

#[test]
fn a_new_version_that_differs_only_in_a_label_is_not_contained() {
    let (code, out) = contain_labels("new_late");
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn a_new_version_that_differs_only_in_its_initial_label_is_not_contained() {
    let (code, out) = contain_labels("new_init");
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn a_new_version_with_the_same_events_and_labels_is_contained() {
    let (code, out) = contain_labels("new_same");
    assert_eq!(code, 0, "{out}");
}

// ---- Spec discovery --------------------------------------------------------------------------

/// The spec that `subst -v check` in `tests/data/discovery/CASE` reports it found.
fn found_spec(case: &str, old: &str, new: &str) -> String {
    let (code, out, err) = subst(&data("discovery").join(case), &["-v", "check", old, new, "--no-cache"]);
    assert_eq!(code, 0, "{case}: {out}{err}");
    let line = err.lines().find(|l| l.contains("subst::cli: spec: ")).unwrap_or_else(|| panic!("{case}: {err}"));
    line.split("spec: ").nth(1).expect("a path").to_string()
}

#[test]
fn check_finds_the_spec_in_the_parent_folder_of_the_versions() {
    assert_eq!(found_spec("parent", "old/meter.c", "new/meter.c"), "meter.lts");
}

#[test]
fn check_finds_the_spec_beside_the_old_version() {
    assert_eq!(found_spec("beside_old", "old/meter.c", "new/meter.c"), "old/meter.lts");
}

#[test]
fn check_finds_the_spec_in_the_specs_folder() {
    assert_eq!(found_spec("specs_dir", "v1/meter.c", "v2/meter.c"), "specs/meter.lts");
}

#[test]
fn a_missing_spec_is_named_with_every_place_looked_at() {
    let (code, out, err) = subst(&data("discovery").join("none"), &["check", "old/meter.c", "new/meter.c"]);
    assert_eq!(code, 2, "{out}");
    insta::assert_snapshot!(err);
}

#[test]
fn skipping_containment_without_a_spec_is_an_error_not_substitutable() {
    // Nothing would be checked: compatibility needs the spec's properties.
    let dir = tempfile::tempdir().expect("a temp dir");
    for v in ["old", "new"] {
        std::fs::create_dir(dir.path().join(v)).unwrap();
        std::fs::copy(data("props").join("server.c"), dir.path().join(v).join("server.c")).unwrap();
    }
    let (code, out, err) = subst(dir.path(), &["check", "old/server.c", "new/server.c", "--skip-containment"]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("--skip-containment leaves nothing to check") && err.contains("looked for"), "{err}");
}

// ---- Formats ---------------------------------------------------------------------------------

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The SARIF 2.1.0 schema that serde-sarif ships.
fn sarif_schema() -> serde_json::Value {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(root().join("Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
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

/// Validates `doc` against a schema of `docs/schemas/` (by file name) or, for `sarif`, SARIF 2.1.0.
fn validate(schema: &str, text: &str) -> serde_json::Value {
    let doc: serde_json::Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"));
    let schema_doc = if schema == "sarif" {
        sarif_schema()
    } else {
        let path = root().join("docs/schemas").join(schema);
        serde_json::from_str(&std::fs::read_to_string(&path).expect("the schema is there")).expect("schema JSON")
    };
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource("urn:test-schema", schema_doc).expect("the schema loads");
    let id = compiler.compile("urn:test-schema", &mut schemas).expect("the schema compiles");
    if let Err(e) = schemas.validate(&doc, id) {
        panic!("not valid against {schema}: {e:#}\n{text}");
    }
    doc
}

#[test]
fn the_schemas_reject_what_they_forbid() {
    for (schema, bad) in [
        (
            "subst-verify-1.json",
            r#"{"schema": "subst-verify/1", "tool_version": "0", "target": "x", "verdict": "maybe", "properties": []}"#,
        ),
        ("subst-upgrade-1.json", r#"{"schema": "subst-upgrade/1"}"#),
        (
            "subst-check-1.json",
            r#"{"schema": "subst-check/1", "tool_version": "0", "old": "a", "new": "b", "verdict": "substitutable", "components": [{"name": "f", "change": "moved", "containment": "contained", "missing": []}]}"#,
        ),
        (
            "subst-error-1.json",
            r#"{"schema": "subst-error/1", "tool_version": "0", "verdict": "error", "diagnostics": []}"#,
        ),
    ] {
        let result = std::panic::catch_unwind(|| validate(schema, bad));
        assert!(result.is_err(), "{schema} accepted {bad}");
    }
}

#[test]
fn verify_of_a_model_that_fails_is_json_with_its_trace() {
    let (code, out, _) = subst(&root(), &["verify", "specs/mutex.lts", "--assembly", "NOLOCK", "--format", "json"]);
    assert_eq!(code, 1);
    let doc = validate("subst-verify-1.json", &out);
    assert_eq!(doc["properties"][0]["trace"], serde_json::json!(["p.1.enter", "p.2.enter"]));
}

#[test]
fn verify_of_a_model_that_fails_is_valid_sarif() {
    let (code, out, _) = subst(&root(), &["verify", "specs/mutex.lts", "--assembly", "NOLOCK", "--format", "sarif"]);
    assert_eq!(code, 1);
    let doc = validate("sarif", &out);
    assert_eq!(doc["runs"][0]["results"][0]["ruleId"], "subst/property-violated");
}

#[test]
fn verify_of_a_c_program_that_fails_is_json_with_the_run() {
    let (code, out, _) = subst(&root(), &["verify", "examples-c/cegar/lock_loop_bug.c", "--format", "json"]);
    assert_eq!(code, 1);
    let doc = validate("subst-verify-1.json", &out);
    assert_eq!(doc["properties"][0]["property"], "unreach-call");
    assert!(doc["properties"][0]["runs"][0]["path"].as_array().is_some_and(|p| !p.is_empty()), "{out}");
    let (_, sarif, _) = subst(&root(), &["verify", "examples-c/cegar/lock_loop_bug.c", "--format", "sarif"]);
    validate("sarif", &sarif);
}

#[test]
fn verify_of_a_c_assembly_that_holds_is_json() {
    let (code, out, _) = subst(&data("props"), &["verify", "server.c", "--spec", "good.lts", "--format", "json"]);
    assert_eq!(code, 0);
    let doc = validate("subst-verify-1.json", &out);
    assert_eq!(doc["verdict"], "holds");
}

#[test]
fn check_of_two_models_prints_json() {
    let dir = "specs/upgrades/output_twice";
    let (code, out, err) =
        subst(&root(), &["check", &format!("{dir}/old.lts"), &format!("{dir}/new.lts"), "--format", "json"]);
    assert!(code == 0 || code == 1, "{err}");
    let doc = validate("subst-upgrade-1.json", &out);
    assert_eq!(doc["changed"], serde_json::json!(["OUTPUT"]));
    let (_, sarif, _) =
        subst(&root(), &["check", &format!("{dir}/old.lts"), &format!("{dir}/new.lts"), "--format", "sarif"]);
    validate("sarif", &sarif);
}

#[test]
fn check_stats_of_two_models_say_how_dynamic_check_was_decided() {
    let dir = "specs/upgrades/output_twice";
    let (old, new) = (format!("{dir}/old.lts"), format!("{dir}/new.lts"));
    let lines = |extra: &[&str]| {
        let mut args = vec!["check", old.as_str(), new.as_str(), "--stats"];
        args.extend(extra);
        let (_, out, err) = subst(&root(), &args);
        let found: Vec<String> =
            out.lines().filter(|l| l.trim().starts_with("DynamicCheck ")).map(|l| l.trim().to_string()).collect();
        assert_eq!(found.len(), 2, "{out}{err}");
        found
    };
    // By default the small product is searched whole, for both versions.
    assert_eq!(
        lines(&[]),
        [
            "DynamicCheck original: 1 run, 1 decided by the product search",
            "DynamicCheck upgrade: 1 run, 1 decided by the product search"
        ]
    );
    // Without the search, the upgrade starts from the levels the original check learned.
    assert_eq!(
        lines(&["--probe-states", "0"]),
        ["DynamicCheck original: 1 run", "DynamicCheck upgrade: 1 run, 1 from the earlier run's levels"]
    );
}

#[test]
fn an_input_error_under_json_is_an_error_document() {
    let (code, out, err) =
        subst(&data("props"), &["verify", "server.c", "--spec", "unknown_variable.lts", "--format", "json"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown variable"), "the diagnostic is on stderr too: {err}");
    let doc = validate("subst-error-1.json", &out);
    assert_eq!(doc["diagnostics"][0]["location"]["line"], 4);
}

#[test]
fn an_input_error_under_sarif_is_a_failed_run() {
    let (code, out, _) = subst(&root(), &["check", "nosuch/old.c", "nosuch/new.c", "--format", "sarif"]);
    assert_eq!(code, 2);
    let doc = validate("sarif", &out);
    assert_eq!(doc["runs"][0]["invocations"][0]["executionSuccessful"], false);
    assert_eq!(doc["runs"][0]["results"][0]["ruleId"], "subst/input-error");
}

#[test]
fn a_usage_error_under_json_is_an_error_document() {
    let (code, out, _) = subst(&root(), &["verify", "--format", "json", "--no-such-option", "x.c"]);
    assert_eq!(code, 2);
    let doc = validate("subst-error-1.json", &out);
    assert!(doc["diagnostics"][0]["message"].as_str().is_some_and(|m| m.contains("--no-such-option")));
}

// ---- Counterexample runs ---------------------------------------------------------------------

#[test]
fn a_run_shows_every_statement_of_a_one_line_loop() {
    let (code, out, err) = subst(&data("runs"), &["verify", "one_line_loop.c"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out.matches(": put(i)").count(), 3, "{out}");
    insta::assert_snapshot!(out);
}

// ---- Logging and help ------------------------------------------------------------------------

#[test]
fn debug_logging_leaves_out_z3s_own_lines() {
    let (_, _, err) = subst(&root(), &["-vv", "verify", "examples-c/cegar/lock_loop_bug.c"]);
    assert!(err.contains("DEBUG"), "debug lines are shown: {err}");
    assert!(
        !err.contains("z3::"),
        "{}",
        err.lines().filter(|l| l.contains("z3::")).take(3).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn help_shows_examples_and_exit_codes() {
    let (code, out, _) = subst(&root(), &["--help"]);
    assert_eq!(code, 0);
    let tail = &out[out.find("Examples:").expect("examples")..];
    insta::assert_snapshot!(tail);
}

// ---- Progress --------------------------------------------------------------------------------

/// Runs subst under a pseudo-terminal (`script`), returning everything it wrote there.
fn under_a_terminal(args: &str) -> String {
    let out = Command::new("script")
        .current_dir(root())
        .args(["-qec", &format!("{} {args}", env!("CARGO_BIN_EXE_subst")), "/dev/null"])
        .env_remove("RUST_LOG")
        .output()
        .expect("script(1) runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const CONTAINMENT: &str = "check examples-c/contain/off_by_one/old examples-c/contain/off_by_one/new --no-cache";

#[test]
fn a_terminal_shows_progress_with_the_phase() {
    let transcript = under_a_terminal(CONTAINMENT);
    assert!(transcript.contains("containment:"), "{transcript}");
    assert!(transcript.contains("verdict: NOT CONTAINED"), "{transcript}");
}

#[test]
fn a_pipe_shows_no_progress() {
    let args: Vec<&str> = CONTAINMENT.split(' ').collect();
    let (code, out, err) = subst(&root(), &args);
    assert_eq!(code, 1);
    assert!(err.is_empty(), "nothing on stderr: {err}");
    assert!(!out.contains("containment:"), "{out}");
}

// ---- Looking inside: show ir / model, text and DOT -------------------------------------------

/// Checks that `text` is a DOT digraph: with Graphviz installed, `dot -Tsvg` must accept it;
/// without, a structural check: one `digraph "..." {` header, statements ending in `;`, every
/// edge between declared nodes, and the closing brace.
fn assert_dot(text: &str) {
    if let Ok(mut child) = Command::new("dot")
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
    {
        use std::io::Write;
        child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("written");
        let out = child.wait_with_output().expect("dot runs");
        assert!(out.status.success(), "dot rejects it: {}\n{text}", String::from_utf8_lossy(&out.stderr));
        return;
    }
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("digraph \"") && lines[0].ends_with('{'), "{text}");
    assert_eq!(lines.last().copied(), Some("}"), "{text}");
    let mut nodes = std::collections::HashSet::new();
    for l in &lines[1..lines.len() - 1] {
        let l = l.trim();
        if l.starts_with("//") {
            continue;
        }
        assert!(l.ends_with("];") || l.ends_with(';'), "statement: {l}");
        assert!((l.matches('"').count() - l.matches("\\\"").count()) % 2 == 0, "unbalanced quotes: {l}");
        let head = l.split(" [").next().expect("a head").trim_end_matches(';');
        if let Some((a, b)) = head.split_once(" -> ") {
            assert!(nodes.contains(a) && nodes.contains(b), "edge between undeclared nodes: {l}");
        } else if head != "node" && head != "rankdir=LR" {
            nodes.insert(head.to_string());
        }
    }
    assert!(!nodes.is_empty(), "{text}");
}

/// `subst show WHAT` for level 0 of ORDER's compositional check of `SYS` in `specs/paper000.lts`.
fn show_level(what: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["show", what, "specs/paper000.lts", "--assembly", "SYS", "--prop", "ORDER"];
    args.extend(extra);
    subst(&root(), &args)
}

#[test]
fn show_assumption_prints_the_assumption_of_a_level() {
    let (code, out, err) = show_level("assumption", &[]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!(out);
    let (code, dot, err) = show_level("assumption", &["--format", "dot"]);
    assert_eq!(code, 0, "{err}");
    assert_dot(&dot);
}

#[test]
fn show_table_prints_the_observation_table_of_a_level() {
    let (code, out, err) = show_level("table", &[]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!(out);
    let (code, dot, err) = show_level("table", &["--format", "dot"]);
    assert_eq!(code, 0, "{err}");
    assert_dot(&dot);
    assert!(dot.contains("<TD BGCOLOR=\"#eeeeee\">send, output</TD>"), "an extension row, shaded: {dot}");
}

#[test]
fn show_of_a_level_that_does_not_exist_names_the_levels() {
    let (code, out, err) = show_level("assumption", &["--level", "3"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("level 3 does not exist: the check has 1 level") && err.contains("INPUT, OUTPUT"), "{err}");
}

#[test]
fn show_assumption_of_a_c_assembly_has_the_observed_letters() {
    let (code, out, err) =
        subst(&data("labels"), &["show", "assumption", "lock_ok.c", "--spec", "lock.lts", "--format", "dot"]);
    assert_eq!(code, 0, "{err}");
    assert_dot(&out);
    assert!(out.contains("write{Locked}"), "{out}");
}

#[test]
fn show_lts_as_dot_labels_the_states_of_an_fsp_processs_propositions() {
    let (code, out, err) = subst(&data("labels/fsp"), &["show", "lts", "lock_ok.lts", "LOCK", "--format", "dot"]);
    assert_eq!(code, 0, "{err}");
    assert_dot(&out);
    assert!(out.contains("q1 [label=\"q1\\n{Locked}\""), "{out}");
}

#[test]
fn show_ir_as_dot_is_a_graph_of_locations() {
    let (code, out, err) = subst(&data("props"), &["show", "ir", "server.c", "--format", "dot"]);
    assert_eq!(code, 0, "{err}");
    assert_dot(&out);
    assert!(out.contains("l0 -> l1 [label=\"event acquire @"), "{out}");
}

#[test]
fn show_model_uses_the_predicates_that_verify_cached() {
    let cache = tempfile::tempdir().expect("a temp dir");
    let cache_dir = cache.path().to_str().expect("UTF-8");
    let dir = data("props");
    let (code, _, err) =
        subst(&dir, &["verify", "server.c", "--spec", "good.lts", "--engine", "ag", "--cache", cache_dir]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = subst(&dir, &["show", "model", "server.c", "--spec", "good.lts", "--cache", cache_dir]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!(out);
}

#[test]
fn show_model_without_predicates_reaches_the_bounds_error() {
    let (code, out, err) = subst(&data("props"), &["show", "model", "server.c", "--spec", "good.lts", "--no-cache"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("predicates: none") && out.contains("-server!index_out_of_bounds-> [error]"), "{out}");
}

#[test]
fn show_must_model_as_dot_names_states_by_location() {
    let args = ["show", "model", "server.c", "--spec", "good.lts", "--must", "--format", "dot", "--no-cache"];
    let (code, out, err) = subst(&data("props"), &args);
    assert_eq!(code, 0, "{err}");
    assert_dot(&out);
    assert!(out.starts_with("digraph \"server must\"") && out.contains("[label=\"l0\", style=bold]"), "{out}");
}

// ---- Containment in the cache ----------------------------------------------------------------

fn contain_pair(name: &str, cache: &Path) -> (i32, String) {
    let dir = format!("examples-c/contain/{name}");
    let args = ["check", &format!("{dir}/old"), &format!("{dir}/new"), "--cache", cache.to_str().expect("UTF-8")];
    let (code, out, err) = subst(&root(), &args);
    assert!(code == 0 || code == 1, "{err}");
    (code, out)
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir).map(|r| r.map(|e| e.expect("an entry").path()).collect()).unwrap_or_default()
}

#[test]
fn a_contained_pair_is_read_from_the_cache_the_second_time() {
    let cache = tempfile::tempdir().expect("a temp dir");
    let (code, first) = contain_pair("rewritten", cache.path());
    assert_eq!(code, 0);
    assert!(first.contains("changed, contained\n"), "{first}");
    let (code, second) = contain_pair("rewritten", cache.path());
    assert_eq!(code, 0);
    assert!(second.contains("changed, contained (from the cache)"), "{second}");
}

#[test]
fn a_damaged_containment_entry_is_a_miss() {
    let cache = tempfile::tempdir().expect("a temp dir");
    contain_pair("rewritten", cache.path());
    let stored = entries(&cache.path().join("contain"));
    assert_eq!(stored.len(), 1);
    let text = std::fs::read_to_string(&stored[0]).expect("readable");
    // Valid JSON with another payload: only the checksum tells.
    std::fs::write(&stored[0], text.replace("\"rounds\":", "\"rounds\":1")).expect("writable");
    let (code, again) = contain_pair("rewritten", cache.path());
    assert_eq!(code, 0);
    assert!(again.contains("changed, contained\n"), "checked again: {again}");
}

#[test]
fn an_authentic_contained_entry_moved_to_another_pairs_key_is_a_miss() {
    // The entry of a contained pair, copied (MAC and all) to the file and key that the check of
    // a pair that is not contained looks up: the MAC binds a payload to its key.
    let cache = tempfile::tempdir().expect("a temp dir");
    contain_pair("rewritten", cache.path());
    let stored = entries(&cache.path().join("contain"));
    assert_eq!(stored.len(), 1);
    let text = std::fs::read_to_string(&stored[0]).expect("readable");
    let dir = "examples-c/contain/off_by_one";
    let args = ["check", &format!("{dir}/old"), &format!("{dir}/new"), "-v", "--cache", cache.path().to_str().unwrap()];
    let (code, _, log) = subst(&root(), &args);
    assert_eq!(code, 1);
    let wanted = log
        .lines()
        .find_map(|l| l.split_whitespace().find_map(|w| w.strip_prefix("path=")).filter(|p| p.contains("contain/")))
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("the lookup is logged: {log}"));
    let (old_key, new_key) = (stored[0].file_stem().unwrap(), wanted.file_stem().unwrap());
    let moved = text.replace(old_key.to_str().unwrap(), new_key.to_str().unwrap());
    assert_ne!(moved, text);
    std::fs::write(&wanted, moved).expect("writable");
    let (code, out) = contain_pair("off_by_one", cache.path());
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("from the cache"), "{out}");
}

#[test]
fn a_pair_that_is_not_contained_is_never_cached() {
    let cache = tempfile::tempdir().expect("a temp dir");
    let (code, _) = contain_pair("off_by_one", cache.path());
    assert_eq!(code, 1);
    assert!(entries(&cache.path().join("contain")).is_empty());
}

// ---- Components added or removed between the versions ----------------------------------------

#[test]
fn an_added_component_is_reported_and_the_new_assembly_checked() {
    let (code, out, err) = subst(&data("assembly_change/added"), &["check", "old", "new", "--no-cache"]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!(out);
}

#[test]
fn a_removed_component_that_the_assembly_names_is_an_error_naming_it() {
    let (code, out, err) = subst(&data("assembly_change/removed"), &["check", "old", "new", "--no-cache"]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("names the C component `ponger`, which the new version does not define"), "{err}");
    insta::assert_snapshot!(err);
}

// ---- Divergences -----------------------------------------------------------------------------

#[test]
fn a_divergence_after_an_input_blames_the_condition_that_excludes_every_value() {
    let (code, out, err) = subst(
        &data("input_blame"),
        &["check", "old/sensor.c", "new/sensor.c", "--no-cache", "--max-missing", "1", "--format", "json"],
    );
    assert_eq!(code, 1, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let divergence = &doc["components"][0]["missing"][0]["divergence"];
    insta::assert_snapshot!(serde_json::to_string_pretty(divergence).expect("JSON"));
}

#[test]
fn a_divergence_on_another_value_names_the_value_sent() {
    let (code, out, err) =
        subst(&data("divergence"), &["check", "old/sender.c", "new/sender.c", "--no-cache", "--format", "json"]);
    assert_eq!(code, 1, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let message = doc["components"][0]["missing"][0]["divergence"]["message"].as_str().expect("a message");
    insta::assert_snapshot!(message);
}

#[test]
fn check_reports_on_c_validate_against_their_schema() {
    let cache = tempfile::tempdir().expect("a temp dir");
    let cache_dir = cache.path().to_str().expect("UTF-8");
    let mut n = 0;
    for pair in ["bug_fix", "extra_behaviour", "identical", "off_by_one", "removed_branch", "rewritten"] {
        let dir = format!("examples-c/contain/{pair}");
        // Twice with one cache, so that a report with a cached containment is among them.
        for _ in 0..2 {
            let args =
                ["check", &format!("{dir}/old"), &format!("{dir}/new"), "--format", "json", "--cache", cache_dir];
            let (code, out, err) = subst(&root(), &args);
            assert!(code == 0 || code == 1, "{pair}: {err}");
            validate("subst-check-1.json", &out);
            n += 1;
        }
    }
    // An assembly with properties and component runs.
    let (_, out, _) = subst(&data("assembly_change/added"), &["check", "old", "new", "--no-cache", "--format", "json"]);
    validate("subst-check-1.json", &out);
    assert_eq!(n, 12);
}

// ---- Labels in the models ----------------------------------------------------------------------

/// The behaviours of `tests/data/labels/contain/DIR/locker.c` with `locker.lts`'s proposition, by
/// the may-model, the must-model and the explicit under-approximation.
fn labelled_models(dir: &str) -> Vec<(&'static str, subst::automata::Dla)> {
    use subst::abs::{Abstractor, EventView, Mode, explicit::Explicit};
    let base = data("labels/contain");
    let spec = subst::spec::load(&base.join("locker.lts")).expect("the spec loads");
    let options = subst::front::FrontOptions { families: spec.family_ranges(), ..Default::default() };
    let program = subst::front::load(&[base.join(dir).join("locker.c")], &options).expect("the C loads");
    let mut comp = program.lower("locker").expect("lowers");
    subst::abs::labels::instrument_props(&spec, &program, &mut comp).expect("the proposition is C");
    let mut smt = subst::smt::Smt::new(subst::smt::DEFAULT_QUERY_BUDGET);
    let mut out = Vec::new();
    for (name, mode) in [("may", Mode::May), ("must", Mode::Must)] {
        let mut abs = Abstractor::new(&comp, EventView::Visible);
        let arg = abs.build(&mut smt, mode).expect("builds");
        out.push((name, arg.to_behaviours("locker")));
    }
    let arg = Explicit::new(&comp, 10_000).build().expect("small");
    out.push(("explicit", arg.to_behaviours("locker")));
    out
}

#[test]
fn every_model_of_a_labelled_component_carries_the_label_each_event_leads_to() {
    use subst::automata::dla::Trace;
    let real = Trace::of_events(&[
        "@start{}",
        "acquire{}",
        "granted{Locked}",
        "release{Locked}",
        "acquire{}",
        "granted{Locked}",
    ]);
    let wrong = Trace::of_events(&["@start{}", "acquire{Locked}"]);
    for (name, dla) in labelled_models("old") {
        assert!(dla.accepts(&real), "{name}: {dla}");
        assert!(!dla.accepts(&wrong), "{name}: {dla}");
    }
    for (name, dla) in labelled_models("new_late") {
        assert!(!dla.accepts(&real), "{name}: {dla}");
        assert!(
            dla.accepts(&Trace::of_events(&["@start{}", "acquire{}", "granted{}", "release{Locked}"])),
            "{name}: {dla}"
        );
    }
    for (name, dla) in labelled_models("new_init") {
        assert!(!dla.accepts(&Trace::of_events(&["@start{}"])), "{name}: {dla}");
        assert!(dla.accepts(&Trace::of_events(&["@start{Locked}", "acquire{}"])), "{name}: {dla}");
    }
}

// ---- Report files (`--report FORMAT=PATH`) ---------------------------------------------------

/// `verify` of a small assembly with `extra` arguments.
fn verify_props(extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["verify", "server.c", "--spec", "good.lts"];
    args.extend_from_slice(extra);
    subst(&data("props"), &args)
}

#[test]
fn report_files_hold_what_format_prints_on_stdout() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = |name: &str| dir.path().join(name).display().to_string();
    let (json, sarif, text) = (file("r.json"), file("r.sarif"), file("r.txt"));
    let (code, _, err) = verify_props(&[
        "--report",
        &format!("json={json}"),
        "--report",
        &format!("sarif={sarif}"),
        "--report",
        &format!("text={text}"),
    ]);
    assert_eq!(code, 0, "{err}");
    for (format, path) in [("json", &json), ("sarif", &sarif), ("text", &text)] {
        let (_, stdout, _) = verify_props(&["--format", format]);
        assert_eq!(std::fs::read_to_string(path).expect("written"), stdout, "{format}");
    }
}

#[test]
fn a_report_file_in_an_unknown_format_is_a_usage_error() {
    let (code, _, err) = verify_props(&["--report", "yaml=out.yaml"]);
    assert_eq!(code, 2);
    assert!(err.contains("`yaml` is not a report format"), "{err}");
}

#[test]
fn a_report_file_that_cannot_be_written_is_an_error_naming_it() {
    let (code, _, err) = verify_props(&["--report", "json=/nonexistent-dir/r.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot write the Json report to /nonexistent-dir/r.json"), "{err}");
}
