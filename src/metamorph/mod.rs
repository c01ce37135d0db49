//! Metamorphic variants of a program: rewrites of its AST that keep its verdict (SAFE or
//! UNSAFE), printed back as source, for testing that the engines decide a program and its
//! harmless variants alike (`tests/metamorphic.rs`).
//!
//! [`variants`] parses a program ([`crate::syntax::parse`]), applies each
//! [`Transformation`] whose applicability check passes, and prints the result
//! ([`crate::syntax::pretty`]) under the program's own header comment (its `// expect:`
//! and `// why:` lines) and its `#include <...>` lines. Each rewrite states which verdicts
//! it keeps: an exact rewrite keeps both; one that removes behaviours (a nondeterministic
//! value fixed, an arbitrary array made zero) keeps SAFE only; one that adds behaviours
//! keeps UNSAFE only. A variant is produced only when its rewrite keeps the verdict the
//! header expects (exact rewrites only for a program without one). When a rule is not
//! sure to keep the verdict, there is no variant.
//!
//! The rewrites live in `consts` (`const_to_param`, `param_to_const`, `scale_size_*`),
//! `arrays` (`local_to_global`, `global_to_local`), `loops` (`for_to_while`,
//! `while_to_for`, `extra_counter`), `procs` (`body_to_proc`, `rename`), `cells`
//! (`check_all_cells`) and `copies` (`copy_counts_down`, `offset_both_indices`,
//! `stride_2`, `swap_check_operands`); `walk` holds the AST visitors and `build` the AST
//! constructors they share.

mod arrays;
mod build;
mod cells;
mod consts;
mod copies;
mod loops;
mod procs;
#[cfg(test)]
mod tests;
mod walk;

use crate::diag::SourceFile;
use crate::syntax::ast::{FuncDef, Item, Program, Stmt, StmtKind, Ty};
use crate::syntax::{parse, pretty};
use std::collections::BTreeSet;

/// A verdict-preserving rewrite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Transformation {
    /// A loop bound constant `N` becomes a nondeterministic `n` with `0 < n <= N`.
    ConstToParam,
    /// A nondeterministic `n` bounded by `n <= C` becomes the constant `C`.
    ParamToConst,
    /// An array of `main` moves to file scope.
    LocalToGlobal,
    /// A global array used only by `main` moves into `main`.
    GlobalToLocal,
    /// `for (init; c; step) body` becomes `init; while (c) { body step }`.
    ForToWhile,
    /// `init; while (c) { body step }` becomes `for (init; c; step) body`.
    WhileToFor,
    /// The final check moves into a new procedure taking the scalars it reads.
    BodyToProc,
    /// Every local variable gets a new name.
    Rename,
    /// An unrelated counter, incremented in every loop body and never read.
    ExtraCounter,
    /// The array size and the loop bounds equal to it, times 10.
    ScaleSize10,
    /// The array size and the loop bounds equal to it, times 1000.
    ScaleSize1000,
    /// A check at a nondeterministic index becomes a loop checking every index.
    CheckAllCells,
    /// A loop copying cell by cell (`b[i] = a[i]` for `i` from `c` up to `E`) runs from
    /// `E - 1` down to `c`.
    CopyCountsDown,
    /// A copied-to array's cells move up by a constant: the array grows by it and every
    /// access `b[e]` becomes `b[e + 3]`.
    OffsetBothIndices,
    /// Arrays spread to the even cells of arrays twice as long (`X[e]` becomes
    /// `X[2 * e]`), and the loops indexing them step by 2 over doubled bounds.
    Stride2,
    /// The comparisons of the checks have their operands swapped (`a < b` becomes
    /// `b > a`).
    SwapCheckOperands,
}

