//! Every FSP model under `specs/` states its checks in its header:
//!
//! ```text
//! // check: SYS ORDER holds
//! // check: BROKEN ORDER fails
//! // trace: input send output output
//! ```
//!
//! A `trace:` line gives the expected shortest counterexample of the check before it. This test
//! runs every check with `subst verify`'s engine, compares the verdict and the length of the
//! counterexample, and replays each counterexample on the explicitly composed assembly with the
//! property's error automaton: it must be a real trace that reaches π. The compositional
//! engine (`--engine ag`, with the whole interface and with alphabet refinement) must agree
//! with the monolithic one, and its counterexamples must replay the same way.

use std::path::PathBuf;

use subst::automata::compose::compose;
use subst::automata::dla::Trace;
use subst::automata::safety::error_automaton;
use subst::check::Verdict;
use subst::check::ag::InterfaceAlphabet;
use subst::check::verify;
use subst::learn::{Algorithm, CexMode};
use subst::spec;

use crate::common;
use common::traces::reaches_error;

struct Check {
    assembly: String,
    property: String,
    holds: bool,
    trace: Option<Vec<String>>,
}

fn checks(text: &str) -> Vec<Check> {
    let mut out: Vec<Check> = Vec::new();
    for line in text.lines() {
        let Some(line) = line.trim().strip_prefix("//") else { continue };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["check:", assembly, property, verdict] => out.push(Check {
                assembly: assembly.to_string(),
                property: property.to_string(),
                holds: *verdict == "holds",
                trace: None,
            }),
            ["trace:", events @ ..] => {
                out.last_mut().expect("trace: follows check:").trace =
                    Some(events.iter().map(|e| e.to_string()).collect())
            }
            _ => {}
        }
    }
    out
}

#[test]
fn every_model_checks_with_its_stated_verdict() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("specs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "lts"))
        .collect();
    files.sort();
    let mut n_checks = 0;
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let model = spec::parse(&text, &path.display().to_string()).unwrap_or_else(|d| panic!("{}", d.render(false)));
        for c in checks(&text) {
            n_checks += 1;
            let where_ = format!("{} {} {}", path.display(), c.assembly, c.property);
            let run = |engine, learner, alphabet| {
                verify::verify(
                    &model,
                    &c.assembly,
                    std::slice::from_ref(&c.property),
                    engine,
                    &[],
                    CexMode::RivestSchapire,
                    (learner, alphabet),
                    // No search of the product first: every verdict of `ag` is the rule's.
                    0,
                    subst::deadline::Deadline::none(),
                )
                .unwrap_or_else(|d| panic!("{where_}: {}", d.render(false)))
                .verdict()
            };
            let mono = run(verify::Engine::Mono, Algorithm::LStar, InterfaceAlphabet::Full);
            let ag = run(verify::Engine::Ag, Algorithm::LStar, InterfaceAlphabet::Full);
            let ag_lsharp = run(verify::Engine::Ag, Algorithm::LSharp, InterfaceAlphabet::Full);
            // Alphabet refinement with either learner gives the same verdicts.
            let refined = [Algorithm::LStar, Algorithm::LSharp]
                .map(|learner| (learner, run(verify::Engine::Ag, learner, InterfaceAlphabet::Refine)));
            if matches!(mono, Verdict::Holds) != matches!(ag_lsharp, Verdict::Holds) {
                failures.push(format!("{where_}: mono says {mono:?}, ag with L# says {ag_lsharp:?}"));
            }
            for (name, verdict) in
                [("ag", &ag)].into_iter().chain(refined.iter().map(|(_, v)| ("ag --alphabet refine", v)))
            {
                if let Verdict::Fails(trace) = verdict {
                    // The compositional engine's counterexample must be real too.
                    let assembly = model.assembly(&c.assembly).unwrap();
                    let p_err = error_automaton(&model.process(&c.property).unwrap()).unwrap();
                    let product = compose(&[&assembly.compose(), &p_err]);
                    if !reaches_error(&product, trace) {
                        failures.push(format!("{where_}: {name} counterexample {trace:?} does not reach π"));
                    }
                }
            }
            if matches!(mono, Verdict::Holds) != matches!(ag, Verdict::Holds) {
                failures.push(format!("{where_}: mono says {mono:?}, ag says {ag:?}"));
            }
            for (learner, verdict) in &refined {
                if matches!(mono, Verdict::Holds) != matches!(verdict, Verdict::Holds) {
                    failures.push(format!(
                        "{where_}: mono says {mono:?}, ag --alphabet refine with {learner} says {verdict:?}"
                    ));
                }
            }
            match (mono, c.holds) {
                (Verdict::Holds, true) => {}
                (Verdict::Fails(trace), false) => {
                    if let Some(expected) = &c.trace
                        && expected.len() != trace.len()
                    {
                        failures.push(format!("{where_}: trace {trace:?}, expected one as short as {expected:?}"));
                    }
                    // Replay on the explicit product with P_err.
                    let assembly = model.assembly(&c.assembly).unwrap();
                    let p_err = error_automaton(&model.process(&c.property).unwrap()).unwrap();
                    let hidden = assembly.compose();
                    let product = compose(&[&hidden, &p_err]);
                    if !reaches_error(&product, &trace) {
                        failures.push(format!(
                            "{where_}: counterexample {} does not reach π",
                            Trace::of_events(&trace.iter().map(String::as_str).collect::<Vec<_>>())
                        ));
                    }
                }
                (v, holds) => {
                    failures.push(format!("{where_}: got {v:?}, expected {}", if holds { "holds" } else { "fails" }))
                }
            }
        }
    }
    assert!(n_checks >= 12, "only {n_checks} checks in specs/");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
