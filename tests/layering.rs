//! The one rule of ARCHITECTURE §1, checked on the source: a module may use only modules
//! to its left. Every `src/**/*.rs` (unit tests included) is read, every `crate::X`,
//! `super::X` and `self::X` path (and `lpmc::X` in `main.rs`) is resolved to the top-level
//! module it names (a name the crate root re-exports counts as the module that defines
//! it), and the edges are checked against [`ORDER`], [`FORBIDDEN`] and [`DRIVER_USERS`].
//! `tools` may only name the public surface (the root's `pub use` list and public
//! modules), and `lib.rs` must declare the modules in pipeline order.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The modules in pipeline order. A module may use only modules in earlier rows; the
/// modules of one row are siblings and never import each other. The crate root (`lib.rs`,
/// the facade) names them all; `main` (the CLI) comes last.
///
/// | row | modules | what they are |
/// |---|---|---|
/// | 0 | `diag`, `ids`, `limits`, `testutil` | shared leaves: spans and diagnostics, typed indices, time/memory limits; test helpers (`#[cfg(test)]`) |
/// | 1 | `linear`, `smt` | exact arithmetic; the backend-neutral solver interface and its cvc5 adapter (the DLC domain's entailment checks and the trace check use it) |
/// | 2 | `syntax` | text → AST |
/// | 3 | `metamorph` | verdict-preserving variants of a program (AST rewrites) |
/// | 4 | `sema` | AST → resolved program |
/// | 5 | `cfg` | resolved program → CFG |
/// | 6 | `accel` | loop acceleration (a CFG → CFG transformation) |
/// | 7 | `interp` | the concrete interpreter over the CFG (the oracle) |
/// | 8 | `frontend` | `load`: syntax → sema → cfg in one call, the preprocessor, task files |
/// | 9 | `abstraction` | P → P̂k |
/// | 10 | `domain` | DLC domain |
/// | 11 | `engine` | RHS tabulation |
/// | 12 | `trace` | witness → trace → SSA query on the original program |
/// | 13 | `refine`, `search`, `invariant` | unsat core → new cells; concrete search for error runs; the invariant map of a converged tabulation |
/// | 14 | `certify` | the certificate check of a SAFE verdict's invariants on the original program |
/// | 15 | `report` | the outcome types every engine shares |
/// | 16 | `iteration` | the record of each CEGAR iteration and of the program (`--report`, `--json`) |
/// | 17 | `driver`, `bmc` | the CEGAR loop; bounded model checking (siblings) |
/// | 18 | `portfolio`, `run`, `horn` | `lpmc check`: the engines under one deadline; concrete runs of a loaded program; Horn clauses of the program or of its last abstraction |
/// | 19 | `html`, `text`, `witness` | the HTML report and the plain text of reports, output layers over the typed reports only; SV-COMP witnesses and their validation |
/// | 20 | `tools` | `regress` and `scale`, over the public API only |
/// | 21 | `main` | the CLI |
const ORDER: &[&[&str]] = &[
    &["diag", "ids", "limits", "testutil"],
    &["linear", "smt"],
    &["syntax"],
    &["metamorph"],
    &["sema"],
    &["cfg"],
    &["accel"],
    &["interp"],
    &["frontend"],
    &["abstraction"],
    &["domain"],
    &["engine"],
    &["trace"],
    &["refine", "search", "invariant"],
    &["certify"],
    &["report"],
    &["iteration"],
    &["driver", "bmc"],
    &["portfolio", "run", "horn"],
    &["html", "text", "witness"],
    &["tools"],
    &["main"],
];

/// Edges the order alone would allow but ARCHITECTURE §1 forbids.
const FORBIDDEN: &[(&str, &str, &str)] = &[
    ("engine", "smt", "the engine never sees cvc5"),
    ("engine", "syntax", "the engine never sees syntax"),
    ("engine", "trace", "the engine never sees the trace check"),
    ("engine", "refine", "the engine never sees refinement"),
    ("smt", "cfg", "smt never sees the CFG"),
    (
        "certify",
        "engine",
        "the certificate check shares no code with the tabulation",
    ),
    (
        "certify",
        "domain",
        "the certificate check shares no code with the tabulation",
    ),
    (
        "certify",
        "abstraction",
        "the certificate check reads the original program",
    ),
];

