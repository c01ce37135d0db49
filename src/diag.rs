//! Source files, spans, and front-end diagnostics (rendered like rustc's, through miette).

use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// A byte range `[start, end)` in one source file.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span `[start, end)`.
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end.max(start) as u32,
        }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
    /// Length in bytes.
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }
    /// Whether the span is empty.
    pub fn is_empty(self) -> bool {
        self.end == self.start
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// A 1-based line and column (columns count characters, not bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct LineCol {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
}

impl fmt::Display for LineCol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// Where the lines of a preprocessed text come from: for each line, a file (the user's
/// file or one of its `#include "..."` headers) and a line in it. Built by the front end
/// from the preprocessor's line markers.
#[derive(Clone, Debug, Default)]
pub struct LineMap {
    /// The original files: name and text (empty if it could not be read).
    files: Vec<(String, Arc<str>)>,
    /// For each 0-based line of the preprocessed text: (index in `files`, 1-based line).
    lines: Vec<(u32, u32)>,
}

impl LineMap {
    /// A map over `files` (name, text); `lines[k]` is the origin of line `k` (0-based) of
    /// the preprocessed text: an index in `files` and a 1-based line.
    pub fn new(files: Vec<(String, String)>, lines: Vec<(u32, u32)>) -> LineMap {
        LineMap {
            files: files.into_iter().map(|(n, t)| (n, t.into())).collect(),
            lines,
        }
    }
}

/// A source file: its name, its text, and the start of each line. A preprocessed file
/// also has a `LineMap`: then [`line_col`](SourceFile::line_col) and diagnostics give
/// the user's lines, not those of the preprocessed text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    name: String,
    text: Arc<str>,
    line_starts: Vec<usize>,
    map: Option<Arc<LineMap>>,
}

/// The original position of a byte of a (possibly preprocessed) source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin<'a> {
    /// The original file's name.
    pub file: &'a str,
    /// Its text (empty if unknown).
    pub text: &'a str,
    /// The line in it, and the column in the preprocessed line.
    pub pos: LineCol,
}

impl SourceFile {
    /// A source file named `name` with contents `text`.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text: String = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            name: name.into(),
            text: text.into(),
            line_starts,
            map: None,
        }
    }

    /// The output of the preprocessor for file `name`, with the map of its lines to the
    /// user's files.
    pub fn preprocessed(
        name: impl Into<String>,
        text: impl Into<String>,
        map: LineMap,
    ) -> SourceFile {
        SourceFile {
            map: Some(Arc::new(map)),
            ..SourceFile::new(name, text)
        }
    }

    /// Whether this is preprocessor output with a line map.
    pub fn is_preprocessed(&self) -> bool {
        self.map.is_some()
    }

    /// The position of a byte offset in the user's file: for a preprocessed file, the
    /// original file and line (the column is the one in the preprocessed line).
    pub fn origin(&self, offset: u32) -> Origin<'_> {
        let here = self.text_line_col(offset);
        let mapped = self.map.as_ref().and_then(|m| {
            let (f, line) = *m.lines.get(here.line as usize - 1)?;
            let (file, text) = m.files.get(f as usize)?;
            Some(Origin {
                file,
                text,
                pos: LineCol {
                    line,
                    col: here.col,
                },
            })
        });
        mapped.unwrap_or(Origin {
            file: &self.name,
            text: &self.text,
            pos: here,
        })
    }

    /// Read a file from disk. Invalid UTF-8 is replaced, not rejected: the parser then
    /// reports the odd character with its position.
    pub fn read(path: &Path) -> std::io::Result<SourceFile> {
        let bytes = std::fs::read(path)?;
        Ok(SourceFile::new(
            path.display().to_string(),
            String::from_utf8_lossy(&bytes).into_owned(),
        ))
    }

    /// The file's name as given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The file's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Line and column of a byte offset (clamped to the text), in the user's file: for a
    /// preprocessed file, the line its line map gives.
    pub fn line_col(&self, offset: u32) -> LineCol {
        self.origin(offset).pos
    }

    /// Line and column of a byte offset in this text, ignoring any line map.
    fn text_line_col(&self, offset: u32) -> LineCol {
        let offset = (offset as usize).min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let col = self
            .text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(offset - start);
        LineCol {
            line: line as u32 + 1,
            col: col as u32 + 1,
        }
    }

    /// The text of 1-based line `line`, without its newline.
    pub fn line_text(&self, line: u32) -> &str {
        let i = (line as usize).saturating_sub(1);
        let Some(&start) = self.line_starts.get(i) else {
            return "";
        };
        let end = self
            .line_starts
            .get(i + 1)
            .map(|e| e - 1)
            .unwrap_or(self.text.len());
        self.text
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches('\r')
    }

    /// The text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        self.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }
}

/// What kind of problem a front-end diagnostic reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum DiagKind {
    /// The text is not in the grammar.
    Syntax,
    /// A name is used but not declared.
    Undeclared,
    /// A name is declared twice in one scope.
    Redeclared,
    /// A call passes the wrong number of arguments.
    Arity,
    /// A product of two non-constant expressions, or a division by a non-constant.
    NonLinear,
    /// An array is used as a scalar, a scalar as an array, or similar.
    Type,
    /// An array size that is not a positive integer, or a bad constant.
    BadConstant,
    /// `break`/`continue` outside a loop, a duplicate label, a missing `main`, ...
    Structure,
}