impl Transformation {
    /// Every transformation, in the order [`variants`] applies them.
    pub const ALL: [Transformation; 16] = [
        Transformation::ConstToParam,
        Transformation::ParamToConst,
        Transformation::LocalToGlobal,
        Transformation::GlobalToLocal,
        Transformation::ForToWhile,
        Transformation::WhileToFor,
        Transformation::BodyToProc,
        Transformation::Rename,
        Transformation::ExtraCounter,
        Transformation::ScaleSize10,
        Transformation::ScaleSize1000,
        Transformation::CheckAllCells,
        Transformation::CopyCountsDown,
        Transformation::OffsetBothIndices,
        Transformation::Stride2,
        Transformation::SwapCheckOperands,
    ];

    /// The transformation's name, e.g. `"const_to_param"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Transformation::ConstToParam => "const_to_param",
            Transformation::ParamToConst => "param_to_const",
            Transformation::LocalToGlobal => "local_to_global",
            Transformation::GlobalToLocal => "global_to_local",
            Transformation::ForToWhile => "for_to_while",
            Transformation::WhileToFor => "while_to_for",
            Transformation::BodyToProc => "body_to_proc",
            Transformation::Rename => "rename",
            Transformation::ExtraCounter => "extra_counter",
            Transformation::ScaleSize10 => "scale_size_10",
            Transformation::ScaleSize1000 => "scale_size_1000",
            Transformation::CheckAllCells => "check_all_cells",
            Transformation::CopyCountsDown => "copy_counts_down",
            Transformation::OffsetBothIndices => "offset_both_indices",
            Transformation::Stride2 => "stride_2",
            Transformation::SwapCheckOperands => "swap_check_operands",
        }
    }
}

impl std::fmt::Display for Transformation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One variant of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The rewrite that made it.
    pub transformation: Transformation,
    /// The transformation's name, with what it applied to when a program has several
    /// places for it (`"const_to_param_1000"`, `"local_to_global_a"`).
    pub name: String,
    /// The variant's text: the original header comment, then the rewritten program.
    pub source: String,
    /// A file name for it, with the original's extension (which decides the integer
    /// semantics): `dir/prog.c` → `dir/prog.rename.c`.
    pub file_name: String,
}

/// The variants of a program, in the order of [`Transformation::ALL`]: none if the file
/// does not parse, has no `main`, or needs the C preprocessor (`#define`, `#if`,
/// `#include "..."`).
pub fn variants(file_name: &str, source: &str) -> Vec<Variant> {
    let Some(prog) = Prog::read(file_name, source) else {
        return Vec::new();
    };
    let mut rewrites = Vec::new();
    rewrites.extend(consts::const_to_param(&prog));
    rewrites.extend(consts::param_to_const(&prog));
    rewrites.extend(arrays::local_to_global(&prog));
    rewrites.extend(arrays::global_to_local(&prog));
    rewrites.extend(loops::for_to_while(&prog));
    rewrites.extend(loops::while_to_for(&prog));
    rewrites.extend(procs::body_to_proc(&prog));
    rewrites.extend(procs::rename(&prog));
    rewrites.extend(loops::extra_counter(&prog));
    rewrites.extend(consts::scale_size(&prog, 10));
    rewrites.extend(consts::scale_size(&prog, 1000));
    rewrites.extend(cells::check_all_cells(&prog));
    rewrites.extend(copies::copy_counts_down(&prog));
    rewrites.extend(copies::offset_both_indices(&prog));
    rewrites.extend(copies::stride_2(&prog));
    rewrites.extend(copies::swap_check_operands(&prog));
    let original = pretty(&prog.ast);
    let mut out = Vec::new();
    for rw in rewrites {
        if !rw.keeps.keeps(prog.expect) {
            continue;
        }
        let body = pretty(&rw.program);
        if body == original {
            continue;
        }
        let name = match &rw.detail {
            Some(d) => format!("{}_{d}", rw.transformation.as_str()),
            None => rw.transformation.as_str().to_string(),
        };
        let text = format!("{}// metamorph: {name}\n{body}", prog.header);
        // The printer's output must read back: a printer bug (a debug assertion) or, in
        // release builds, a dropped variant rather than a broken one.
        let reads_back = parse(&SourceFile::new(file_name, text.as_str())).is_ok();
        debug_assert!(reads_back, "the variant {name} does not parse:\n{text}");
        if !reads_back {
            continue;
        }
        let file_name = match file_name.rsplit_once('.') {
            Some((stem, ext)) if !ext.contains('/') => format!("{stem}.{name}.{ext}"),
            _ => format!("{file_name}.{name}"),
        };
        out.push(Variant {
            transformation: rw.transformation,
            name,
            source: text,
            file_name,
        });
    }
    out
}