/// The only modules that may import `driver` (only the driver runs the loop; the
/// portfolio runs it beside the other engines; `horn` runs it for the abstraction whose
/// clauses it writes; `html` and `text` render its report;
/// `witness` runs the portfolio with its options to validate a witness with lpmc's own
/// lemmas).
const DRIVER_USERS: &[&str] = &[
    "portfolio",
    "horn",
    "html",
    "text",
    "witness",
    "tools",
    "main",
];

/// One reference from a file to a top-level module.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Edge {
    /// The top-level module of the file (or inline module) the reference is in.
    from: String,
    /// The top-level module it names.
    to: String,
    /// The name as written after `crate::` (a module or a re-exported item).
    name: String,
    /// Where.
    file: String,
    line: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    PathSep,
    Open,
    Close,
    Comma,
    Semi,
    Other,
}

/// The tokens of Rust source that matter for paths, with their lines; comments, strings
/// and character literals are skipped.
fn lex(src: &str) -> Vec<(Tok, usize)> {
    let s: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let at = |i: usize| s.get(i).copied().unwrap_or('\0');
    while i < s.len() {
        let c = s[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(s[i] == '\n');
                    i += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && at(i + 1) == 'r'))
            && matches!(at(i + 1 + usize::from(c == 'b')), '"' | '#')
            && !(at(i + 1) == '#' && (at(i + 2).is_alphanumeric() || at(i + 2) == '_'))
        {
            // A raw string: r"..." or r#"..."#.
            i += 1 + usize::from(c == 'b');
            let mut hashes = 0;
            while at(i) == '#' {
                hashes += 1;
                i += 1;
            }
            i += 1; // the opening quote
            loop {
                if i >= s.len() {
                    break;
                }
                if s[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                    i += 1 + hashes;
                    break;
                }
                line += usize::from(s[i] == '\n');
                i += 1;
            }
        } else if c == '"' || (c == 'b' && at(i + 1) == '"') {
            i += 1 + usize::from(c == 'b');
            while i < s.len() && s[i] != '"' {
                if s[i] == '\\' {
                    i += 1;
                }
                line += usize::from(at(i) == '\n');
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}', '"') or a lifetime ('a).
            if at(i + 1) == '\\' {
                i += 2;
                while i < s.len() && s[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            if c == 'r' && at(i + 1) == '#' {
                i += 2;
            }
            while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                i += 1;
            }
            let word: String = s[start..i].iter().collect();
            out.push((Tok::Ident(word.trim_start_matches("r#").to_string()), line));
        } else if c == ':' && at(i + 1) == ':' {
            out.push((Tok::PathSep, line));
            i += 2;
        } else {
            out.push((
                match c {
                    '{' => Tok::Open,
                    '}' => Tok::Close,
                    ',' => Tok::Comma,
                    ';' => Tok::Semi,
                    _ => Tok::Other,
                },
                line,
            ));
            i += 1;
        }
    }
    out
}

/// The module path of a source file: `src/cfg/build.rs` → `[cfg, build]`, `src/lib.rs` →
/// `[]`, `src/main.rs` → `[main]`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    let crate_root = stem == "lib" && parts.is_empty();
    if stem != "mod" && !crate_root {
        parts.push(stem.to_string());
    }
    parts
}

/// The first identifiers of the items of a `{...}` group starting at `toks[k]` (an
/// `Open`), and the index after it.
fn group_heads(toks: &[(Tok, usize)], mut k: usize) -> (Vec<(String, usize)>, usize) {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut expect_head = true;
    while k < toks.len() {
        match &toks[k].0 {
            Tok::Open => {
                depth += 1;
                if depth == 1 {
                    expect_head = true;
                }
            }
            Tok::Close => {
                depth -= 1;
                if depth == 0 {
                    return (heads, k + 1);
                }
            }
            Tok::Comma if depth == 1 => expect_head = true,
            Tok::Ident(w) if depth == 1 && expect_head => {
                heads.push((w.clone(), toks[k].1));
                expect_head = false;
            }
            _ => {
                if depth == 1 {
                    expect_head = false;
                }
            }
        }
        k += 1;
    }
    (heads, k)
}

