//! Rendering of results. Results are data first ([`crate::check`]); this module turns them into
//! text for a terminal (JSON and SARIF follow with the containment report).

use std::fmt::Write;

use crate::check::Verdict;
use crate::check::verify::Verification;

/// The text report of `subst verify`.
pub fn verification_text(v: &Verification) -> String {
    let mut out = format!("{} ({})\n", v.assembly, v.file);
    let width = v.results.iter().map(|r| r.property.len()).max().unwrap_or(0);
    for r in &v.results {
        let states = format!("{} states, {:.1} ms", r.states, r.time.as_secs_f64() * 1e3);
        match &r.verdict {
            Verdict::Holds => {
                let _ = writeln!(out, "  {:width$}  holds     ({states})", r.property);
            }
            Verdict::Fails(trace) => {
                let _ = writeln!(out, "  {:width$}  VIOLATED  ({states})", r.property);
                let shown = if trace.is_empty() { "<empty>".to_string() } else { trace.join(" ") };
                let _ = writeln!(out, "  {:width$}  trace: {shown}", "");
            }
            Verdict::Unknown(reason) => {
                let _ = writeln!(out, "  {:width$}  unknown   ({reason})", r.property);
            }
        }
    }
    let verdict = match v.verdict() {
        Verdict::Holds => "holds",
        Verdict::Fails(_) => "fails",
        Verdict::Unknown(_) => "unknown",
    };
    let _ = writeln!(out, "verdict: {verdict}");
    out
}
