//! The C preprocessor: which files need it, how the system preprocessor is run, and how
//! its output becomes a [`SourceFile`] with a [`LineMap`] back to the user's lines.
//!
//! - A `.c` file needs the preprocessor when it has a `#define`, `#undef`, `#if...`,
//!   `#include "..."` (or a computed `#include`) directive. A file whose only directives
//!   are system includes `#include <...>` is read as before, without the preprocessor: the
//!   SV-COMP and KLEE conventions are builtins.
//! - The preprocessor runs without `-P`, so that its line markers `# N "file" flags` say
//!   where each output line comes from. System headers are expanded (their macros, e.g.
//!   `INT_MAX` or `assert`, get their real values), but the lines that come *from* system
//!   headers (a file entered with flag 3, `<built-in>`, `<command-line>`) are dropped: their
//!   declarations are outside the fragment and not needed. Lines of the user's file and of
//!   its `#include "..."` headers are kept, each mapped to its file and line.
//! - A system header the preprocessor cannot find (e.g. `<klee/klee.h>`) is blanked out
//!   of the user's file and the preprocessor runs again.

use crate::diag::{DiagKind, Diagnostic, LineMap, SourceFile, Span};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// How `.c` files are preprocessed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Preprocessor {
    /// Run the system preprocessor on files that need it: `cpp`, else `cc -E`, `gcc -E`,
    /// `clang -E`, the first one installed.
    #[default]
    Auto,
    /// Never (`--no-cpp`): `#` lines are skipped.
    Off,
    /// Run this command (a program and its first arguments) on files that need it; lpmc
    /// adds `-x c -w -iquote DIR -` and gives the text on standard input.
    Command(Vec<String>),
}

/// Why the preprocessor gave no output.
#[derive(Debug)]
pub(crate) enum CppError {
    /// No preprocessor is installed.
    NotFound,
    /// The preprocessor rejected the file (`#error`, a missing `#include "..."`, ...).
    Failed(Diagnostic),
    /// A system header included by a user header is missing: `(name, where)`.
    MissingSystemHeader(String, Span),
}

/// One directive line: its span (from `#` to the end of the line, continuations
/// included), its name, and the rest of the line.
fn directives(text: &str) -> impl Iterator<Item = (Span, &str, &str)> {
    let mut out = Vec::new();
    let mut offset = 0;
    let mut lines = text.split_inclusive('\n');
    while let Some(first) = lines.next() {
        let start = offset;
        offset += first.len();
        let mut line = first.to_string();
        while line.trim_end_matches(['\n', '\r']).ends_with('\\') {
            match lines.next() {
                Some(more) => {
                    offset += more.len();
                    line.push_str(more);
                }
                None => break,
            }
        }
        let trimmed = first.trim_start();
        let Some(after) = trimmed.strip_prefix('#') else {
            continue;
        };
        let at = start + (first.len() - trimmed.len());
        let end = start + first.trim_end_matches(['\n', '\r']).len();
        let after = after.trim_start();
        let name_len = after
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(after.len());
        let (name, rest) = after.split_at(name_len);
        out.push((Span::new(at, end), name, rest.trim()));
    }
    out.into_iter()
}

/// The first directive of `text` that only a preprocessor can honour (`#define`,
/// `#undef`, `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`, `#endif`, `#error`,
/// `#include "..."`): its span.
pub fn first_cpp_directive(text: &str) -> Option<Span> {
    directives(text)
        .find(|(_, name, rest)| match *name {
            "define" | "undef" | "if" | "ifdef" | "ifndef" | "elif" | "elifdef" | "elifndef"
            | "else" | "endif" | "error" | "warning" => true,
            "include" | "include_next" | "import" => !rest.starts_with('<'),
            _ => false,
        })
        .map(|(span, _, _)| span)
}

/// Whether `text` includes a system header (`#include <...>`).
pub fn has_system_include(text: &str) -> bool {
    directives(text).any(|(_, name, rest)| name == "include" && rest.starts_with('<'))
}

/// The preprocessor commands to try, in order.
fn candidates(pp: &Preprocessor) -> Vec<Vec<String>> {
    let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    match pp {
        Preprocessor::Auto => vec![
            v(&["cpp"]),
            v(&["cc", "-E"]),
            v(&["gcc", "-E"]),
            v(&["clang", "-E"]),
        ],
        Preprocessor::Command(c) if !c.is_empty() => vec![c.clone()],
        Preprocessor::Command(_) | Preprocessor::Off => Vec::new(),
    }
}

/// How long the preprocessor may run.
const CPP_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