/// The verdict a program's header expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Expect {
    Safe,
    Unsafe,
    /// No `// expect: safe|unsafe` header: only exact rewrites apply.
    Other,
}

/// Which verdicts a rewrite keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Keeps {
    /// An exact rewrite: the same reachable errors.
    Both,
    /// Fewer behaviours (or a heuristic that holds for SAFE programs only).
    Safe,
    /// More behaviours, among them the original's.
    Unsafe,
}

impl Keeps {
    fn keeps(self, expect: Expect) -> bool {
        matches!(
            (self, expect),
            (Keeps::Both, _) | (Keeps::Safe, Expect::Safe) | (Keeps::Unsafe, Expect::Unsafe)
        )
    }

    /// Both rewrites applied one after the other.
    pub(super) fn and(self, other: Keeps) -> Option<Keeps> {
        match (self, other) {
            (Keeps::Both, k) | (k, Keeps::Both) => Some(k),
            (Keeps::Safe, Keeps::Safe) => Some(Keeps::Safe),
            (Keeps::Unsafe, Keeps::Unsafe) => Some(Keeps::Unsafe),
            _ => None,
        }
    }
}

/// A rewritten program.
pub(super) struct Rewrite {
    pub transformation: Transformation,
    /// What it applied to, when there may be several (a constant, an array's name).
    pub detail: Option<String>,
    pub keeps: Keeps,
    pub program: Program,
}

/// A parsed program with what the rewrites need to know about it.
pub(super) struct Prog {
    /// `.c`, `.i`, `.h`: C's integers and the SV-COMP spelling of nondeterminism.
    pub is_c: bool,
    pub expect: Expect,
    pub ast: Program,
    /// The index of `main` in `ast.items`.
    pub main: usize,
    /// The leading comment lines and the `#include <...>` lines, each ending in `\n`.
    header: String,
}

impl Prog {
    fn read(file_name: &str, source: &str) -> Option<Prog> {
        let mut header = String::new();
        for line in source.lines() {
            if line.trim_start().starts_with("//") {
                header.push_str(line);
                header.push('\n');
            } else {
                break;
            }
        }
        for line in source.lines() {
            let l = line.trim_start();
            let Some(directive) = l.strip_prefix('#') else {
                continue;
            };
            let directive = directive.trim_start();
            if let Some(rest) = directive.strip_prefix("include") {
                if !rest.trim_start().starts_with('<') {
                    return None;
                }
                header.push_str(l);
                header.push('\n');
            } else if !directive.starts_with("pragma")
                && !directive.starts_with(|c: char| c.is_ascii_digit())
                && !directive.starts_with("line")
            {
                // #define, #if, ...: the parser alone does not see the program lpmc checks.
                return None;
            }
        }
        let expect = match source
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// expect:"))
            .map(str::trim)
        {
            Some("safe") => Expect::Safe,
            Some("unsafe") => Expect::Unsafe,
            _ => Expect::Other,
        };
        let is_c = [".c", ".i", ".h"].iter().any(|e| file_name.ends_with(e));
        let ast = parse(&SourceFile::new(file_name, source)).ok()?;
        let mains: Vec<usize> = ast
            .items
            .iter()
            .enumerate()
            .filter(|(_, it)| matches!(it, Item::Func(f) if f.proto.name.name == "main"))
            .map(|(k, _)| k)
            .collect();
        let [main] = mains[..] else {
            return None;
        };
        Some(Prog {
            is_c,
            expect,
            ast,
            main,
            header,
        })
    }

