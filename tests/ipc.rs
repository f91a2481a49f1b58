//! The IPC assembly of `examples-c/ipc/` (seven C components, paper 003 Section 7): P1 after
//! each upgrade, by `subst check` with compatibility only, at the smallest sizes so that the
//! suite stays quick. The verdicts are those of `examples-c/ipc/README.md`.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `subst check --skip-containment` of the old IPC against `new` for `prop`: (exit code, stdout).
fn check(new: &str, prop: &str, format: &str) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_subst"))
        .current_dir(root())
        .args(["check", "examples-c/ipc/old/ipc.c", new, "--spec", "examples-c/ipc/ipc.lts", "--prop", prop])
        .args(["--skip-containment", "--no-cache", "--cpp=-DWQSIZE=1", "--cpp=-DQSIZE=1", "--format", format])
        .output()
        .expect("subst runs");
    assert!(out.stderr.is_empty() || out.status.code() != Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn p1_survives_the_queue_upgrades() {
    for upgrade in ["ipc1", "ipc2", "ipc3", "ipc4", "new_assumptions"] {
        let (code, json) = check(&format!("examples-c/ipc/upgrades/{upgrade}/ipc.c"), "P1", "json");
        let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        let p = &v["properties"][0];
        assert_eq!(
            (code, p["original"]["verdict"].as_str(), p["verdict"].as_str()),
            (0, Some("holds"), Some("holds")),
            "{upgrade}"
        );
    }
}

#[test]
fn an_unchanged_assembly_is_re_proved_without_membership_queries() {
    let (code, json) = check("examples-c/ipc/old/ipc.c", "P1", "json");
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let p = &v["properties"][0];
    assert_eq!(code, 0);
    assert!(p["original"]["membership_queries"].as_u64().is_some_and(|n| n > 0));
    assert_eq!(p["upgrade"]["membership_queries"], 0);
    assert_eq!(p["upgrade"]["refinements"], 0);
}

#[test]
fn a_write_queue_that_writes_without_the_lock_breaks_p1() {
    let (code, text) = check("examples-c/ipc/upgrades/break_p1/ipc.c", "P1", "text");
    assert_eq!(code, 1, "{text}");
    // The components' runs were replayed by the interpreter before they were reported.
    assert!(text.contains("property P1: old HOLDS, new FAILS"), "{text}");
    assert!(text.contains("trace: wq_put1.0 wq_ack1.1"), "{text}");
    insta::assert_snapshot!(text);
}