/// Run `cmd` on `text`: `Ok(None)` if the program is not installed, else its exit status
/// (false also when it overran [`CPP_LIMIT`] and was killed), standard output and
/// standard error.
fn run_one(
    cmd: &[String],
    dir: &Path,
    text: &str,
) -> std::io::Result<Option<(bool, String, String)>> {
    use std::io::Read;
    let mut c = Command::new(&cmd[0]);
    c.args(&cmd[1..])
        .args(["-x", "c", "-w", "-iquote"])
        .arg(dir)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match c.spawn() {
        Ok(ch) => ch,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    // Write and read from other threads: the preprocessor may fill its output pipe
    // before it has read all of its input.
    let mut stdin = child.stdin.take();
    let input = text.to_string();
    let writer = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(input.as_bytes());
        }
    });
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            String::from_utf8_lossy(&buf).into_owned()
        })
    };
    let out = reader(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = reader(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait()? {
            break Some(st);
        }
        if start.elapsed() > CPP_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    let _ = writer.join();
    let stdout = out.join().unwrap_or_default();
    let mut stderr = err.join().unwrap_or_default();
    if status.is_none() {
        stderr = format!(
            "<stdin>:1:1: error: the C preprocessor did not finish in {} s\n",
            CPP_LIMIT.as_secs()
        );
    }
    Ok(Some((status.is_some_and(|s| s.success()), stdout, stderr)))
}

/// Preprocess `file` (its text, with `#include "..."` relative to its folder).
pub(crate) fn preprocess(file: &SourceFile, pp: &Preprocessor) -> Result<SourceFile, CppError> {
    let dir = Path::new(file.name())
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let mut text = file.text().to_string();
    let mut cmds = candidates(pp);
    // Each retry blanks one missing system include: at most one per directive.
    for _ in 0..=directives(file.text()).count() {
        let mut result = None;
        while let Some(cmd) = cmds.first() {
            match run_one(cmd, &dir, &text) {
                Ok(Some(r)) => {
                    result = Some(r);
                    break;
                }
                Ok(None) | Err(_) => {
                    cmds.remove(0);
                }
            }
        }
        let Some((ok, stdout, stderr)) = result else {
            return Err(CppError::NotFound);
        };
        if ok {
            return Ok(with_line_map(file, &stdout));
        }
        match failure(file, &stderr) {
            Failure::MissingHere(span) => blank(&mut text, span),
            Failure::MissingElsewhere(name, span) => {
                return Err(CppError::MissingSystemHeader(name, span))
            }
            Failure::Error(d) => return Err(CppError::Failed(d)),
        }
    }
    Err(CppError::Failed(Diagnostic::new(
        DiagKind::Syntax,
        Span::new(0, 0),
        "the C preprocessor failed",
    )))
}

/// Replace a span of `text` by spaces (keeping its newlines, so lines do not move).
fn blank(text: &mut String, span: Span) {
    let (s, e) = (span.start as usize, span.end as usize);
    let Some(part) = text.get(s..e) else {
        return;
    };
    let spaces: String = part
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    text.replace_range(s..e, &spaces);
}

/// What a failed run of the preprocessor means.
enum Failure {
    /// A system header included by the user's file is missing: blank this directive.
    MissingHere(Span),
    /// A system header included by a user header is missing.
    MissingElsewhere(String, Span),
    /// Anything else: an input error.
    Error(Diagnostic),
}

/// Read the first error of the preprocessor's standard error (`FILE:LINE:COL: error: MSG`).
fn failure(file: &SourceFile, stderr: &str) -> Failure {
    let text = file.text();
    let line_span = |line: u32, col: u32| {
        let start: usize = text
            .split_inclusive('\n')
            .take(line.saturating_sub(1) as usize)
            .map(str::len)
            .sum();
        let rest = &text[start.min(text.len())..];
        let len = rest.find('\n').unwrap_or(rest.len());
        let at = start
            + rest[..len]
                .char_indices()
                .nth(col.saturating_sub(1) as usize)
                .map_or(0, |(i, _)| i);
        Span::new(at, start + len)
    };
    for l in stderr.lines() {
        let Some((place, msg)) = l
            .split_once(": fatal error: ")
            .or_else(|| l.split_once(": error: "))
        else {
            continue;
        };
        let mut parts = place.rsplitn(3, ':');
        let col = parts
            .next()
            .and_then(|c| c.trim().parse::<u32>().ok())
            .unwrap_or(1);
        let line = parts
            .next()
            .and_then(|c| c.trim().parse::<u32>().ok())
            .unwrap_or(1);
        let from = parts.next().unwrap_or("");
        let in_main = from == "<stdin>" || from == "-";
        if let Some(name) = msg.strip_suffix(": No such file or directory") {
            let angle = directives(text).find(|(_, n, rest)| {
                *n == "include"
                    && rest
                        .strip_prefix('<')
                        .and_then(|r| r.strip_suffix('>'))
                        .map(str::trim)
                        == Some(name.trim())
            });
            if let (true, Some((span, _, _))) = (in_main, angle) {
                return Failure::MissingHere(span);
            }
            if !in_main {
                // A header of the user includes it; point at the user's first directive.
                let at = first_cpp_directive(text).unwrap_or(Span::new(0, 0));
                return Failure::MissingElsewhere(name.to_string(), at);
            }
        }
        let (span, message) = if in_main {
            (line_span(line, col), format!("preprocessor: {msg}"))
        } else {
            let at = first_cpp_directive(text).unwrap_or(Span::new(0, 0));
            (at, format!("preprocessor: {from}:{line}:{col}: {msg}"))
        };
        let d = Diagnostic::new(DiagKind::Syntax, span, message)
            .with_label("the C preprocessor stops here");
        return Failure::Error(d);
    }
    let first = stderr.lines().next().unwrap_or("no message");
    Failure::Error(Diagnostic::new(
        DiagKind::Syntax,
        Span::new(0, 0),
        format!("the C preprocessor failed: {first}"),
    ))
}

/// A line marker `# N "file" flags...`: the line number, the file and the flags.
fn marker(line: &str) -> Option<(u32, String, Vec<u32>)> {
    let rest = line.strip_prefix('#')?.trim_start();
    let rest = rest
        .strip_prefix("line")
        .map(str::trim_start)
        .unwrap_or(rest);
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let n: u32 = rest[..digits].parse().ok()?;
    let rest = rest[digits..].trim_start();
    let body = rest.strip_prefix('"')?;
    let mut name = String::new();
    let mut chars = body.char_indices();
    let mut end = body.len();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, d)) = chars.next() {
                    name.push(d);
                }
            }
            '"' => {
                end = i + 1;
                break;
            }
            c => name.push(c),
        }
    }
    let flags = body[end..]
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    Some((n, name, flags))
}

