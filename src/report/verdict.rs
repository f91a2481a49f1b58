//! The reports of `subst verify` (FSP models, C assemblies, C programs), of `subst check` on FSP
//! models, and of an input error, as JSON and SARIF 2.1.0. Like [`super::check`], each is one
//! data type serialised as it is (schemas in `docs/report.md`); SARIF is derived from it.
//!
//! An input error under `--format json|sarif` is a document too ([`ErrorReport`]), so that a CI
//! step that uploads stdout never uploads an empty file.

use serde::Serialize;
use serde_json::{Value, json};

use super::check::{ComponentRunReport, Location, Step, code_flows, file_location, sarif_location};
use crate::check::Verdict;
use crate::check::cegar::{AssemblyResult, CegarOutcome, ProgramResult};
use crate::check::upgrade::Upgrade;
use crate::check::verify::Verification;
use crate::diag::Diagnostic;

/// The version of the `verify` schema.
pub const VERIFY_SCHEMA: &str = "subst-verify/1";
/// The version of the schema of `check` on FSP models.
pub const UPGRADE_SCHEMA: &str = "subst-upgrade/1";
/// The version of the error schema.
pub const ERROR_SCHEMA: &str = "subst-error/1";

/// The verdict on one property.
#[derive(Clone, Debug, Serialize)]
pub struct PropertyVerdict {
    /// The property (`unreach-call` for a C program without a spec).
    pub property: String,
    /// `holds`, `fails` or `unknown`.
    pub verdict: String,
    /// Why it is unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A violating trace (visible events), when it fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<String>>,
    /// The label after every step of the trace, the initial label first (one more than the
    /// trace has events), as the FSP processes that own propositions decide it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<Vec<String>>>,
    /// Each C component's run along the trace, replayed by the interpreter.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<ComponentRunReport>,
}

/// The report of `subst verify`.
#[derive(Clone, Debug, Serialize)]
pub struct VerifyReport {
    /// [`VERIFY_SCHEMA`].
    pub schema: String,
    /// subst's version.
    pub tool_version: String,
    /// The sources or spec as given.
    pub target: String,
    /// The assembly checked; absent for a C program without a spec.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assembly: Option<String>,
    /// `holds`, `fails` or `unknown`.
    pub verdict: String,
    /// One entry per property.
    pub properties: Vec<PropertyVerdict>,
}

fn word(v: &Verdict) -> &'static str {
    match v {
        Verdict::Holds => "holds",
        Verdict::Fails(_) => "fails",
        Verdict::Unknown(_) => "unknown",
    }
}

fn from_verdict(property: &str, v: &Verdict) -> PropertyVerdict {
    PropertyVerdict {
        property: property.to_string(),
        verdict: word(v).to_string(),
        reason: match v {
            Verdict::Unknown(r) => Some(r.to_string()),
            _ => None,
        },
        trace: match v {
            Verdict::Fails(t) => Some(t.clone()),
            _ => None,
        },
        labels: None,
        runs: Vec::new(),
    }
}

fn from_outcome(property: &str, o: &CegarOutcome, components: &[crate::ir::Component]) -> PropertyVerdict {
    match o {
        CegarOutcome::Holds => from_verdict(property, &Verdict::Holds),
        CegarOutcome::Unknown(r) => PropertyVerdict {
            property: property.to_string(),
            verdict: "unknown".into(),
            reason: Some(r.to_string()),
            trace: None,
            labels: None,
            runs: Vec::new(),
        },
        CegarOutcome::Fails { trace, runs } => PropertyVerdict {
            property: property.to_string(),
            verdict: "fails".into(),
            reason: None,
            trace: Some(trace.clone()),
            labels: None,
            runs: runs
                .iter()
                .filter_map(|r| {
                    let comp = components.iter().find(|c| c.name == r.component)?;
                    Some(ComponentRunReport::new(comp, &r.witness))
                })
                .collect(),
        },
    }
}

impl VerifyReport {
    fn new(target: &str, assembly: Option<String>, verdict: &Verdict, properties: Vec<PropertyVerdict>) -> Self {
        VerifyReport {
            schema: VERIFY_SCHEMA.into(),
            tool_version: env!("CARGO_PKG_VERSION").into(),
            target: target.to_string(),
            assembly,
            verdict: word(verdict).into(),
            properties,
        }
    }

    /// The report of `subst verify` on an FSP model.
    pub fn of_model(target: &str, v: &Verification) -> VerifyReport {
        let props = v
            .results
            .iter()
            .map(|r| PropertyVerdict { labels: r.labels.clone(), ..from_verdict(&r.property, &r.verdict) })
            .collect();
        Self::new(target, Some(v.assembly.clone()), &v.verdict(), props)
    }

