//! The layer order of `sema`'s submodules (the numbered list in the module doc of
//! `mod.rs`), checked on the sources, so an import circle cannot come back: in every
//! submodule, outside `#[cfg(test)]` items, each `super::x`, `super::{x, ...}` and
//! `crate::sema::x` path must name a submodule listed before it (or itself), never a later
//! one nor an item of the facade (`mod.rs`). Method calls are not paths: the `impl
//! Resolver` blocks of different layers call one another freely.

use std::collections::BTreeSet;
use std::path::Path;

/// The layers, in order, as the module doc of `mod.rs` lists them: its lines
/// `//! N. `name`: ...`.
fn documented_order(facade: &str) -> Vec<String> {
    let mut order = Vec::new();
    for line in facade.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            continue;
        };
        let doc = doc.trim_start();
        let Some((number, rest)) = doc.split_once(". `") else {
            continue;
        };
        if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        assert_eq!(
            number.parse::<usize>().ok(),
            Some(order.len() + 1),
            "mod.rs: the layer list is not numbered 1, 2, 3, ...: {line}"
        );
        let name = rest.split('`').next().unwrap_or_default();
        order.push(name.to_string());
    }
    order
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    PathSep,
    Open,
    Close,
    Comma,
    Semi,
    Star,
    /// `#[cfg(test)]`.
    CfgTest,
    Other,
}

/// The tokens of Rust source that matter for paths, with their lines; comments, strings
/// and character literals are skipped.
fn lex(src: &str) -> Vec<(Tok, usize)> {
    let s: Vec<char> = src.chars().collect();
    let at = |i: usize| s.get(i).copied().unwrap_or('\0');
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
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
        } else if c == 'r'
            && matches!(at(i + 1), '"' | '#')
            && !(at(i + 1) == '#' && (at(i + 2).is_alphanumeric() || at(i + 2) == '_'))
        {
            // A raw string: r"..." or r#"..."#.
            i += 1;
            let mut hashes = 0;
            while at(i) == '#' {
                hashes += 1;
                i += 1;
            }
            i += 1;
            while i < s.len() && !(s[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#')) {
                line += usize::from(s[i] == '\n');
                i += 1;
            }
            i += 1 + hashes;
        } else if c == '"' {
            i += 1;
            while i < s.len() && s[i] != '"' {
                if s[i] == '\\' {
                    i += 1;
                }
                line += usize::from(at(i) == '\n');
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '"') or a lifetime ('a).
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
            while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(s[start..i].iter().collect()), line));
        } else if c == ':' && at(i + 1) == ':' {
            out.push((Tok::PathSep, line));
            i += 2;
        } else if c == '#' && s[i..].iter().take(12).collect::<String>() == "#[cfg(test)]" {
            out.push((Tok::CfgTest, line));
            i += 12;
        } else {
            let t = match c {
                '{' => Tok::Open,
                '}' => Tok::Close,
                ',' => Tok::Comma,
                ';' => Tok::Semi,
                '*' => Tok::Star,
                _ => Tok::Other,
            };
            out.push((t, line));
            i += 1;
        }
    }
    out
}

/// The index after the item that starts at `toks[k]`: after its `;` or its `{...}` block,
/// whichever comes first.
fn skip_item(toks: &[(Tok, usize)], mut k: usize) -> usize {
    while k < toks.len() {
        match toks[k].0 {
            Tok::Semi => return k + 1,
            Tok::Open => {
                let mut depth = 0;
                while k < toks.len() {
                    match toks[k].0 {
                        Tok::Open => depth += 1,
                        Tok::Close => {
                            depth -= 1;
                            if depth == 0 {
                                return k + 1;
                            }
                        }
                        _ => {}
                    }
                    k += 1;
                }
            }
            _ => k += 1,
        }
    }
    k
}

/// The first names of the items of the `{...}` group at `toks[k]`, with their lines
/// (`*` for a glob).
fn group_heads(toks: &[(Tok, usize)], mut k: usize) -> Vec<(String, usize)> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut expect_head = true;
    while k < toks.len() {
        match &toks[k].0 {
            Tok::Open => {
                depth += 1;
                expect_head = depth == 1;
            }
            Tok::Close => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Tok::Comma if depth == 1 => expect_head = true,
            Tok::Ident(w) if depth == 1 && expect_head => {
                heads.push((w.clone(), toks[k].1));
                expect_head = false;
            }
            Tok::Star if depth == 1 && expect_head => {
                heads.push(("*".to_string(), toks[k].1));
                expect_head = false;
            }
            _ => expect_head &= depth != 1,
        }
        k += 1;
    }
    heads
}

