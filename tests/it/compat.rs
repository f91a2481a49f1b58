//! `subst check OLD NEW` with a spec that has an assembly: compatibility of the upgraded C
//! assembly by CEGAR over DynamicCheck (paper 003 Fig. 2), re-using the old check's tables.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use subst::check::Verdict;
use subst::check::ag::InterfaceAlphabet;
use subst::check::cegar::{CegarOptions, CegarOutcome};
use subst::check::compat::{self, CompatOptions};
use subst::front::{self, FrontOptions};
use subst::learn::CexMode;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A version of the lock assembly: a folder with a client and a server.
fn version(dir: &Path, client: &str, server: &str) -> front::Program {
    std::fs::create_dir_all(dir).expect("mkdir");
    std::fs::copy(root().join(client), dir.join("client.c")).expect("copy");
    std::fs::copy(root().join(server), dir.join("server.c")).expect("copy");
    let spec = subst::spec::load(&root().join("specs/lock.lts")).expect("the spec loads");
    let options = FrontOptions { families: spec.family_ranges(), ..FrontOptions::default() };
    front::load(&[dir.to_path_buf()], &options).expect("loads")
}

fn check(new_client: &str, new_server: &str) -> &'static compat::Compatibility {
    check_over(new_client, new_server, InterfaceAlphabet::Full)
}

