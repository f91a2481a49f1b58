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
///
/// Every span asks for two positions, so the work per position must not grow with the length of
/// its line: a generated file with thousands of statements on one line made the front end
/// quadratic. The alignment of one preprocessed line with its original line ([`LineAlignment`])
/// is computed once, in time linear in the two lines, and answers each position in constant time.
pub struct SourceMap {
    lines: Vec<LineOrigin>,
    files: Vec<String>,
    /// The original files' lines as characters, read on demand; `None` if unreadable.
    contents: HashMap<usize, Option<Vec<Vec<char>>>>,
    preprocessed: String,
    /// The alignment of the preprocessed line asked about last (spans come in runs on one line).
    aligned: Option<LineAlignment>,
    /// Alignments computed so far (one per run of spans on a line).
    #[cfg(test)]
    n_alignments: usize,
}

/// One preprocessed line aligned with the original line it comes from.
struct LineAlignment {
    /// The index of the preprocessed line in [`SourceMap::lines`].
    idx: usize,
    /// Per byte offset in the preprocessed line (and one past its end): the characters and the
    /// non-blank characters before it.
    before: Vec<(u32, u32)>,
    /// The non-blank characters of the preprocessed line.
    p_solid: Vec<char>,
    /// The original line, `None` when it cannot be read, with the character columns (0-based) of
    /// its non-blank characters, and the lengths of the longest common prefix and suffix of the
    /// two lines' non-blank characters.
    orig: Option<Original>,
}

struct Original {
    n_chars: usize,
    solid_cols: Vec<usize>,
    common_prefix: usize,
    common_suffix: usize,
}