/// The names at `sema`'s level that the source of a submodule refers to, with their lines:
/// the `x` of `super::x`, `super::{x, ...}` and `crate::sema::x` paths (`super`s counted
/// from inline modules), outside `#[cfg(test)]` items. `*` stands for a glob.
fn references(src: &str) -> Vec<(String, usize)> {
    let toks = lex(src);
    let mut out = Vec::new();
    // The brace depths at which the inline `mod x { ... }` blocks around `k` end.
    let mut inline: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    let mut k = 0;
    while k < toks.len() {
        match &toks[k].0 {
            Tok::CfgTest => {
                k = skip_item(&toks, k + 1);
                continue;
            }
            Tok::Open => depth += 1,
            Tok::Close => {
                if inline.last() == Some(&depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Ident(w) if w == "mod" => {
                if let (Some((Tok::Ident(_), _)), Some((Tok::Open, _))) =
                    (toks.get(k + 1), toks.get(k + 2))
                {
                    inline.push(depth + 1);
                }
            }
            Tok::Ident(w)
                if (w == "super" || w == "crate")
                    && toks.get(k + 1).map(|t| &t.0) == Some(&Tok::PathSep)
                    && (k == 0 || toks[k - 1].0 != Tok::PathSep) =>
            {
                // Walk `super::super::...` (or `crate::sema::`) to the name after `sema`.
                let mut j = k;
                let mut at_sema = false;
                if w == "crate" {
                    if toks.get(k + 2).map(|t| &t.0) == Some(&Tok::Ident("sema".into())) {
                        j = k + 2;
                        at_sema = true;
                    }
                } else {
                    let mut supers = 0;
                    while toks.get(j).map(|t| &t.0) == Some(&Tok::Ident("super".into()))
                        && toks.get(j + 1).map(|t| &t.0) == Some(&Tok::PathSep)
                    {
                        supers += 1;
                        j += 2;
                    }
                    j -= 2; // the last `super`
                            // One `super` per inline module leads to the file's module, one more
                            // to `sema`, two more to the crate root.
                    if supers == inline.len() + 1 {
                        at_sema = true;
                    } else if supers == inline.len() + 2
                        && toks.get(j + 2).map(|t| &t.0) == Some(&Tok::Ident("sema".into()))
                    {
                        j += 2;
                        at_sema = true;
                    }
                }
                if at_sema && toks.get(j + 1).map(|t| &t.0) == Some(&Tok::PathSep) {
                    match toks.get(j + 2) {
                        Some((Tok::Ident(name), line)) => out.push((name.clone(), *line)),
                        Some((Tok::Star, line)) => out.push(("*".to_string(), *line)),
                        Some((Tok::Open, _)) => out.extend(group_heads(&toks, j + 2)),
                        _ => {}
                    }
                }
                k = j + 1;
                continue;
            }
            _ => {}
        }
        k += 1;
    }
    out
}

/// Every violation of `order` among the submodule sources `files` (module name, text).
fn violations(files: &[(String, String)], order: &[String]) -> Vec<String> {
    let rank = |m: &str| order.iter().position(|o| o == m);
    let mut bad = Vec::new();
    for (module, src) in files {
        let Some(r) = rank(module) else {
            bad.push(format!(
                "{module}.rs: `{module}` is not in the layer list of mod.rs"
            ));
            continue;
        };
        for (name, line) in references(src) {
            let at = format!("{module}.rs:{line}: `{module}` uses `{name}`");
            match rank(&name) {
                Some(t) if t > r => bad.push(format!("{at}, a later layer")),
                Some(_) => {}
                None if name == "*" => bad.push(format!("{at}: a glob of the facade")),
                None => bad.push(format!(
                    "{at}, an item of the facade (name its layer instead)"
                )),
            }
        }
    }
    bad
}

/// The submodules `mod.rs` declares, without the `#[cfg(test)]` ones.
fn declared(facade: &str) -> BTreeSet<String> {
    let toks = lex(facade);
    let mut out = BTreeSet::new();
    let mut k = 0;
    while k < toks.len() {
        if toks[k].0 == Tok::CfgTest {
            k = skip_item(&toks, k + 1);
            continue;
        }
        if let (Tok::Ident(w), Some((Tok::Ident(name), _)), Some((Tok::Semi, _))) =
            (&toks[k].0, toks.get(k + 1), toks.get(k + 2))
        {
            if w == "mod" {
                out.insert(name.clone());
            }
        }
        k += 1;
    }
    out
}

#[test]
fn the_submodules_use_only_earlier_layers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sema");
    let facade = std::fs::read_to_string(dir.join("mod.rs")).expect("readable mod.rs");
    let order = documented_order(&facade);
    assert!(order.len() >= 10, "mod.rs lists only {order:?}");
    let listed: BTreeSet<String> = order.iter().cloned().collect();
    assert_eq!(
        listed.len(),
        order.len(),
        "a layer is listed twice: {order:?}"
    );
    assert_eq!(
        declared(&facade),
        listed,
        "mod.rs declares other submodules than its layer list names"
    );
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("readable src/sema") {
        let path = entry.expect("dir entry").path();
        assert!(
            !path.is_dir(),
            "{}: the layer check reads only files; extend it for directories",
            path.display()
        );
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        if path.extension().is_some_and(|e| e == "rs") && stem != "mod" && stem != "tests" {
            let src = std::fs::read_to_string(&path).expect("readable source");
            files.push((stem.to_string(), src));
        }
    }
    files.sort();
    assert_eq!(files.len(), order.len(), "{:?}", files.iter().map(|f| &f.0));
    let bad = violations(&files, &order);
    assert!(bad.is_empty(), "sema layer violations:\n{}", bad.join("\n"));
}

// The checker itself, on planted sources.

fn planted(files: &[(&str, &str)]) -> Vec<String> {
    let order: Vec<String> = ["hir", "state", "expr", "stmt"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(m, s)| (m.to_string(), s.to_string()))
        .collect();
    violations(&files, &order)
}

#[test]
fn the_checker_reads_the_documented_order() {
    let facade = "//! Text.\n//!\n//! 1. `types`: one.\n//! 2. `hir`: two,\n//!    more.\n\
                  //! 10 is not an item.\n//! 3. `state`: three.\nmod hir;\n";
    assert_eq!(documented_order(facade), ["types", "hir", "state"]);
    let facade = "mod a;\npub mod b;\n#[cfg(test)]\nmod tests;\nmod c { }\n";
    assert_eq!(
        declared(facade),
        BTreeSet::from(["a".to_string(), "b".to_string()])
    );
}

#[test]
fn the_checker_accepts_earlier_layers_and_ignores_tests_comments_and_strings() {
    let ok = planted(&[
        (
            "expr",
            "use super::hir::{Expr, LValue};\nuse super::{state::Resolver, hir};\n\
             use crate::syntax::ast;\nfn f() { super::hir::fold(); super::expr::g(); }\n\
             // super::stmt::x in a comment\nfn g() { let s = \"super::stmt::x {\"; let c = '{'; }\n\
             #[cfg(test)]\nmod tests {\n    use super::super::stmt::f;\n    use crate::sema::analyze_with;\n    fn t() { let s = \"}\"; }\n}\n\
             mod inner { use super::f; use super::super::state::g; }\n",
        ),
        ("hir", "use crate::ids::VarId;\n"),
    ]);
    assert!(ok.is_empty(), "{ok:#?}");
}

#[test]
fn the_checker_rejects_later_layers_and_the_facade() {
    let bad = planted(&[
        ("state", "use super::expr::texpr;\n"),
        ("hir", "fn f() {\n    super::stmt::has_effects(x);\n}\n"),
        (
            "expr",
            "use super::{hir, stmt::g};\nuse super::analyze_with;\n",
        ),
        (
            "stmt",
            "use crate::sema::{hir::Expr, Analysis};\nuse super::*;\n",
        ),
        ("decl", "use super::hir::Expr;\n"),
        (
            "expr",
            "mod inner { use super::super::stmt::f; }\n#[cfg(not(test))]\nuse super::stmt::h;\n",
        ),
    ]);
    let has = |s: &str| bad.iter().any(|b| b.contains(s));
    assert!(
        has("state.rs:1: `state` uses `expr`, a later layer"),
        "{bad:#?}"
    );
    assert!(
        has("hir.rs:2: `hir` uses `stmt`, a later layer"),
        "{bad:#?}"
    );
    assert!(
        has("expr.rs:1: `expr` uses `stmt`, a later layer"),
        "{bad:#?}"
    );
    assert!(
        has("expr.rs:2: `expr` uses `analyze_with`, an item of the facade"),
        "{bad:#?}"
    );
    assert!(
        has("stmt.rs:1: `stmt` uses `Analysis`, an item of the facade"),
        "{bad:#?}"
    );
    assert!(has("stmt.rs:2: `stmt` uses `*`: a glob"), "{bad:#?}");
    assert!(has("decl.rs: `decl` is not in the layer list"), "{bad:#?}");
    assert!(
        has("expr.rs:3: `expr` uses `stmt`, a later layer"),
        "{bad:#?}"
    );
    assert_eq!(bad.len(), 9, "{bad:#?}");
}