/// [`check`], the assumptions over `alphabet`: run once per test binary for each upgrade and
/// alphabet (in a thread of its own, as a test of its own had: Z3's context is per thread), so
/// that the test of alphabet refinement compares against the runs over the whole interface
/// that the tests above read.
fn check_over(new_client: &str, new_server: &str, alphabet: InterfaceAlphabet) -> &'static compat::Compatibility {
    type Cells = BTreeMap<(String, String, bool), &'static OnceLock<compat::Compatibility>>;
    static RUNS: Mutex<Cells> = Mutex::new(BTreeMap::new());
    let key = (new_client.to_string(), new_server.to_string(), alphabet == InterfaceAlphabet::Refine);
    let cell: &'static OnceLock<_> = RUNS.lock().unwrap().entry(key).or_insert_with(|| Box::leak(Box::default()));
    cell.get_or_init(|| {
        std::thread::scope(|s| s.spawn(|| check_afresh(new_client, new_server, alphabet)).join())
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

/// [`check_over`], run now.
fn check_afresh(new_client: &str, new_server: &str, alphabet: InterfaceAlphabet) -> compat::Compatibility {
    let dir = tempfile::tempdir().expect("a temp dir");
    let old = version(&dir.path().join("old"), "examples-c/lock_client.c", "examples-c/lock_server.c");
    let new = version(&dir.path().join("new"), new_client, new_server);
    let spec = subst::spec::load(&root().join("specs/lock.lts")).expect("the spec loads");
    let options = CompatOptions {
        properties: vec!["GRANTED".into()],
        order: Vec::new(),
        cex: CexMode::RivestSchapire,
        learner: subst::learn::Algorithm::LStar,
        reuse: Default::default(),
        // No search of the product first: these tests are about what DynamicCheck re-uses.
        probe: 0,
        alphabet,
        limits: CegarOptions::default(),
        cache: subst::cache::Cache::disabled(),
    };
    compat::check(&spec, "LOCK", &old, &new, &options).expect("checks")
}

#[test]
fn an_unchanged_assembly_is_re_proved_from_the_old_tables() {
    let r = check("examples-c/lock_client.c", "examples-c/lock_server.c");
    let p = &r.results[0];
    assert_eq!(p.original.verdict(), Verdict::Holds);
    assert_eq!(p.upgrade.verdict(), Verdict::Holds);
    // Same code: same predicates, same models, same tables; nothing new is learned.
    assert_eq!(p.upgrade.stats.refinements, 0);
    assert!(
        p.upgrade.stats.membership < p.original.stats.membership,
        "upgrade {} vs original {}",
        p.upgrade.stats.membership,
        p.original.stats.membership
    );
}

#[test]
fn a_greedy_server_with_the_well_behaved_client_keeps_granted() {
    let r = check("examples-c/lock_client.c", "examples-c/assembly/greedy_server.c");
    assert_eq!(r.results[0].upgrade.verdict(), Verdict::Holds);
}

#[test]
fn a_greedy_upgrade_of_both_components_breaks_granted_with_replayed_runs() {
    let r = check("examples-c/assembly/greedy_client.c", "examples-c/assembly/greedy_server.c");
    let p = &r.results[0];
    assert_eq!(p.original.verdict(), Verdict::Holds);
    let CegarOutcome::Fails { trace, runs } = &p.upgrade.outcome else { panic!("{:?}", p.upgrade.outcome) };
    // The same trace as the FSP model GREEDY_MODEL and `subst verify` on the same files.
    assert_eq!(trace.join(" "), "request grant.1 request grant.1");
    // Both components' runs (already replayed by the interpreter inside the check).
    let mut names: Vec<&str> = runs.iter().map(|r| r.component.as_str()).collect();
    names.sort();
    assert_eq!(names, ["client", "lock_server"]);
}

#[test]
fn alphabet_refinement_gives_the_verdicts_of_the_whole_interface_on_the_lock_upgrades() {
    let same = |o: &compat::CompatRun| std::mem::discriminant(&o.verdict());
    for (client, server) in [
        ("examples-c/lock_client.c", "examples-c/lock_server.c"),
        ("examples-c/lock_client.c", "examples-c/assembly/greedy_server.c"),
        ("examples-c/assembly/greedy_client.c", "examples-c/assembly/greedy_server.c"),
    ] {
        let full = &check_over(client, server, InterfaceAlphabet::Full).results[0];
        let refined = &check_over(client, server, InterfaceAlphabet::Refine).results[0];
        assert_eq!(same(&refined.original), same(&full.original), "{client} {server}: original");
        assert_eq!(same(&refined.upgrade), same(&full.upgrade), "{client} {server}: upgrade");
    }
}

/// `subst check` on the lock assembly upgraded to the greedy components, with `cache` options:
/// (exit code, the property's verdict and trace, whether the old check came from the cache).
/// The cache secret of these tests' runs (kept outside the cache folder, as in CI).
const TEST_KEY: &str = "the secret of tests/compat.rs";

fn check_cli(dir: &Path, cache: &[&str]) -> (i32, String, serde_json::Value, bool) {
    let (code, p, _) = lock_check(dir, cache);
    (
        code,
        p["verdict"].as_str().unwrap_or_default().to_string(),
        p["trace"].clone(),
        p["original"]["cached"].as_bool().expect("a flag"),
    )
}

/// `subst check` of the lock assembly in `dir` with `args` added, in JSON: (exit code, the
/// property's report, stderr).
fn lock_check(dir: &Path, args: &[&str]) -> (i32, serde_json::Value, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_subst"))
        .current_dir(dir)
        .args(["check", "old", "new", "--spec"])
        .arg(root().join("specs/lock.lts"))
        .args(["--assembly", "LOCK", "--prop", "GRANTED", "--format", "json", "--max-missing", "1"])
        // DynamicCheck learns tables for the cache only when no search of the product decides.
        .args(["--probe-states", "0"])
        .args(args)
        .env(subst::cache::KEY_ENV, TEST_KEY)
        .output()
        .expect("subst runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    (out.status.code().unwrap_or(-1), v["properties"][0].clone(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_damaged_stale_foreign_or_missing_cache_gives_the_verdict_of_no_cache() {
    let dir = tempfile::tempdir().expect("a temp dir");
    version(&dir.path().join("old"), "examples-c/lock_client.c", "examples-c/lock_server.c");
    version(&dir.path().join("new"), "examples-c/assembly/greedy_client.c", "examples-c/assembly/greedy_server.c");
    // The damages below are to L*'s tables (`--learner lstar`).
    let reference = check_cli(dir.path(), &["--no-cache", "--learner", "lstar"]);
    assert_eq!((reference.0, reference.1.as_str()), (1, "fails"));
    assert!(!reference.3);
    let cache = dir.path().join("cache");
    let with_cache = ["--cache", cache.to_str().expect("a UTF-8 path"), "--learner", "lstar"];
    // Missing: computed, then stored.
    let first = check_cli(dir.path(), &with_cache);
    assert_eq!((first.0, &first.1, &first.2, first.3), (reference.0, &reference.1, &reference.2, false));
    let entries: Vec<PathBuf> = std::fs::read_dir(cache.join("compat"))
        .expect("entries were written")
        .map(|e| e.expect("an entry").path())
        .collect();
    assert_eq!(entries.len(), 2, "the old and the new assembly");
    // Present and valid: the old check is read, the verdict is the same.
    let second = check_cli(dir.path(), &with_cache);
    assert_eq!((second.0, &second.1, &second.2, second.3), (reference.0, &reference.1, &reference.2, true));
    let originals: Vec<String> = entries.iter().map(|p| std::fs::read_to_string(p).expect("readable")).collect();
    type Damage<'a> = (&'a str, &'a dyn Fn(&str) -> String);
    let damages: [Damage; 6] = [
        ("truncated", &|t: &str| t[..t.len() / 2].to_string()),
        ("garbage", &|_: &str| "\u{0}\u{1}not json at all {".to_string()),
        ("another tool version", &|t: &str| t.replace(&subst::cache::tool(), "subst 0.0.0-other")),
        ("an answer changed in place", &|t: &str| {
            let changed = t.replacen("true]", "false]", 1);
            assert_ne!(changed, t, "an answer to change");
            changed
        }),
        ("tables of the wrong shape, checksum redone", &|t: &str| {
            each_table(t, |table| table["s"] = serde_json::json!([[7, 7, 7]]))
        }),
        ("every answer wrong, checksum redone", &|t: &str| {
            each_table(t, |table| {
                for pair in table["answers"].as_array_mut().expect("answers").iter_mut() {
                    pair[1] = serde_json::json!(!pair[1].as_bool().expect("an answer"));
                }
            })
        }),
    ];
    for (what, damage) in damages {
        for (p, text) in entries.iter().zip(&originals) {
            std::fs::write(p, damage(text)).expect("write");
        }
        let got = check_cli(dir.path(), &with_cache);
        assert_eq!((got.0, &got.1, &got.2), (reference.0, &reference.1, &reference.2), "{what}");
        // An entry whose checksum fails is a miss; one written consistently is read, and its
        // tables are dropped (wrong shape) or learned again (wrong answers).
        assert_eq!(got.3, what.ends_with("checksum redone"), "{what}: whether the old check was read");
        for (p, text) in entries.iter().zip(&originals) {
            std::fs::write(p, text).expect("restore");
        }
    }
    // The predicates kept per component: damaged ones are ignored, with the same verdict.
    let predicates: Vec<PathBuf> = std::fs::read_dir(cache.join("predicates"))
        .expect("predicates were written")
        .map(|e| e.expect("an entry").path())
        .collect();
    assert!(!predicates.is_empty());
    let originals: Vec<String> = predicates.iter().map(|p| std::fs::read_to_string(p).expect("readable")).collect();
    let damages: [Damage; 7] = [
        ("unbalanced predicates", &|t: &str| each_predicate(t, |p| format!("(and {p}"))),
        ("a NUL in a predicate", &|t: &str| each_predicate(t, |p| format!("{p}\u{0}"))),
        ("a predicate over an unknown variable", &|t: &str| {
            each_predicate(t, |_| "(= undeclared_variable #x00000000)".to_string())
        }),
        ("SMT-LIB commands in a predicate", &|t: &str| {
            each_predicate(t, |_| "true) (declare-fun x () Bool) (assert x".to_string())
        }),
        ("one list too few", &|t: &str| {
            resealed(t, |payload| {
                payload["at"].as_array_mut().expect("lists").pop();
            })
        }),
        ("an index past the predicates", &|t: &str| {
            resealed(t, |payload| {
                payload["at"][0].as_array_mut().expect("a list").push(serde_json::json!(1_000_000));
            })
        }),
        ("a predicate twice", &|t: &str| {
            resealed(t, |payload| {
                let formulas = payload["formulas"].as_array_mut().expect("formulas");
                let first = formulas[0].clone();
                formulas.insert(0, first);
            })
        }),
    ];
    for (what, damage) in damages {
        for (p, text) in predicates.iter().zip(&originals) {
            std::fs::write(p, damage(text)).expect("write");
        }
        let got = check_cli(dir.path(), &with_cache);
        assert_eq!((got.0, &got.1, &got.2, got.3), (reference.0, &reference.1, &reference.2, true), "{what}");
        for (p, text) in predicates.iter().zip(&originals) {
            std::fs::write(p, text).expect("restore");
        }
    }
}

/// An entry whose payload was changed by `f`, with the MAC of the changed payload under the
/// runs' key: what a writer with the key and a bug, rather than a damaged disk, would leave.
fn resealed(entry: &str, f: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(entry).expect("JSON");
    f(&mut v["payload"]);
    let key = subst::cache::Key::from_secret(TEST_KEY.as_bytes());
    let (kind, entry_key) = (v["kind"].as_str().expect("a kind"), v["key"].as_str().expect("a key"));
    v["mac"] = serde_json::json!(subst::cache::mac(&key, kind, entry_key, &v["payload"]));
    v.to_string()
}

/// An entry whose payload was changed by `f` by someone without the key, who recomputed a
/// plain BLAKE3 checksum (the format before entries were authenticated).
fn forged(entry: &str, f: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(entry).expect("JSON");
    f(&mut v["payload"]);
    v["mac"] = serde_json::json!(blake3::hash(v["payload"].to_string().as_bytes()).to_hex().to_string());
    v.to_string()
}

#[test]
fn a_cached_verdict_flipped_with_a_recomputed_checksum_is_not_believed() {
    let dir = tempfile::tempdir().expect("a temp dir");
    version(&dir.path().join("old"), "examples-c/lock_client.c", "examples-c/lock_server.c");
    version(&dir.path().join("new"), "examples-c/lock_client.c", "examples-c/lock_server.c");
    let cache = dir.path().join("cache");
    let with_cache = ["--cache", cache.to_str().expect("a UTF-8 path")];
    let first = check_cli(dir.path(), &with_cache);
    assert_eq!((first.0, first.1.as_str(), first.3), (0, "holds", false));
    let entry =
        std::fs::read_dir(cache.join("compat")).expect("entries").next().expect("one").expect("an entry").path();
    let text = std::fs::read_to_string(&entry).expect("readable");
    std::fs::write(
        &entry,
        forged(&text, |payload| {
            payload["verdict"] = serde_json::json!("fails");
            payload["trace"] = serde_json::json!(["acquire", "acquire"]);
        }),
    )
    .expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_subst"))
        .current_dir(dir.path())
        .args(["check", "old", "new", "--spec"])
        .arg(root().join("specs/lock.lts"))
        .args(["--assembly", "LOCK", "--prop", "GRANTED", "--format", "json", "--cache"])
        .arg(&cache)
        .env(subst::cache::KEY_ENV, TEST_KEY)
        .output()
        .expect("subst runs");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let original = &report["properties"][0]["original"];
    assert_eq!((original["verdict"].as_str(), original["cached"].as_bool()), (Some("holds"), Some(false)));
    assert_eq!(out.status.code(), Some(0));
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("WARN") && log.contains("MAC does not match"), "the rejection is logged: {log}");
}

/// A cached run with `f` applied to the table of every level.
fn each_table(entry: &str, f: fn(&mut serde_json::Value)) -> String {
    resealed(entry, |payload| {
        for level in payload["levels"].as_array_mut().expect("levels").iter_mut() {
            if level.is_object() {
                f(&mut level["table"]);
            }
        }
    })
}

/// A cached predicates entry with `f` applied to every predicate, and one more at every location.
fn each_predicate(entry: &str, f: fn(&str) -> String) -> String {
    resealed(entry, |payload| {
        let formulas = payload["formulas"].as_array_mut().expect("formulas");
        for p in formulas.iter_mut() {
            *p = serde_json::json!(f(p.as_str().unwrap_or_default()));
        }
        formulas.push(serde_json::json!(f("(= x x)")));
        let extra = formulas.len() - 1;
        for list in payload["at"].as_array_mut().expect("lists per location").iter_mut() {
            list.as_array_mut().expect("a list").push(serde_json::json!(extra));
        }
    })
}

#[test]
fn verify_with_the_compositional_engine_fills_the_cache_that_check_reads() {
    let dir = tempfile::tempdir().expect("a temp dir");
    version(&dir.path().join("old"), "examples-c/lock_client.c", "examples-c/lock_server.c");
    version(&dir.path().join("new"), "examples-c/assembly/greedy_client.c", "examples-c/assembly/greedy_server.c");
    let cache = dir.path().join("cache");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_subst"))
        .current_dir(dir.path())
        .args(["verify", "old/client.c", "old/server.c", "--engine", "ag", "--spec"])
        .arg(root().join("specs/lock.lts"))
        .args(["--assembly", "LOCK", "--prop", "GRANTED", "--cache"])
        .arg(&cache)
        .env(subst::cache::KEY_ENV, TEST_KEY)
        .output()
        .expect("subst runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let (code, verdict, _, cached) = check_cli(dir.path(), &["--cache", cache.to_str().expect("UTF-8")]);
    assert_eq!((code, verdict.as_str(), cached), (1, "fails", true));
}

/// A second run reads the first one's entry and gives its verdict and trace:
/// - under a time limit (the deadline is a different instant in every run; it must not be part
///   of the key);
/// - in every re-use mode, which starts the new check from the cached trees; these were never
///   closed against the old assembly (adaptive L# takes a model of what such a tree knows as
///   its reference).
#[test]
fn a_second_run_reads_the_first_ones_cache_and_keeps_its_verdict() {
    let options: [&[&str]; 5] = [
        &["--timeout", "600"],
        &["--reuse", "hints"],
        &["--reuse", "revalidate"],
        &["--reuse", "adaptive"],
        &["--reuse", "hints-then-adaptive"],
    ];
    for extra in options {
        let dir = tempfile::tempdir().expect("a temp dir");
        version(&dir.path().join("old"), "examples-c/lock_client.c", "examples-c/lock_server.c");
        version(&dir.path().join("new"), "examples-c/assembly/greedy_client.c", "examples-c/assembly/greedy_server.c");
        let cache = dir.path().join("cache");
        let mut args = vec!["--cache", cache.to_str().expect("UTF-8")];
        args.extend_from_slice(extra);
        let first = check_cli(dir.path(), &args);
        let second = check_cli(dir.path(), &args);
        assert_eq!((first.0, first.1.as_str(), first.3), (1, "fails", false), "{extra:?}");
        assert_eq!((second.0, second.1.as_str(), second.3), (1, "fails", true), "{extra:?}");
        assert_eq!(second.2, first.2, "{extra:?}: the same trace");
    }
}

#[test]
fn an_undecided_old_check_in_the_cache_is_run_again() {
    let dir = tempfile::tempdir().expect("a temp dir");
    version(&dir.path().join("old"), "examples-c/lock_client.c", "examples-c/lock_server.c");
    version(&dir.path().join("new"), "examples-c/assembly/greedy_client.c", "examples-c/assembly/greedy_server.c");
    let cache = dir.path().join("cache");
    let args = ["--cache", cache.to_str().expect("UTF-8"), "--timeout", "0"];
    for round in 0..2 {
        let (code, verdict, _, cached) = check_cli(dir.path(), &args);
        // A time limit depends on the machine's load: its `unknown` is not a result to keep.
        assert_eq!((code, verdict.as_str(), cached), (3, "unknown", false), "round {round}");
    }
}

#[test]
fn a_cache_folder_that_is_a_file_gives_the_verdict_of_no_cache_with_one_warning() {
    let dir = tempfile::tempdir().expect("a temp dir");
    version(&dir.path().join("old"), "examples-c/lock_client.c", "examples-c/lock_server.c");
    version(&dir.path().join("new"), "examples-c/lock_client.c", "examples-c/assembly/greedy_server.c");
    let reference = check_cli(dir.path(), &["--no-cache"]);
    for cache in ["a_file", "a_file/below"] {
        std::fs::write(dir.path().join("a_file"), "not a folder").expect("write");
        let got = check_cli(dir.path(), &["--cache", cache]);
        assert_eq!(got, reference, "--cache {cache}");
        assert_eq!(std::fs::read_to_string(dir.path().join("a_file")).expect("read"), "not a folder");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_subst"))
            .current_dir(dir.path())
            .args(["check", "old", "new", "--spec"])
            .arg(root().join("specs/lock.lts"))
            .args(["--assembly", "LOCK", "--prop", "GRANTED", "--max-missing", "1", "--cache", cache])
            .env(subst::cache::KEY_ENV, TEST_KEY)
            .output()
            .expect("subst runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.matches("WARN").count(), 1, "{stderr}");
        assert!(stderr.contains("the cache is not used"), "{stderr}");
    }
}

/// `subst check` of the lock assembly in `dir` with `args`: (exit code, verdict, trace, the
/// upgrade's run in the JSON report, stderr).
fn check_models(dir: &Path, args: &[&str]) -> (i32, String, serde_json::Value, serde_json::Value, String) {
    let (code, p, stderr) = lock_check(dir, args);
    (code, p["verdict"].as_str().unwrap_or_default().to_string(), p["trace"].clone(), p["upgrade"].clone(), stderr)
}

/// The model entries of `cache`, sorted.
fn model_entries(cache: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(cache.join("model"))
        .expect("models were written")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    entries
}

#[test]
fn a_cached_re_check_loads_the_old_models_and_a_changed_component_gets_its_own() {
    // Both components change (the greedy pair): their new models are built, never taken from
    // the entries of the old code, and the verdict is that of a run without the cache.
    let dir = tempfile::tempdir().expect("a temp dir");
    version(&dir.path().join("old"), "examples-c/lock_client.c", "examples-c/lock_server.c");
    version(&dir.path().join("new"), "examples-c/assembly/greedy_client.c", "examples-c/assembly/greedy_server.c");
    let reference = check_models(dir.path(), &["--no-cache"]);
    assert_eq!((reference.0, reference.1.as_str()), (1, "fails"));
    let cache = dir.path().join("cache");
    let args = ["--cache", cache.to_str().expect("UTF-8")];
    let first = check_models(dir.path(), &args);
    assert_eq!(first.3.get("models_loaded"), None, "nothing to load the first time");
    // The old and the new version's two components.
    assert_eq!(model_entries(&cache).len(), 4);
    let second = check_models(dir.path(), &args);
    assert_eq!((second.0, &second.1, &second.2), (reference.0, &reference.1, &reference.2));
    assert_eq!((&second.3["models_loaded"], second.3.get("models_rebuilt")), (&2.into(), None), "{}", second.3);
    assert_eq!(second.3["refinements"], reference.3["refinements"]);
    assert_eq!(second.3["membership_queries"], reference.3["membership_queries"]);
}

#[test]
fn a_damaged_forged_or_moved_model_entry_is_rebuilt_with_one_warning_each() {
    let dir = tempfile::tempdir().expect("a temp dir");
    version(&dir.path().join("old"), "examples-c/lock_client.c", "examples-c/lock_server.c");
    version(&dir.path().join("new"), "examples-c/lock_client.c", "examples-c/assembly/greedy_server.c");
    let reference = check_models(dir.path(), &["--no-cache"]);
    let cache = dir.path().join("cache");
    let args = ["--cache", cache.to_str().expect("UTF-8")];
    check_models(dir.path(), &args);
    let entries = model_entries(&cache);
    let originals: Vec<String> = entries.iter().map(|p| std::fs::read_to_string(p).expect("readable")).collect();
    // Each entry's text under another entry's key (the next one's), the key field rewritten:
    // an authentic model of other code or another precision.
    let moved: Vec<String> = (0..entries.len())
        .map(|i| {
            let mut v: serde_json::Value = serde_json::from_str(&originals[i]).expect("JSON");
            let other: serde_json::Value = serde_json::from_str(&originals[(i + 1) % entries.len()]).expect("JSON");
            v["key"] = other["key"].clone();
            v.to_string()
        })
        .collect();
    type Damage<'a> = (&'a str, &'a dyn Fn(usize, &str) -> String);
    let damages: [Damage; 6] = [
        ("garbage", &|_, _| "{\"format\": 4, \"payload\": [".to_string()),
        ("rewritten without the key", &|_, t| forged(t, |p| p["arg"]["states"] = serde_json::json!([]))),
        ("moved under another key", &|i, _| moved[(i + entries.len() - 1) % entries.len()].clone()),
        ("an edge to a state that does not exist", &|_, t| {
            resealed(t, |p| {
                let out = p["arg"]["out"].as_array_mut().expect("edges per state");
                let edges = out.iter_mut().find(|e| !e.as_array().expect("edges").is_empty()).expect("an edge");
                edges[0][3] = serde_json::json!(1_000_000);
            })
        }),
        ("a valuation longer than its location's predicates", &|_, t| {
            resealed(t, |p| {
                for s in p["arg"]["states"].as_array_mut().expect("states").iter_mut() {
                    if let Some(v) = s.get_mut(1) {
                        *v = serde_json::json!(format!("{}1", v.as_str().expect("bits")));
                    }
                }
            })
        }),
        ("an IR edge past the component's", &|_, t| {
            resealed(t, |p| {
                for edges in p["arg"]["out"].as_array_mut().expect("edges per state").iter_mut() {
                    for e in edges.as_array_mut().expect("edges").iter_mut() {
                        e[0] = serde_json::json!(usize::MAX);
                    }
                }
            })
        }),
    ];
    for (what, damage) in damages {
        for (i, (p, text)) in entries.iter().zip(&originals).enumerate() {
            std::fs::write(p, damage(i, text)).expect("write");
        }
        let got = check_models(dir.path(), &args);
        assert_eq!((got.0, &got.1, &got.2), (reference.0, &reference.1, &reference.2), "{what}");
        // Both old models were misses, and built again from their predicates.
        assert_eq!((got.3.get("models_loaded"), &got.3["models_rebuilt"]), (None, &2.into()), "{what}: {}", got.3);
        assert_eq!(got.4.matches("WARN").count(), 2, "{what}: one warning per entry read: {}", got.4);
        for (p, text) in entries.iter().zip(&originals) {
            std::fs::write(p, text).expect("restore");
        }
    }
    // Damaged answers (a valuation that is no bits) drop the answers only: the model is loaded.
    for (p, text) in entries.iter().zip(&originals) {
        let damaged = resealed(text, |p| {
            for answer in p["answers"]["edges"].as_array_mut().expect("answers").iter_mut() {
                for succ in answer[1].as_array_mut().expect("successors").iter_mut() {
                    succ[1] = serde_json::json!("2");
                }
            }
        });
        std::fs::write(p, damaged).expect("write");
    }
    let got = check_models(dir.path(), &args);
    assert_eq!((got.0, &got.1, &got.2), (reference.0, &reference.1, &reference.2), "damaged answers");
    assert_eq!(got.3["models_loaded"], 2, "{}", got.3);
}