/// The preprocessor's output as a source file named like `file`, keeping the lines of
/// the user's files, with their line map.
fn with_line_map(file: &SourceFile, out: &str) -> SourceFile {
    let mut files: Vec<(String, String)> = vec![(file.name().to_string(), file.text().to_string())];
    let mut index: BTreeMap<String, u32> = BTreeMap::new();
    index.insert("<stdin>".to_string(), 0);
    index.insert("-".to_string(), 0);
    let mut user: BTreeSet<String> = ["<stdin>".to_string(), "-".to_string()].into();
    let mut cur: Option<u32> = Some(0);
    let mut line = 1u32;
    let mut text = String::with_capacity(out.len());
    let mut lines = Vec::new();
    for l in out.lines() {
        if let Some((n, name, flags)) = marker(l) {
            let enters_user = flags.contains(&1) && !flags.contains(&3) && !name.starts_with('<');
            if enters_user {
                user.insert(name.clone());
            }
            cur = if user.contains(&name) {
                let next = files.len() as u32;
                let k = *index.entry(name.clone()).or_insert_with(|| {
                    let t = std::fs::read_to_string(&name).unwrap_or_default();
                    files.push((name.clone(), t));
                    next
                });
                Some(k)
            } else {
                None
            };
            line = n;
            continue;
        }
        if let Some(f) = cur {
            text.push_str(l);
            text.push('\n');
            lines.push((f, line));
        }
        line = line.saturating_add(1);
    }
    SourceFile::preprocessed(file.name(), text, LineMap::new(files, lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_that_need_the_preprocessor() {
        assert!(first_cpp_directive("#include <stdio.h>\nint main() {}\n").is_none());
        assert!(has_system_include("#include <stdio.h>\n"));
        let t = "#include <assert.h>\n  # define N 5\nint a[N];\n";
        let s = first_cpp_directive(t).expect("a #define");
        assert_eq!(&t[s.start as usize..s.end as usize], "# define N 5");
        assert!(first_cpp_directive("#include \"x.h\"\n").is_some());
        assert!(first_cpp_directive("#pragma once\n# 1 \"a.c\"\n").is_none());
    }

    #[test]
    fn markers_map_lines_and_drop_system_headers() {
        assert_eq!(
            marker("# 12 \"a b.c\" 1 3 4"),
            Some((12, "a b.c".to_string(), vec![1, 3, 4]))
        );
        assert_eq!(marker("#pragma once"), None);
        let out = "# 0 \"<stdin>\"\n# 1 \"/usr/include/x.h\" 1 3 4\nextern int junk;\n\
                   # 3 \"<stdin>\" 2\nint a[5];\n# 7 \"<stdin>\"\nint main() {\n";
        let f = SourceFile::new("dir/t.c", "");
        let p = with_line_map(&f, out);
        assert_eq!(p.text(), "int a[5];\nint main() {\n");
        assert_eq!(p.line_col(0).line, 3);
        assert_eq!(p.line_col(10).line, 7);
    }
}
