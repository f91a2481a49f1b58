//! Diagnostics about the user's input, rendered with the source line under them (ariadne).
//!
//! Every error about input carries the file, line and column; rendering reads the file again to
//! show the line, and falls back to a plain `file:line:col: message` when it cannot.

use std::fmt;

use ariadne::{Config, Label, Report, ReportKind, Source};

use crate::ir::SrcSpan;

/// Source lines longer than this many characters are shown as a window around the column.
const MAX_SHOWN_LINE: usize = 160;

/// An error about the user's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The headline, e.g. "unsupported construct: pointer".
    pub message: String,
    /// Where, if known.
    pub span: Option<SrcSpan>,
    /// A short label under the source excerpt.
    pub label: String,
    /// Further explanation, one sentence each.
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic at `span`.
    pub fn at(span: SrcSpan, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
        Diagnostic { message: message.into(), span: Some(span), label: label.into(), notes: Vec::new() }
    }

    /// A diagnostic without a position (a missing file, a bad option).
    pub fn global(message: impl Into<String>) -> Diagnostic {
        Diagnostic { message: message.into(), span: None, label: String::new(), notes: Vec::new() }
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Renders the diagnostic for a terminal or a log, reading the file to show the source line.
    pub fn render(&self, color: bool) -> String {
        let Some(span) = &self.span else {
            let mut out = format!("error: {}\n", self.message);
            for n in &self.notes {
                out.push_str(&format!("  note: {n}\n"));
            }
            return out;
        };
        let source = read_shown(std::path::Path::new(&span.file));
        let Some(source) = source.filter(|s| char_offset(s, span.line, span.col).is_some()) else {
            let mut out = format!("error: {}: {}\n", span, self.message);
            for n in &self.notes {
                out.push_str(&format!("  note: {n}\n"));
            }
            return out;
        };
        // A very long line (generated or minified code) is not shown whole: the message gets
        // a window of the line around the column instead of an excerpt.
        let line_text = source.lines().nth(span.line as usize - 1).unwrap_or("");
        let n_chars = line_text.chars().count();
        if n_chars > MAX_SHOWN_LINE {
            let col = span.col as usize - 1;
            let from = col.saturating_sub(MAX_SHOWN_LINE / 3);
            let to = (from + MAX_SHOWN_LINE).min(n_chars);
            let window: String = line_text.chars().skip(from).take(to - from).collect();
            let mut out = format!("error: {}: {}\n", span, self.message);
            out.push_str(&format!(
                "  near: {}{window}{}\n",
                if from > 0 { "…" } else { "" },
                if to < n_chars { "…" } else { "" }
            ));
            out.push_str(&format!("  note: line {} has {n_chars} characters; shown: {}..{to}\n", span.line, from + 1));
            for n in &self.notes {
                out.push_str(&format!("  note: {n}\n"));
            }
            return out;
        }
        // A span at the end of a file without a final newline (a file cut short) lies past its
        // last character, where ariadne shows no line: the newline gives it one to point at.
        let mut source = source;
        if !source.ends_with('\n') {
            source.push('\n');
        }
        let start = char_offset(&source, span.line, span.col).unwrap_or(0);
        let end = char_offset(&source, span.end_line, span.end_col).unwrap_or(start).max(start + 1);
        let id = span.file.as_str();
        let mut report = Report::build(ReportKind::Error, (id, start..end))
            .with_config(Config::default().with_color(color))
            .with_message(format!("{}: {}", span, self.message))
            .with_label(Label::new((id, start..end)).with_message(&self.label));
        for n in &self.notes {
            report = report.with_note(n);
        }
        let mut out = Vec::new();
        let written = report.finish().write((id, Source::from(source.as_str())), &mut out);
        match written {
            Ok(()) => String::from_utf8_lossy(&out).into_owned(),
            Err(_) => format!("error: {}: {}\n", span, self.message),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.span {
            Some(s) => write!(f, "{s}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Diagnostic {}

/// The largest input file read (a C source, a spec, a file shown in a message): 256 MiB.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// The bytes of the regular file at `path` (a link is followed), at most `limit` of them. Anything
/// else is an error, not read: a FIFO would wait for a writer for ever and a device such as
/// `/dev/zero` never ends; so is a file longer than `limit`. Every file subst reads (sources,
/// specs, cache entries, files named by line markers) is read through here.
pub fn read_file(path: &std::path::Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        let what = if meta.is_dir() { "a folder" } else { "not a regular file (a FIFO, socket or device)" };
        return Err(std::io::Error::other(format!("it is {what}")));
    }
    if meta.len() > limit {
        return Err(std::io::Error::other(format!("it is larger than {} MiB", limit >> 20)));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::other(format!("it is larger than {} MiB", limit >> 20)));
    }
    Ok(bytes)
}

/// The text of the regular file at `path` when it can be read ([`read_file`], at most
/// [`MAX_INPUT_BYTES`]) and is UTF-8: for showing source lines, where a file that cannot be
/// shown is no error.
pub fn read_shown(path: &std::path::Path) -> Option<String> {
    String::from_utf8(read_file(path, MAX_INPUT_BYTES).ok()?).ok()
}

/// The text of `path`, or a diagnostic at its first byte that is not UTF-8, or `unreadable`'s
/// diagnostic when it cannot be read ([`read_file`]: a regular file of at most
/// [`MAX_INPUT_BYTES`]).
pub fn read_utf8(
    path: &std::path::Path,
    unreadable: impl FnOnce(std::io::Error) -> Diagnostic,
) -> Result<String, Diagnostic> {
    let bytes = read_file(path, MAX_INPUT_BYTES).map_err(unreadable)?;
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        Diagnostic::at(non_utf8_span(path, bytes, &e.utf8_error()), "the file is not UTF-8 text", "this byte")
    })
}

/// The position of the first byte of `bytes` that is not UTF-8, as a span of `path`.
fn non_utf8_span(path: &std::path::Path, bytes: &[u8], e: &std::str::Utf8Error) -> SrcSpan {
    let valid = &bytes[..e.valid_up_to()];
    let line = valid.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    // `valid` is UTF-8, so the column counts characters.
    let col = std::str::from_utf8(&valid[line_start..]).map_or(1, |t| t.chars().count() as u32 + 1);
    SrcSpan { file: path.display().to_string(), line, col, end_line: line, end_col: col + 1 }
}

/// The character offset of 1-based `line` and `col` in `source` (ariadne counts characters).
pub fn char_offset(source: &str, line: u32, col: u32) -> Option<usize> {
    let mut offset = 0;
    for (i, text) in source.split_inclusive('\n').enumerate() {
        let n = text.chars().count();
        if i + 1 == line as usize {
            return ((col as usize) <= n + 1).then_some(offset + col as usize - 1);
        }
        offset += n;
    }
    None
}
