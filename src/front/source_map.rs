//! Maps byte offsets in gcc's preprocessed output back to positions in the original files.
//!
//! gcc's line markers (`# 12 "file.c" 1`) give the file and line of each preprocessed line. The
//! column is recovered by matching the non-blank characters of the preprocessed line against the
//! original line, because the preprocessor collapses white space and removes comments. Where a
//! macro expansion makes the two lines differ, the column of the preprocessed text is kept and
//! the origin's text is the expanded text.

use crate::util::HashMap;
use std::path::Path;

use crate::ir::SrcSpan;

/// The origin of one preprocessed line.
#[derive(Clone, Debug)]
struct LineOrigin {
    /// Byte offset of the line in the preprocessed text.
    start: usize,
    /// Index into `SourceMap::files`, or `None` for a marker line.
    file: Option<usize>,
    /// Line in that file.
    line: u32,
}

/// Offsets in preprocessed text to original positions.
pub struct SourceMap {
    lines: Vec<LineOrigin>,
    files: Vec<String>,
    /// The original files' lines, read on demand; `None` if unreadable.
    contents: HashMap<usize, Option<Vec<String>>>,
    preprocessed: String,
}

/// Parses `# 12 "file.c" 1 3` into the line number and the file name.
fn parse_marker(line: &str) -> Option<(u32, String)> {
    let rest = line.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits_end = rest.find(|c: char| !c.is_ascii_digit())?;
    let n: u32 = rest[..digits_end].parse().ok()?;
    let rest = rest[digits_end..].trim_start().strip_prefix('"')?;
    let mut name = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some((n, name)),
            '\\' => name.push(chars.next()?),
            c => name.push(c),
        }
    }
    None
}

impl SourceMap {
    /// Builds the map of `preprocessed`, the output of `gcc -E`.
    pub fn new(preprocessed: String) -> SourceMap {
        let mut lines = Vec::new();
        let mut files: Vec<String> = Vec::new();
        let mut file: Option<usize> = None;
        let mut line = 1u32;
        let mut start = 0;
        for text in preprocessed.split_inclusive('\n') {
            if let Some((n, name)) = parse_marker(text.trim_end()) {
                let idx = files.iter().position(|f| *f == name).unwrap_or_else(|| {
                    files.push(name);
                    files.len() - 1
                });
                lines.push(LineOrigin { start, file: None, line: 0 });
                file = Some(idx);
                line = n;
            } else {
                lines.push(LineOrigin { start, file, line });
                line += 1;
            }
            start += text.len();
        }
        SourceMap { lines, files, contents: HashMap::default(), preprocessed }
    }

    fn line_index(&self, offset: usize) -> usize {
        self.lines.partition_point(|l| l.start <= offset).saturating_sub(1)
    }

    fn original_lines(&mut self, file: usize) -> Option<&Vec<String>> {
        let name = self.files[file].clone();
        self.contents
            .entry(file)
            .or_insert_with(|| {
                std::fs::read_to_string(Path::new(&name)).ok().map(|s| s.lines().map(str::to_string).collect())
            })
            .as_ref()
    }

    /// The preprocessed line containing `offset` and the byte column of `offset` in it.
    fn preprocessed_line(&self, offset: usize) -> (usize, &str, usize) {
        let idx = self.line_index(offset);
        let start = self.lines.get(idx).map_or(0, |l| l.start);
        let end = self.preprocessed[start..].find('\n').map_or(self.preprocessed.len(), |e| start + e);
        let offset = offset.min(end);
        (idx, &self.preprocessed[start..end], offset - start)
    }

    /// The original (file, line, column) of a preprocessed byte offset. When the column cannot be
    /// matched exactly against the original line (a macro expansion on the
    /// line), a start position moves to where the lines start to differ and an end position to
    /// where they stop differing, so that the span covers the macro invocation.
    fn position(&mut self, offset: usize, is_end: bool) -> (Option<usize>, u32, u32) {
        let (idx, ptext, pcol) = self.preprocessed_line(offset);
        let ptext = ptext.to_string();
        let Some(origin) = self.lines.get(idx).cloned() else { return (None, 1, 1) };
        let fallback_col = ptext[..pcol].chars().count() as u32 + 1;
        let Some(file) = origin.file else { return (None, 1, fallback_col) };
        let Some(orig) = self.original_lines(file).and_then(|ls| ls.get(origin.line as usize - 1)).cloned() else {
            return (Some(file), origin.line, fallback_col);
        };
        match align_column(&ptext, pcol, &orig) {
            Some(col) => (Some(file), origin.line, col),
            None => {
                let (first_diff, last_diff_end) = difference(&ptext, &orig);
                (Some(file), origin.line, if is_end { last_diff_end } else { first_diff })
            }
        }
    }

