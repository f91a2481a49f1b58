//! The header comments of the programs under `examples-c/`, which state their expected runs.
//!
//! A header is the block of `//` lines that opens the file:
//!
//! ```c
//! // Components: writer reader
//! // run: writer inputs=3,5,-1 limit=12
//! // expect: acquire send.3 release acquire send.5 release
//! // end: eof
//! ```
//!
//! `Components:` comes first and names the component functions of the file. Then come runs, each
//! three lines: `run:` with the component, the input values (`inputs=` may be empty) and the event
//! limit; `expect:` with the events, space separated (possibly none); `end:` with one of `exit`,
//! `eof`, `blocked`, `limit` or `fault(KIND)`. A file under `examples-c/unsupported/` has an
//! `error:` line with a short description of the construct that subst must reject, and no runs.

use std::path::{Path, PathBuf};

/// How an expected run ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExpectedEnd {
    /// The component returned, or called `exit`, `abort` or `reach_error`.
    Exit,
    /// An input was needed and none was left.
    Eof,
    /// An assumption was false.
    Blocked,
    /// The run reached its event limit.
    Limit,
    /// The statement after the last event faults; the text is the fault's keyword, such as
    /// `div_by_zero` or `index_out_of_bounds`.
    Fault(String),
}

impl ExpectedEnd {
    /// The end as the header writes it.
    pub fn keyword(&self) -> String {
        match self {
            ExpectedEnd::Exit => "exit".to_string(),
            ExpectedEnd::Eof => "eof".to_string(),
            ExpectedEnd::Blocked => "blocked".to_string(),
            ExpectedEnd::Limit => "limit".to_string(),
            ExpectedEnd::Fault(kind) => format!("fault({kind})"),
        }
    }
}

/// One expected run of a component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectedRun {
    /// The component to run.
    pub component: String,
    /// The values that nondet functions and receiving events consume, in order.
    pub inputs: Vec<i128>,
    /// The maximum number of events.
    pub limit: usize,
    /// The expected events, as `name` or `name.V`.
    pub events: Vec<String>,
    /// The expected end.
    pub end: ExpectedEnd,
}

/// The header of one example.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExampleHeader {
    /// The component functions of the file.
    pub components: Vec<String>,
    /// The expected runs (none for an unsupported example).
    pub runs: Vec<ExpectedRun>,
    /// For an unsupported example, the description of the construct to reject.
    pub error: Option<String>,
}

/// Parses the header at the start of `text`.
pub fn parse_header(text: &str) -> Result<ExampleHeader, String> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .take_while(|(_, l)| l.starts_with("//"))
        .map(|(i, l)| (i + 1, l.trim_start_matches('/').trim()))
        .collect();
    let mut lines = lines.into_iter();
    let (_, first) = lines.next().ok_or("no header comment")?;
    let components: Vec<String> = first
        .strip_prefix("Components:")
        .ok_or("the header must start with `// Components:`")?
        .split_whitespace()
        .map(str::to_string)
        .collect();
    if components.is_empty() {
        return Err("`Components:` names no component".to_string());
    }
    let mut runs = Vec::new();
    let mut error = None;
    while let Some((line_no, line)) = lines.next() {
        let at = |message: String| format!("header line {line_no}: {message}");
        if let Some(description) = line.strip_prefix("error:") {
            error = Some(description.trim().to_string());
            continue;
        }
        let run =
            line.strip_prefix("run:").ok_or_else(|| at(format!("expected `run:` or `error:`, found `{line}`")))?;
        let run = parse_run(run).map_err(at)?;
        let (_, expect) = lines.next().ok_or_else(|| at("`run:` without `expect:`".to_string()))?;
        let events =
            expect.strip_prefix("expect:").ok_or_else(|| at("`run:` must be followed by `expect:`".to_string()))?;
        let (_, end) = lines.next().ok_or_else(|| at("`run:` without `end:`".to_string()))?;
        let end = end.strip_prefix("end:").ok_or_else(|| at("`expect:` must be followed by `end:`".to_string()))?;
        let end = parse_end(end.trim()).map_err(at)?;
        let (component, inputs, limit) = run;
        if !components.contains(&component) {
            return Err(at(format!("`{component}` is not among the components")));
        }
        let events = events.split_whitespace().map(str::to_string).collect();
        runs.push(ExpectedRun { component, inputs, limit, events, end });
    }
    Ok(ExampleHeader { components, runs, error })
}

fn parse_run(text: &str) -> Result<(String, Vec<i128>, usize), String> {
    let mut words = text.split_whitespace();
    let component = words.next().ok_or("`run:` names no component")?.to_string();
    let inputs = words.next().and_then(|w| w.strip_prefix("inputs=")).ok_or("expected `inputs=`")?;
    let inputs = if inputs.is_empty() {
        Vec::new()
    } else {
        inputs
            .split(',')
            .map(|v| v.parse::<i128>().map_err(|e| format!("input `{v}`: {e}")))
            .collect::<Result<_, _>>()?
    };
    let limit = words.next().and_then(|w| w.strip_prefix("limit=")).ok_or("expected `limit=`")?;
    let limit = limit.parse().map_err(|e| format!("limit `{limit}`: {e}"))?;
    if let Some(extra) = words.next() {
        return Err(format!("unexpected `{extra}` after the limit"));
    }
    Ok((component, inputs, limit))
}

fn parse_end(text: &str) -> Result<ExpectedEnd, String> {
    Ok(match text {
        "exit" => ExpectedEnd::Exit,
        "eof" => ExpectedEnd::Eof,
        "blocked" => ExpectedEnd::Blocked,
        "limit" => ExpectedEnd::Limit,
        _ => {
            let kind = text
                .strip_prefix("fault(")
                .and_then(|k| k.strip_suffix(')'))
                .ok_or_else(|| format!("unknown end `{text}`"))?;
            ExpectedEnd::Fault(kind.to_string())
        }
    })
}

/// The `.c` files directly in `dir`, sorted, so that tests visit them in a stable order.
pub fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "c"))
        .collect();
    files.sort();
    files
}
