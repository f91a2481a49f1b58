//! `subst check OLD NEW` with a spec that has an assembly: compatibility of the upgraded C
//! assembly by CEGAR over DynamicCheck (paper 003 Fig. 2), re-using the old check's tables.

use std::path::{Path, PathBuf};

use subst::check::Verdict;
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

fn check(new_client: &str, new_server: &str) -> compat::Compatibility {
    let dir = tempfile::tempdir().expect("a temp dir");
    let old = version(&dir.path().join("old"), "examples-c/lock_client.c", "examples-c/lock_server.c");
    let new = version(&dir.path().join("new"), new_client, new_server);
    let spec = subst::spec::load(&root().join("specs/lock.lts")).expect("the spec loads");
    let options = CompatOptions {
        properties: vec!["GRANTED".into()],
        order: Vec::new(),
        cex: CexMode::RivestSchapire,
        limits: CegarOptions::default(),
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