    /// The original span and text of a preprocessed byte range.
    pub fn span(&mut self, start: usize, end: usize) -> (SrcSpan, String) {
        let end = end.max(start);
        let (file, line, col) = self.position(start, false);
        let (end_file, end_line, end_col) = self.position(end, true);
        let file_name = file.map_or_else(|| "<unknown>".to_string(), |f| self.files[f].clone());
        let same_file = file == end_file && end_line >= line;
        let span = if same_file {
            SrcSpan { file: file_name, line, col, end_line, end_col }
        } else {
            SrcSpan { file: file_name, line, col, end_line: line, end_col: col }
        };
        let expanded = self.preprocessed.get(start..end).unwrap_or("").to_string();
        // The original text, where positions are known; within a macro expansion, the text of
        // the invocation.
        let text = if same_file && (span.end_col > span.col || span.end_line > span.line) {
            self.original_text(file, &span).filter(|t| !t.trim().is_empty()).unwrap_or(expanded)
        } else {
            expanded
        };
        (span, normalize_space(&text))
    }

    fn original_text(&mut self, file: Option<usize>, span: &SrcSpan) -> Option<String> {
        let lines = self.original_lines(file?)?;
        let mut out = String::new();
        for l in span.line..=span.end_line {
            let text = lines.get(l as usize - 1)?;
            let chars: Vec<char> = text.chars().collect();
            let from = if l == span.line { span.col as usize - 1 } else { 0 };
            let to = if l == span.end_line { (span.end_col as usize - 1).min(chars.len()) } else { chars.len() };
            out.extend(chars.get(from.min(to)..to)?);
            out.push('\n');
        }
        Some(out)
    }

    /// Position of a byte offset as `file:line:col`, for messages about the preprocessed text.
    pub fn describe(&mut self, offset: usize) -> SrcSpan {
        self.span(offset, offset).0
    }
}

/// Collapses runs of white space into single spaces and trims.
fn normalize_space(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The 1-based columns in `orig` of the first non-blank character that differs from `ptext`
/// and just past the last one, comparing non-blank characters from the start and from the end.
fn difference(ptext: &str, orig: &str) -> (u32, u32) {
    let p: Vec<char> = ptext.chars().filter(|c| !c.is_whitespace()).collect();
    let o: Vec<(usize, char)> = orig.chars().enumerate().filter(|(_, c)| !c.is_whitespace()).collect();
    let prefix = p.iter().zip(&o).take_while(|(a, (_, b))| *a == b).count();
    let suffix = p.iter().rev().zip(o.iter().rev()).take_while(|(a, (_, b))| *a == b).count();
    let line_end = orig.chars().count() as u32 + 1;
    let first = o.get(prefix).map_or(line_end, |(i, _)| *i as u32 + 1);
    let last = if suffix < o.len() { o[o.len() - 1 - suffix].0 as u32 + 2 } else { first };
    (first, last.max(first))
}

/// Finds the 1-based character column in `orig` that corresponds to byte column `pcol` of the
/// preprocessed line `ptext`, by aligning the non-blank characters before it or, when a macro
/// expansion precedes it, the non-blank characters after it.
fn align_column(ptext: &str, pcol: usize, orig: &str) -> Option<u32> {
    align_prefix(ptext, pcol, orig).or_else(|| align_suffix(ptext, pcol, orig))
}

/// The position in `orig` with the same non-blank characters after it as `ptext` has after
/// `pcol`, which must match exactly.
fn align_suffix(ptext: &str, pcol: usize, orig: &str) -> Option<u32> {
    let target: Vec<char> = ptext[pcol..].chars().filter(|c| !c.is_whitespace()).collect();
    let chars: Vec<char> = orig.chars().collect();
    let mut seen = 0;
    for col in (0..=chars.len()).rev() {
        if seen == target.len() {
            // Skip back over blanks to the first character of the suffix (or the line's end).
            let mut at = col;
            while at < chars.len() && chars[at].is_whitespace() {
                at += 1;
            }
            return Some(at as u32 + 1);
        }
        let c = *chars.get(col.checked_sub(1)?)?;
        if c.is_whitespace() {
            continue;
        }
        if target[target.len() - 1 - seen] != c {
            return None;
        }
        seen += 1;
    }
    None
}

/// The position in `orig` with as many non-blank characters before it as `ptext` has before
/// `pcol`; the lines must agree on those characters and on the next one.
fn align_prefix(ptext: &str, pcol: usize, orig: &str) -> Option<u32> {
    let target: Vec<char> = ptext[..pcol].chars().filter(|c| !c.is_whitespace()).collect();
    let next = ptext[pcol..].chars().find(|c| !c.is_whitespace());
    let mut seen = 0;
    for (col, c) in orig.chars().enumerate() {
        if c.is_whitespace() {
            continue;
        }
        if seen == target.len() {
            return (next.is_none() || next == Some(c)).then_some(col as u32 + 1);
        }
        if target[seen] != c {
            return None;
        }
        seen += 1;
    }
    // The offset is at the end of the line.
    (seen == target.len()).then_some(orig.chars().count() as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_survive_collapsed_white_space() {
        assert_eq!(align_column("  x = y;", 6, "  x   =   y;"), Some(11));
        assert_eq!(align_column("x = 3 + y;", 4, "x = FOO + y;"), None);
        // After a macro, the column is found from the end of the line.
        assert_eq!(align_column("f(3, y);", 5, "f(N, y);"), Some(6));
    }

    #[test]
    fn markers_name_file_and_line() {
        assert_eq!(parse_marker("# 7 \"a b.c\" 2"), Some((7, "a b.c".to_string())));
        assert_eq!(parse_marker("int x;"), None);
    }
}
