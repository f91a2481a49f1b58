//! The contract of the command line (issue 16): state propositions are checked against the
//! sources, every verdict command speaks text, JSON and SARIF, one spec search serves every
//! command. Inputs are files under `tests/data/`; outputs are snapshots.

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

// ---- Spec discovery --------------------------------------------------------------------------

/// The spec that `subst -v check` in `tests/data/discovery/CASE` reports it found.
fn found_spec(case: &str, old: &str, new: &str) -> String {
    let (code, out, err) = subst(&data("discovery").join(case), &["-v", "check", old, new]);
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