/// The references of one file to top-level names: (module the reference is in, the
/// top-level name, line). `root` is the crate-root keyword (`crate`, or `lpmc` in
/// `main.rs`).
fn references(file_module: &[String], src: &str, root: &str) -> Vec<(String, String, usize)> {
    let toks = lex(src);
    let mut out = Vec::new();
    // Inline `mod name { ... }` blocks: (name, brace depth inside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut k = 0;
    while k < toks.len() {
        let here = |inline: &[(String, usize)]| -> Vec<String> {
            let mut m = file_module.to_vec();
            m.extend(inline.iter().map(|(n, _)| n.clone()));
            m
        };
        match &toks[k].0 {
            Tok::Open => depth += 1,
            Tok::Close => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Ident(w) if w == "mod" => {
                if let (Some((Tok::Ident(name), _)), Some((Tok::Open, _))) =
                    (toks.get(k + 1), toks.get(k + 2))
                {
                    inline.push((name.clone(), depth + 1));
                }
            }
            Tok::Ident(w) if matches!(toks.get(k + 1), Some((Tok::PathSep, _))) => {
                let preceded_by_sep = k > 0 && toks[k - 1].0 == Tok::PathSep;
                let start: Option<Vec<String>> = if preceded_by_sep {
                    None
                } else if w == root {
                    Some(Vec::new())
                } else if w == "self" || w == "super" {
                    let mut m = here(&inline);
                    let mut j = k;
                    // super::super::...
                    while let Some((Tok::Ident(s), _)) = toks.get(j) {
                        if s == "super" {
                            m.pop();
                        } else if s != "self" {
                            break;
                        }
                        if toks.get(j + 1).map(|t| &t.0) != Some(&Tok::PathSep) {
                            break;
                        }
                        j += 2;
                    }
                    k = j.saturating_sub(2);
                    Some(m)
                } else {
                    None
                };
                if let Some(base) = start {
                    let from = here(&inline);
                    let from_top = from.first().cloned().unwrap_or_default();
                    if let Some(top) = base.first() {
                        out.push((from_top, top.clone(), toks[k].1));
                    } else {
                        match toks.get(k + 2) {
                            Some((Tok::Ident(name), line)) => {
                                out.push((from_top, name.clone(), *line));
                            }
                            Some((Tok::Open, _)) => {
                                let (heads, _) = group_heads(&toks, k + 2);
                                for (name, line) in heads {
                                    if name != "self" {
                                        out.push((from_top.clone(), name, line));
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
            _ => {}
        }
        k += 1;
    }
    out
}

/// What the crate root says: the modules it declares, in order, with whether they are
/// public without features; and its re-exports, name → defining module.
struct Root {
    modules: Vec<(String, bool)>,
    reexports: BTreeMap<String, String>,
}

fn read_root(src: &str) -> Root {
    let toks = lex(src);
    let mut modules: Vec<(String, bool)> = Vec::new();
    let mut reexports = BTreeMap::new();
    let mut k = 0;
    while k < toks.len() {
        if let Tok::Ident(w) = &toks[k].0 {
            if w == "mod" {
                if let (Some((Tok::Ident(name), _)), Some((Tok::Semi, _))) =
                    (toks.get(k + 1), toks.get(k + 2))
                {
                    // `pub mod x;` (public) or `mod x;` / `pub(crate) mod x;`.
                    let public = k >= 1 && toks[k - 1].0 == Tok::Ident("pub".into());
                    match modules.iter_mut().find(|(n, _)| n == name) {
                        Some(m) => m.1 |= public,
                        None => modules.push((name.clone(), public)),
                    }
                }
            }
            if w == "pub"
                && toks.get(k + 1).map(|t| &t.0) == Some(&Tok::Ident("use".into()))
                && toks.get(k + 2).map(|t| &t.0) == Some(&Tok::Ident("crate".into()))
            {
                // pub use crate::module[::sub]*::{names} | ::name;
                let mut j = k + 4;
                let module = match toks.get(j) {
                    Some((Tok::Ident(m), _)) => m.clone(),
                    _ => panic!("lib.rs: cannot read a `pub use` at token {j}"),
                };
                loop {
                    match (toks.get(j).map(|t| &t.0), toks.get(j + 1).map(|t| &t.0)) {
                        (Some(Tok::Ident(_)), Some(Tok::PathSep)) => j += 2,
                        (Some(Tok::Open), _) => {
                            let mut d = 0;
                            let mut last: Option<String> = None;
                            while j < toks.len() {
                                match &toks[j].0 {
                                    Tok::Open => d += 1,
                                    Tok::Close => {
                                        d -= 1;
                                        if d == 0 {
                                            break;
                                        }
                                    }
                                    Tok::Ident(n) => last = Some(n.clone()),
                                    Tok::Comma => {
                                        if let Some(n) = last.take() {
                                            reexports.insert(n, module.clone());
                                        }
                                    }
                                    _ => {}
                                }
                                j += 1;
                            }
                            if let Some(n) = last.take() {
                                reexports.insert(n, module.clone());
                            }
                            break;
                        }
                        (Some(Tok::Ident(n)), _) => {
                            reexports.insert(n.clone(), module.clone());
                            break;
                        }
                        _ => break,
                    }
                }
                k = j;
            }
        }
        k += 1;
    }
    Root { modules, reexports }
}

fn rank(module: &str) -> Option<usize> {
    ORDER.iter().position(|row| row.contains(&module))
}

/// Every violation of the layering among `files` (path relative to `src/`, text).
fn violations(files: &[(PathBuf, String)]) -> Vec<String> {
    let mut bad = Vec::new();
    let root_src = files
        .iter()
        .find(|(p, _)| p == Path::new("lib.rs"))
        .map(|(_, s)| s.as_str())
        .unwrap_or("");
    let root = read_root(root_src);
    let modules: BTreeSet<&str> = root.modules.iter().map(|(m, _)| m.as_str()).collect();
    let public: BTreeSet<String> = root
        .modules
        .iter()
        .filter(|(_, p)| *p)
        .map(|(m, _)| m.clone())
        .chain(root.reexports.keys().cloned())
        .collect();
    // lib.rs declares the modules in pipeline order, and each is in the table.
    let mut last = 0;
    for (m, _) in &root.modules {
        match rank(m) {
            None => bad.push(format!("lib.rs: module `{m}` is not in the layering table")),
            Some(r) if r < last => bad.push(format!(
                "lib.rs: module `{m}` is declared after a module to its right"
            )),
            Some(r) => last = r,
        }
    }
    let mut edges = Vec::new();
    for (path, src) in files {
        if path == Path::new("lib.rs") {
            continue;
        }
        let module = module_path(path);
        let root_kw = if path == Path::new("main.rs") {
            "lpmc"
        } else {
            "crate"
        };
        if let Some(top) = module.first() {
            if rank(top).is_none() {
                bad.push(format!(
                    "{}: module `{top}` is not in the layering table",
                    path.display()
                ));
            }
        }
        for (from, name, line) in references(&module, src, root_kw) {
            let to = if modules.contains(name.as_str()) {
                name.clone()
            } else if let Some(m) = root.reexports.get(&name) {
                m.clone()
            } else {
                // A macro or item defined at the root (none today): name it.
                name.clone()
            };
            edges.push(Edge {
                from,
                to,
                name,
                file: path.display().to_string(),
                line,
            });
        }
    }
    for e in edges.iter().filter(|e| e.from != e.to) {
        let at = format!("{}:{}: `{}` uses `{}`", e.file, e.line, e.from, e.to);
        match (rank(&e.from), rank(&e.to)) {
            (Some(f), Some(t)) if t > f => bad.push(format!("{at}, a module to its right")),
            (Some(f), Some(t)) if t == f => bad.push(format!("{at}, its sibling")),
            (_, None) => bad.push(format!("{at}, which is not in the layering table")),
            _ => {}
        }
        for (a, b, why) in FORBIDDEN {
            if e.from == *a && e.to == *b {
                bad.push(format!("{at}: {why}"));
            }
        }
        if e.to == "driver" && !DRIVER_USERS.contains(&e.from.as_str()) {
            bad.push(format!("{at}: only {DRIVER_USERS:?} may import the driver"));
        }
        if e.from == "tools" && !public.contains(&e.name) {
            bad.push(format!(
                "{at} (`crate::{}`), which is not in the public API",
                e.name
            ));
        }
    }
    bad
}

fn rust_files(dir: &Path, base: &Path, out: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable src dir")
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, base, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&p).expect("readable source");
            let rel = p.strip_prefix(base).expect("under src").to_path_buf();
            out.push((rel, text));
        }
    }
}

fn sources() -> Vec<(PathBuf, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &src, &mut files);
    files
}

#[test]
fn the_source_follows_the_pipeline_order() {
    let files = sources();
    assert!(files.len() > 50, "only {} files under src/", files.len());
    let bad = violations(&files);
    assert!(bad.is_empty(), "layering violations:\n{}", bad.join("\n"));
}

#[test]
fn the_checker_sees_the_real_imports() {
    // The checker sees the references the code really has (it is not vacuous).
    let files = sources();
    let mut seen = BTreeSet::new();
    for (path, src) in &files {
        let m = module_path(path);
        let kw = if path == Path::new("main.rs") {
            "lpmc"
        } else {
            "crate"
        };
        for (from, to, _) in references(&m, src, kw) {
            seen.insert((from, to));
        }
    }
    for (from, to) in [
        ("sema", "syntax"),
        ("cfg", "sema"),
        ("domain", "linear"),
        ("engine", "domain"),
        ("trace", "smt"),
        ("driver", "engine"),
        ("bmc", "trace"),
    ] {
        assert!(
            seen.contains(&(from.to_string(), to.to_string())),
            "{from} → {to} not seen"
        );
    }
}

// The checker itself, on planted sources.

fn planted(extra: &[(&str, &str)]) -> Vec<String> {
    let lib = "pub(crate) mod diag;\nmod linear;\npub mod smt;\nmod cfg;\nmod engine;\n\
               mod driver;\nmod bmc;\npub mod tools;\n\
               pub use crate::driver::{check, CheckOptions};\npub use crate::bmc::bmc;\n";
    let mut files = vec![
        (PathBuf::from("lib.rs"), lib.to_string()),
        (
            PathBuf::from("cfg/mod.rs"),
            "use crate::diag::Span; // crate::engine in a comment\n".to_string(),
        ),
    ];
    files.extend(extra.iter().map(|(p, s)| (PathBuf::from(p), s.to_string())));
    violations(&files)
}

#[test]
fn the_checker_accepts_imports_to_the_left() {
    let ok = planted(&[
        (
            "engine/mod.rs",
            "use crate::cfg::Cfg;\nuse crate::{diag::Span, linear};\nfn f() { let s = \"crate::smt::x\"; let c = '\"'; }\n",
        ),
        ("driver.rs", "use crate::engine::tabulate;\nmod tests { use super::*; }\n"),
        ("tools/regress.rs", "use crate::{check, CheckOptions};\nuse crate::smt::Term;\n"),
        ("main.rs", "use lpmc::check;\nuse lpmc::tools::regress;\n"),
    ]);
    assert!(ok.is_empty(), "{ok:#?}");
}

#[test]
fn the_checker_rejects_a_wrong_way_import() {
    let bad = planted(&[("cfg/build.rs", "use crate::engine::tabulate;\n")]);
    assert_eq!(bad.len(), 1, "{bad:#?}");
    assert!(bad[0].contains("cfg/build.rs:1: `cfg` uses `engine`, a module to its right"));
}

#[test]
fn the_checker_rejects_forbidden_and_sibling_edges() {
    let bad = planted(&[
        ("engine/mod.rs", "fn f() { crate::smt::check(); }\n"),
        ("bmc.rs", "use crate::check;\n"),
        ("tools/scale.rs", "use crate::engine::Budget;\n"),
        ("smt/mod.rs", "use super::super::cfg::Cfg;\n"),
        (
            "linear/mod.rs",
            "pub(crate) mod x { use crate::{diag, driver::Report}; }\n",
        ),
    ]);
    let has = |s: &str| bad.iter().any(|b| b.contains(s));
    assert!(
        has("engine/mod.rs:1: `engine` uses `smt`: the engine never sees cvc5"),
        "{bad:#?}"
    );
    assert!(
        has("bmc.rs:1: `bmc` uses `driver`, its sibling"),
        "{bad:#?}"
    );
    assert!(has("bmc.rs:1: `bmc` uses `driver`: only"), "{bad:#?}");
    assert!(
        has("`crate::engine`), which is not in the public API"),
        "{bad:#?}"
    );
    assert!(
        has("smt/mod.rs:1: `smt` uses `cfg`: smt never sees the CFG"),
        "{bad:#?}"
    );
    assert!(
        has("linear/mod.rs:1: `linear` uses `driver`, a module to its right"),
        "{bad:#?}"
    );
    assert!(!has("`linear` uses `diag`"), "{bad:#?}");
}

#[test]
fn the_checker_rejects_modules_out_of_order_or_unknown() {
    let files = vec![
        (
            PathBuf::from("lib.rs"),
            "mod cfg;\nmod syntax;\nmod gadget;\n".to_string(),
        ),
        (
            PathBuf::from("widget.rs"),
            "use crate::cfg::Cfg;\n".to_string(),
        ),
    ];
    let bad = violations(&files);
    let has = |s: &str| bad.iter().any(|b| b.contains(s));
    assert!(has("lib.rs: module `syntax` is declared after"), "{bad:#?}");
    assert!(
        has("lib.rs: module `gadget` is not in the layering table"),
        "{bad:#?}"
    );
    assert!(
        has("widget.rs: module `widget` is not in the layering table"),
        "{bad:#?}"
    );
}