    /// The report of `subst verify` on an assembly of C components.
    pub fn of_assembly(target: &str, r: &AssemblyResult) -> VerifyReport {
        let props = r.results.iter().map(|p| from_outcome(&p.property, &p.outcome, &r.components)).collect();
        Self::new(target, Some(r.assembly.clone()), &r.verdict(), props)
    }

    /// The report with the label after every step of each property's trace (`labels`, one
    /// entry per property; see [`super::labels::of_assembly`]).
    pub fn with_labels(mut self, labels: &[Option<Vec<Vec<String>>>]) -> VerifyReport {
        for (p, l) in self.properties.iter_mut().zip(labels) {
            p.labels = l.clone();
        }
        self
    }

    /// The report of `subst verify` on a C program (SV-COMP's `unreach-call`).
    pub fn of_program(target: &str, comp: &crate::ir::Component, r: &ProgramResult) -> VerifyReport {
        let props = vec![from_outcome("unreach-call", &r.outcome, std::slice::from_ref(comp))];
        Self::new(target, None, &r.verdict(), props)
    }

    /// The JSON rendering.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The SARIF 2.1.0 rendering: a result per property that fails (with a thread flow per
    /// C component's run) or is unknown.
    pub fn sarif(&self) -> String {
        let results: Vec<Value> = self.properties.iter().filter_map(|p| property_result(p, &self.target)).collect();
        sarif_doc(&self.tool_version, results)
    }
}

/// The change of one property in `subst check` on FSP models.
#[derive(Clone, Debug, Serialize)]
pub struct PropertyUpgradeReport {
    /// The property.
    pub property: String,
    /// The verdict on the old assembly.
    pub old: String,
    /// The verdict on the new assembly.
    pub new: String,
    /// Why the new verdict is unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A violating trace of the new assembly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<String>>,
    /// The label after every step of the trace, the initial label first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<Vec<String>>>,
    /// Milliseconds of the check of the old assembly (T_orig) and of the new one (T_ug).
    pub t_orig_ms: f64,
    /// See `t_orig_ms`.
    pub t_ug_ms: f64,
}

/// The report of `subst check` on FSP models.
#[derive(Clone, Debug, Serialize)]
pub struct UpgradeReport {
    /// [`UPGRADE_SCHEMA`].
    pub schema: String,
    /// subst's version.
    pub tool_version: String,
    /// The old spec as given.
    pub old: String,
    /// The new spec as given.
    pub new: String,
    /// The assembly.
    pub assembly: String,
    /// Its parts whose automaton changed.
    pub changed: Vec<String>,
    /// `substitutable`, `not_substitutable` or `unknown`.
    pub verdict: String,
    /// One entry per property.
    pub properties: Vec<PropertyUpgradeReport>,
}

impl UpgradeReport {
    /// The report of an upgrade check.
    pub fn new(old: &str, new: &str, u: &Upgrade) -> UpgradeReport {
        let verdict = match u.verdict() {
            Verdict::Holds => "substitutable",
            Verdict::Fails(_) => "not_substitutable",
            Verdict::Unknown(_) => "unknown",
        };
        let properties = u
            .results
            .iter()
            .map(|r| {
                let p = from_verdict(&r.property, &r.upgrade.verdict);
                PropertyUpgradeReport {
                    property: r.property.clone(),
                    old: word(&r.original.verdict).into(),
                    new: p.verdict,
                    reason: p.reason,
                    trace: p.trace,
                    labels: r.upgrade.labels.clone(),
                    t_orig_ms: r.original.time.as_secs_f64() * 1e3,
                    t_ug_ms: r.upgrade.time.as_secs_f64() * 1e3,
                }
            })
            .collect();
        UpgradeReport {
            schema: UPGRADE_SCHEMA.into(),
            tool_version: env!("CARGO_PKG_VERSION").into(),
            old: old.into(),
            new: new.into(),
            assembly: u.assembly.clone(),
            changed: u.changed.clone(),
            verdict: verdict.into(),
            properties,
        }
    }

    /// The JSON rendering.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The SARIF 2.1.0 rendering: a result per property that fails or is unknown on the new
    /// assembly.
    pub fn sarif(&self) -> String {
        let results: Vec<Value> = self
            .properties
            .iter()
            .filter_map(|p| {
                let v = PropertyVerdict {
                    property: p.property.clone(),
                    verdict: p.new.clone(),
                    reason: p.reason.clone(),
                    trace: p.trace.clone(),
                    labels: p.labels.clone(),
                    runs: Vec::new(),
                };
                property_result(&v, &self.new)
            })
            .collect();
        sarif_doc(&self.tool_version, results)
    }
}

