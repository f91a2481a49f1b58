//! Block encoding of CEGAR's may-abstraction ([`subst::abs::blocks`]): on the same programs,
//! CEGAR alone (without the invariant prover that `subst verify` runs before it) reaches the
//! same verdict with abstract states only at loop heads, event points and the entry, so with
//! fewer abstract states than with one at every location.

use std::path::{Path, PathBuf};

use subst::abs::blocks::Blocks;
use subst::abs::{Abstractor, EventView};
use subst::check::cegar::{CPart, CegarOptions, CegarOutcome, run};
use subst::front::{self, FrontOptions};

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(name)
}

/// What CEGAR alone on `main` of `path` ends with.
struct Ended {
    verdict: String,
    states: usize,
    refinements: usize,
}

fn cegar(path: &Path, blocks: Blocks) -> Ended {
    let program = front::load(&[path.to_path_buf()], &FrontOptions::default()).expect("loads");
    let comp = program.lower("main").expect("lowers");
    let mut parts = [CPart::new(Abstractor::new(&comp, EventView::Hidden))];
    let options = CegarOptions { blocks, ..CegarOptions::default() };
    let (outcome, stats) = run(&[], &mut parts, None, options);
    let verdict = match outcome {
        CegarOutcome::Holds => "holds".to_string(),
        CegarOutcome::Fails { trace, .. } => format!("fails: {}", trace.join(" ")),
        CegarOutcome::Unknown(r) => format!("unknown: {r}"),
    };
    Ended { verdict, states: stats.abstract_states, refinements: stats.refinements }
}

#[test]
fn explore() {
    for f in std::env::var("BLOCK_FILES").unwrap_or_default().split(',').filter(|s| !s.is_empty()) {
        for b in [Blocks::Single, Blocks::Loop] {
            let t = std::time::Instant::now();
            let e = cegar(&example(f), b);
            eprintln!("{f} {b:?}: {} states {} refinements {} ({:?})", e.verdict, e.states, e.refinements, t.elapsed());
        }
    }
}