    /// `main`.
    pub fn main_fn(&self) -> &FuncDef {
        func(&self.ast, self.main)
    }

    /// The statements of `main`'s body.
    pub fn main_stmts(&self) -> &[Stmt] {
        block_stmts(&self.main_fn().body)
    }

    /// Whether `main` returns a value (`return 0;` ends it early), else `return;`.
    pub fn main_returns_value(&self) -> bool {
        !matches!(self.main_fn().proto.ret, Ty::Void)
    }

    /// The names of the procedures the program defines.
    pub fn procedures(&self) -> BTreeSet<String> {
        self.ast
            .items
            .iter()
            .filter_map(|it| match it {
                Item::Func(f) => Some(f.proto.name.name.clone()),
                _ => None,
            })
            .collect()
    }

    /// Whether some procedure calls `main` (its locals then have several instances).
    pub fn main_is_called(&self) -> bool {
        self.ast.items.iter().any(|it| match it {
            Item::Func(f) => walk::any_expr(&f.body, |e| {
                matches!(&e.kind, crate::syntax::ast::ExprKind::Call { func, .. } if func.name == "main")
            }),
            _ => false,
        })
    }

    /// Whether a variable named `u` is declared anywhere (then `u` may not be the
    /// undefined value, and the `.lp` rewrites that write or read `u` do not apply).
    pub fn has_var_u(&self) -> bool {
        self.ast.items.iter().any(|it| match it {
            Item::Decl(d) => d.vars.iter().any(|v| v.name.name == "u"),
            Item::Func(f) => {
                f.proto
                    .params
                    .iter()
                    .any(|p| p.name.as_ref().is_some_and(|n| n.name == "u"))
                    || walk::declared_names(&f.body).contains("u")
            }
            _ => false,
        })
    }

    /// Whether some statement of the program is a `goto` or a label other than `ERROR`
    /// (control flow the rewrites' analyses do not follow).
    pub fn has_goto(&self) -> bool {
        self.ast.items.iter().any(|it| match it {
            Item::Func(f) => walk::any_stmt(&f.body, |s| {
                matches!(&s.kind, StmtKind::Goto(_))
                    || matches!(&s.kind, StmtKind::Labeled { label, .. } if label.name != "ERROR")
            }),
            _ => false,
        })
    }
}

/// The procedure at `items[k]`.
pub(super) fn func(p: &Program, k: usize) -> &FuncDef {
    match &p.items[k] {
        Item::Func(f) => f,
        _ => unreachable!("item {k} is a procedure"),
    }
}

/// The procedure at `items[k]`, mutably.
pub(super) fn func_mut(p: &mut Program, k: usize) -> &mut FuncDef {
    match &mut p.items[k] {
        Item::Func(f) => f,
        _ => unreachable!("item {k} is a procedure"),
    }
}

/// The statements of a block (a procedure body), or the statement itself.
pub(super) fn block_stmts(s: &Stmt) -> &[Stmt] {
    match &s.kind {
        StmtKind::Block(ss) => ss,
        _ => std::slice::from_ref(s),
    }
}

/// The statements of `main`'s body, mutably (the body is made a block if it is not one).
pub(super) fn main_stmts_mut(p: &mut Program, main: usize) -> &mut Vec<Stmt> {
    let body = &mut func_mut(p, main).body;
    if !matches!(body.kind, StmtKind::Block(_)) {
        let s = std::mem::replace(body, build::block(Vec::new()));
        *body = build::block(vec![s]);
    }
    match &mut body.kind {
        StmtKind::Block(ss) => ss,
        _ => unreachable!("made a block above"),
    }
}