/// A front-end error: a message about a span of the source, with an optional help line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The kind of problem.
    pub kind: DiagKind,
    /// The main message.
    pub message: String,
    /// Where.
    pub span: Span,
    /// Text under the caret.
    pub label: String,
    /// An optional suggestion.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic of `kind` with `message` at `span`.
    pub fn new(kind: DiagKind, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind,
            message: message.into(),
            span,
            label: String::new(),
            help: None,
        }
    }
    /// Set the label under the caret.
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }
    /// Set the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
    /// Render like rustc, through miette: the message, `file:line:col`, the source line
    /// with the span underlined and labelled, and the help line. `color` selects ANSI
    /// colours (for terminals).
    pub fn render(&self, file: &SourceFile, color: bool) -> String {
        let (src, span) = match file.map {
            Some(_) => {
                // Show the user's line: the same line and column in the original file.
                let o = file.origin(self.span.start);
                let text = o.text;
                let starts: Vec<usize> = std::iter::once(0)
                    .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                    .collect();
                let line_start = starts
                    .get(o.pos.line as usize - 1)
                    .copied()
                    .unwrap_or(text.len());
                let line_end = text[line_start..]
                    .find('\n')
                    .map_or(text.len(), |e| line_start + e);
                let col = text[line_start..line_end]
                    .char_indices()
                    .nth(o.pos.col as usize - 1)
                    .map_or(line_end, |(i, _)| line_start + i);
                let end = (col + self.span.len()).min(line_end).max(col);
                let src = miette::NamedSource::new(o.file, text.to_string());
                (src, Span::new(col, end))
            }
            None => (
                miette::NamedSource::new(file.name(), file.text().to_string()),
                self.span,
            ),
        };
        let shown = Diagnostic {
            span,
            ..self.clone()
        };
        let report = Rendered { diag: &shown, src };
        let theme = if color {
            miette::GraphicalTheme::unicode()
        } else {
            miette::GraphicalTheme::unicode_nocolor()
        };
        let mut out = String::new();
        let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(100);
        if handler.render_report(&mut out, &report).is_err() {
            // Formatting into a String cannot fail; keep a plain fallback all the same.
            out = format!(
                "error: {} at {}:{}\n",
                self.message,
                file.name(),
                file.line_col(self.span.start)
            );
        }
        out
    }
}

/// A diagnostic paired with its source, for miette.
struct Rendered<'a> {
    diag: &'a Diagnostic,
    src: miette::NamedSource<String>,
}

impl fmt::Debug for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}

impl fmt::Display for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}

impl std::error::Error for Rendered<'_> {}

impl miette::Diagnostic for Rendered<'_> {
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diag
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.src)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let len = self.diag.span.len().max(1).min(
            self.src
                .inner()
                .len()
                .saturating_sub(self.diag.span.start as usize),
        );
        let label = if self.diag.label.is_empty() {
            None
        } else {
            Some(self.diag.label.clone())
        };
        Some(Box::new(std::iter::once(miette::LabeledSpan::new(
            label,
            self.diag.span.start as usize,
            len,
        ))))
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A construct that is valid C but outside lpmc's fragment. It makes `lpmc check` answer
/// UNKNOWN with this reason; it is not an input error.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Unsupported {
    /// What the construct is, e.g. "pointer type", "struct", "float".
    pub construct: String,
    /// Where it is.
    pub span: Span,
}

impl Unsupported {
    /// `construct` at `span`.
    pub fn new(construct: impl Into<String>, span: Span) -> Unsupported {
        Unsupported {
            construct: construct.into(),
            span,
        }
    }
    /// `construct at line:col` (`at file:line:col` in an included header).
    pub fn describe(&self, file: &SourceFile) -> String {
        let o = file.origin(self.span.start);
        if o.file == file.name() {
            format!("unsupported construct: {} at {}", self.construct, o.pos)
        } else {
            format!(
                "unsupported construct: {} at {}:{}",
                self.construct, o.file, o.pos
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{DiagKind, Diagnostic, SourceFile, Span};

    #[test]
    fn line_col_and_render() {
        let f = SourceFile::new("t.c", "int x;\nx = y * z;\n");
        let lc = f.line_col(11);
        assert_eq!((lc.line, lc.col), (2, 5));
        let d = Diagnostic::new(DiagKind::NonLinear, Span::new(11, 16), "not linear")
            .with_label("product of two variables")
            .with_help("multiply by a constant");
        let r = d.render(&f, false);
        assert!(r.contains("t.c:2:5"), "{r}");
        assert!(r.contains("x = y * z;"), "{r}");
        assert!(r.contains("product of two variables"), "{r}");
        assert!(r.contains("help: multiply"), "{r}");
        assert!(r.contains("not linear"), "{r}");
    }

    #[test]
    fn render_at_end_of_file_does_not_panic() {
        let f = SourceFile::new("t.c", "int x");
        let d = Diagnostic::new(DiagKind::Syntax, Span::new(5, 5), "expected `;`");
        let r = d.render(&f, false);
        assert!(r.contains("t.c:1:6"), "{r}");
    }
}