impl LineAlignment {
    /// The alignment of the preprocessed line `ptext` (line `idx`) with its original line `orig`.
    fn new(idx: usize, ptext: &str, orig: Option<&[char]>) -> LineAlignment {
        let mut before = Vec::with_capacity(ptext.len() + 1);
        let mut p_solid = Vec::new();
        let mut n_chars = 0u32;
        let mut chars = ptext.char_indices().peekable();
        for b in 0..=ptext.len() {
            // A byte inside a character counts that character as before it.
            while let Some(&(i, c)) = chars.peek() {
                if i >= b {
                    break;
                }
                n_chars += 1;
                if !c.is_whitespace() {
                    p_solid.push(c);
                }
                chars.next();
            }
            before.push((n_chars, p_solid.len() as u32));
        }
        let orig = orig.map(|chars| {
            let solid_cols: Vec<usize> =
                chars.iter().enumerate().filter(|(_, c)| !c.is_whitespace()).map(|(i, _)| i).collect();
            let n = p_solid.len().min(solid_cols.len());
            let common_prefix = (0..n).take_while(|&k| p_solid[k] == chars[solid_cols[k]]).count();
            let common_suffix = (0..n)
                .take_while(|&k| p_solid[p_solid.len() - 1 - k] == chars[solid_cols[solid_cols.len() - 1 - k]])
                .count();
            Original { n_chars: chars.len(), solid_cols, common_prefix, common_suffix }
        });
        LineAlignment { idx, before, p_solid, orig }
    }
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
                // gcc stops counting at the largest line number (`#line 4294967295` is
                // accepted); so does the map, where `+ 1` overflowed.
                line = line.saturating_add(1);
            }
            start += text.len();
        }
        SourceMap {
            lines,
            files,
            contents: HashMap::default(),
            preprocessed,
            aligned: None,
            #[cfg(test)]
            n_alignments: 0,
        }
    }

    fn line_index(&self, offset: usize) -> usize {
        self.lines.partition_point(|l| l.start <= offset).saturating_sub(1)
    }

    fn original_lines(&mut self, file: usize) -> Option<&Vec<Vec<char>>> {
        let name = self.files[file].clone();
        self.contents
            .entry(file)
            .or_insert_with(|| {
                crate::diag::read_shown(Path::new(&name)).map(|s| s.lines().map(|l| l.chars().collect()).collect())
            })
            .as_ref()
    }

    /// The alignment of the preprocessed line `idx`, computed on first use.
    fn alignment(&mut self, idx: usize) -> &LineAlignment {
        if self.aligned.as_ref().is_none_or(|a| a.idx != idx) {
            let origin = self.lines.get(idx).cloned();
            let orig = origin
                .as_ref()
                .and_then(|o| o.file.map(|f| (f, o.line)))
                .and_then(|(f, line)| self.original_lines(f)?.get((line as usize).checked_sub(1)?).cloned());
            let start = origin.map_or(0, |l| l.start);
            let end = self.preprocessed[start..].find('\n').map_or(self.preprocessed.len(), |e| start + e);
            self.aligned = Some(LineAlignment::new(idx, &self.preprocessed[start..end], orig.as_deref()));
            #[cfg(test)]
            {
                self.n_alignments += 1;
            }
        }
        self.aligned.as_ref().expect("set above")
    }

    /// The original (file, line, column) of a preprocessed byte offset. When the column cannot be
    /// matched exactly against the original line (a macro expansion on the
    /// line), a start position moves to where the lines start to differ and an end position to
    /// where they stop differing, so that the span covers the macro invocation.
    fn position(&mut self, offset: usize, is_end: bool) -> (Option<usize>, u32, u32) {
        let idx = self.line_index(offset);
        let Some(origin) = self.lines.get(idx).cloned() else { return (None, 1, 1) };
        let align = self.alignment(idx);
        let pcol = offset.saturating_sub(origin.start).min(align.before.len() - 1);
        let (chars_before, solid_before) = align.before[pcol];
        let fallback_col = chars_before + 1;
        let Some(file) = origin.file else { return (None, 1, fallback_col) };
        let Some(orig) = &align.orig else { return (Some(file), origin.line, fallback_col) };
        match align_column(&align.p_solid, solid_before as usize, orig) {
            Some(col) => (Some(file), origin.line, col),
            None => {
                let (first_diff, last_diff_end) = difference(orig);
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
            let chars = lines.get(l as usize - 1)?;
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

/// The 1-based columns in the original line of the first non-blank character that differs from
/// the preprocessed line and just past the last one, comparing non-blank characters from the
/// start and from the end.
fn difference(orig: &Original) -> (u32, u32) {
    let o = &orig.solid_cols;
    let line_end = orig.n_chars as u32 + 1;
    let first = o.get(orig.common_prefix).map_or(line_end, |i| *i as u32 + 1);
    let last = if orig.common_suffix < o.len() { o[o.len() - 1 - orig.common_suffix] as u32 + 2 } else { first };
    (first, last.max(first))
}

/// The 1-based character column in the original line that corresponds to the point of the
/// preprocessed line with `k` of its non-blank characters `p_solid` before it: the position
/// with as many non-blank characters before it, when the lines agree on those and on the next
/// one, or else, when a macro expansion precedes it, the position with the same non-blank
/// characters after it, which must match exactly.
fn align_column(p_solid: &[char], k: usize, orig: &Original) -> Option<u32> {
    let o = &orig.solid_cols;
    // As many non-blank characters before it, all equal, and the next one equal too.
    if k <= orig.common_prefix {
        if k == o.len() {
            return Some(orig.n_chars as u32 + 1);
        }
        // Past the common prefix, the next characters differ unless the preprocessed line ends.
        if k < orig.common_prefix || k >= p_solid.len() {
            return Some(o[k] as u32 + 1);
        }
    }
    // The same non-blank characters after it.
    let after = p_solid.len().checked_sub(k)?;
    if after > orig.common_suffix {
        return None;
    }
    Some(if after == 0 { orig.n_chars as u32 + 1 } else { o[o.len() - after] as u32 + 1 })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The column in `orig` of byte `pcol` of `ptext`.
    fn column(ptext: &str, pcol: usize, orig: &str) -> Option<u32> {
        let chars: Vec<char> = orig.chars().collect();
        let a = LineAlignment::new(0, ptext, Some(&chars));
        align_column(&a.p_solid, a.before[pcol].1 as usize, a.orig.as_ref().expect("an original line"))
    }

    #[test]
    fn columns_survive_collapsed_white_space() {
        assert_eq!(column("  x = y;", 6, "  x   =   y;"), Some(11));
        assert_eq!(column("x = 3 + y;", 4, "x = FOO + y;"), None);
        // After a macro, the column is found from the end of the line.
        assert_eq!(column("f(3, y);", 5, "f(N, y);"), Some(6));
        // The end of the line, and a line whose end was cut off.
        assert_eq!(column("x = y;", 6, "x =  y;"), Some(8));
        assert_eq!(column("x = y; z", 7, "x = y;"), Some(7));
    }

    #[test]
    fn the_spans_of_one_long_line_align_it_once() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let file = dir.path().join("long.c");
        let line: String = (0..2000).map(|i| format!("x = x + {i}; ")).collect();
        std::fs::write(&file, format!("int x;\n{line}\n")).expect("write");
        let marker = format!("# 1 \"{}\"\n", file.display());
        let mut map = SourceMap::new(format!("{marker}int x;\n{}\n", line.replace("  ", " ")));
        let start = marker.len() + "int x;\n".len();
        for (i, _) in line.match_indices("x =").step_by(10) {
            let (span, text) = map.span(start + i, start + i + 5);
            assert_eq!((span.line, span.col as usize, text.as_str()), (2, i + 1, "x = x"));
        }
        assert_eq!(map.n_alignments, 1);
    }

    #[test]
    fn markers_name_file_and_line() {
        assert_eq!(parse_marker("# 7 \"a b.c\" 2"), Some((7, "a b.c".to_string())));
        assert_eq!(parse_marker("int x;"), None);
    }
}