/// One diagnostic of an [`ErrorReport`].
#[derive(Clone, Debug, Serialize)]
pub struct DiagnosticReport {
    /// The headline.
    pub message: String,
    /// Where, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// What the location shows.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub label: String,
    /// Further explanation.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The document printed for bad input or usage under `--format json|sarif` (exit code 2).
#[derive(Clone, Debug, Serialize)]
pub struct ErrorReport {
    /// [`ERROR_SCHEMA`].
    pub schema: String,
    /// subst's version.
    pub tool_version: String,
    /// Always `error`.
    pub verdict: String,
    /// What is wrong; one entry today.
    pub diagnostics: Vec<DiagnosticReport>,
}

impl ErrorReport {
    /// The report of one diagnostic.
    pub fn new(d: &Diagnostic) -> ErrorReport {
        let location = d.span.as_ref().map(|s| Location {
            file: s.file.clone(),
            line: s.line,
            column: s.col,
            end_line: s.end_line,
            end_column: s.end_col,
        });
        ErrorReport {
            schema: ERROR_SCHEMA.into(),
            tool_version: env!("CARGO_PKG_VERSION").into(),
            verdict: "error".into(),
            diagnostics: vec![DiagnosticReport {
                message: d.message.clone(),
                location,
                label: d.label.clone(),
                notes: d.notes.clone(),
            }],
        }
    }

    /// The JSON rendering.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The SARIF 2.1.0 rendering: the run failed (`executionSuccessful: false`) and each
    /// diagnostic is a result of rule `subst/input-error` at its location.
    pub fn sarif(&self) -> String {
        let results: Vec<Value> = self
            .diagnostics
            .iter()
            .map(|d| {
                let mut text = d.message.clone();
                for n in &d.notes {
                    text.push_str("; ");
                    text.push_str(n);
                }
                let mut r = json!({
                    "ruleId": RULES[2].0,
                    "ruleIndex": 2,
                    "level": "error",
                    "message": { "text": text },
                });
                if let Some(l) = &d.location {
                    r["locations"] = json!([sarif_location(l, None)]);
                }
                r
            })
            .collect();
        let notifications: Vec<Value> =
            self.diagnostics.iter().map(|d| json!({ "level": "error", "message": { "text": d.message } })).collect();
        let mut doc: Value = serde_json::from_str(&sarif_doc(&self.tool_version, results)).unwrap_or_default();
        doc["runs"][0]["invocations"] =
            json!([{ "executionSuccessful": false, "toolExecutionNotifications": notifications }]);
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    }
}

const RULES: [(&str, &str); 3] = [
    ("subst/property-violated", "The assembly violates a safety property."),
    ("subst/property-unknown", "A property of the assembly could not be decided."),
    ("subst/input-error", "The input could not be read: bad C, a bad spec, or a bad option."),
];

fn property_result(p: &PropertyVerdict, target: &str) -> Option<Value> {
    let rule = |i: usize| json!({ "ruleId": RULES[i].0, "ruleIndex": i });
    match p.verdict.as_str() {
        "fails" => {
            let mut r = rule(0);
            r["level"] = json!("error");
            let trace = p.trace.clone().unwrap_or_default();
            let shown = if trace.is_empty() { "<empty trace>".to_string() } else { trace.join(" ") };
            r["message"] = json!({ "text": format!("property `{}` fails: {shown}", p.property) });
            let last: Option<&Step> = p.runs.iter().find_map(|run| run.path.last());
            r["locations"] = json!([match last {
                Some(s) => sarif_location(&s.location, None),
                None => file_location(target),
            }]);
            if let Some(flows) = code_flows(&p.runs) {
                r["codeFlows"] = flows;
            }
            r["properties"] = json!({ "property": p.property, "trace": trace });
            if let Some(labels) = &p.labels {
                r["properties"]["labels"] = json!(labels);
            }
            Some(r)
        }
        "unknown" => {
            let mut r = rule(1);
            r["level"] = json!("warning");
            let why = p.reason.clone().unwrap_or_default();
            r["message"] = json!({ "text": format!("property `{}` is unknown: {why}", p.property) });
            r["locations"] = json!([file_location(target)]);
            Some(r)
        }
        _ => None,
    }
}

fn sarif_doc(version: &str, results: Vec<Value>) -> String {
    let rules: Vec<Value> =
        RULES.iter().map(|(id, text)| json!({ "id": id, "shortDescription": { "text": text } })).collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": { "name": "subst", "version": version, "rules": rules } },
            "results": results,
        }]
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}
