//! Exact rewrites of loops: `for_to_while`, `while_to_for` and `extra_counter`.

use super::build;
use super::walk::{self, walk_stmt_mut, VisitMut};
use super::{func_mut, Keeps, Prog, Rewrite, Transformation};
use crate::syntax::ast::{BinOp, Item, Stmt, StmtKind};

/// Whether `body` holds a `continue` of its own loop (not of a loop nested in it).
pub(super) fn has_own_continue(body: &Stmt) -> bool {
    match &body.kind {
        StmtKind::Continue => true,
        StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::For { .. } => false,
        StmtKind::If { then, els, .. } => {
            has_own_continue(then) || els.as_deref().is_some_and(has_own_continue)
        }
        StmtKind::Block(ss) => ss.iter().any(has_own_continue),
        StmtKind::Labeled { stmt, .. }
        | StmtKind::Default(stmt)
        | StmtKind::Case { stmt, .. }
        | StmtKind::Switch { body: stmt, .. } => has_own_continue(stmt),
        _ => false,
    }
}

/// The statements of a `for` header part (a comma list is a block of them).
fn header_stmts(s: Option<Box<Stmt>>) -> Vec<Stmt> {
    match s.map(|b| *b) {
        None => Vec::new(),
        Some(Stmt {
            kind: StmtKind::Block(ss),
            ..
        }) => ss,
        Some(s) => vec![s],
    }
}

/// Rewrites every `for` without a `continue` of its own.
struct ForToWhile {
    count: usize,
}

impl VisitMut for ForToWhile {
    fn stmt(&mut self, s: &mut Stmt) {
        walk_stmt_mut(self, s);
        let StmtKind::For { body, .. } = &s.kind else {
            return;
        };
        if has_own_continue(body) {
            return;
        }
        let StmtKind::For {
            init,
            cond,
            step,
            body,
        } = std::mem::replace(&mut s.kind, StmtKind::Empty)
        else {
            unreachable!("matched a for above");
        };
        let steps = header_stmts(step);
        let body = if steps.is_empty() {
            *body
        } else {
            let mut ss = vec![*body];
            ss.extend(steps);
            build::block(ss)
        };
        let w = build::stmt(StmtKind::While {
            cond: cond.unwrap_or_else(|| build::int(1)),
            body: Box::new(body),
        });
        let mut inits = header_stmts(init);
        s.kind = if inits.is_empty() {
            w.kind
        } else {
            // A block keeps the scope of `for (int i = 0; ...)`.
            inits.push(w);
            StmtKind::Block(inits)
        };
        self.count += 1;
    }
}

/// `for_to_while`: `for (init; c; step) body` ⇒ `{ init; while (c) { body step; } }` for
/// every `for` whose body has no `continue` of its own (which would skip the step). Exact.
pub(super) fn for_to_while(prog: &Prog) -> Vec<Rewrite> {
    let mut ast = prog.ast.clone();
    let mut v = ForToWhile { count: 0 };
    for item in &mut ast.items {
        if let Item::Func(f) = item {
            v.stmt(&mut f.body);
        }
    }
    if v.count == 0 {
        return Vec::new();
    }
    vec![Rewrite {
        transformation: Transformation::ForToWhile,
        detail: None,
        keeps: Keeps::Both,
        program: ast,
    }]
}

/// Whether `s` may stand in a `for` header: one assignment to one target, `x op= e`,
/// `x++`.
fn is_header_stmt(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Assign { lhs, .. } => lhs.len() == 1,
        StmtKind::CompoundAssign { .. } | StmtKind::IncDec { .. } => true,
        _ => false,
    }
}

/// Rewrites every `while` into a `for`.
struct WhileToFor {
    count: usize,
}

impl WhileToFor {
    /// `s` is a `while` whose body has been rewritten already.
    fn convert(&mut self, s: &mut Stmt, init: Option<Stmt>) {
        let StmtKind::While { cond, mut body } = std::mem::replace(&mut s.kind, StmtKind::Empty)
        else {
            unreachable!("convert is called on a while");
        };
        let mut step = None;
        if !has_own_continue(&body) {
            if let StmtKind::Block(ss) = &mut body.kind {
                if ss.last().is_some_and(is_header_stmt) {
                    step = ss.pop().map(Box::new);
                }
            }
        }
        s.kind = StmtKind::For {
            init: init.map(Box::new),
            cond: Some(cond),
            step,
            body,
        };
        self.count += 1;
    }
}

impl VisitMut for WhileToFor {
    fn stmt(&mut self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Block(ss) => {
                let mut out: Vec<Stmt> = Vec::with_capacity(ss.len());
                for mut c in std::mem::take(ss) {
                    let StmtKind::While { cond, body } = &mut c.kind else {
                        self.stmt(&mut c);
                        out.push(c);
                        continue;
                    };
                    self.stmt(body);
                    // The assignment just before the loop to a variable of its test
                    // becomes the `for`'s init.
                    let vars = walk::expr_vars(cond);
                    let init = match out.last() {
                        Some(p) if is_header_stmt(p) => match &p.kind {
                            StmtKind::Assign { lhs, .. } => walk::var_name(&lhs[0])
                                .is_some_and(|x| vars.contains(x))
                                .then(|| out.pop())
                                .flatten(),
                            _ => None,
                        },
                        _ => None,
                    };
                    self.convert(&mut c, init);
                    out.push(c);
                }
                *ss = out;
            }
            StmtKind::While { body, .. } => {
                self.stmt(body);
                self.convert(s, None);
            }
            _ => walk_stmt_mut(self, s),
        }
    }
}

/// `while_to_for`: `i = e; while (c) { body step; }` ⇒ `for (i = e; c; step) body` (the
/// init when the assignment just before sets a variable of `c`, the step when the body
/// ends with an assignment or increment and has no `continue` of its own; else
/// `for (; c; )`). Exact.
pub(super) fn while_to_for(prog: &Prog) -> Vec<Rewrite> {
    let mut ast = prog.ast.clone();
    let mut v = WhileToFor { count: 0 };
    for item in &mut ast.items {
        if let Item::Func(f) = item {
            v.stmt(&mut f.body);
        }
    }
    if v.count == 0 {
        return Vec::new();
    }
    vec![Rewrite {
        transformation: Transformation::WhileToFor,
        detail: None,
        keeps: Keeps::Both,
        program: ast,
    }]
}

/// Adds `counter = counter + 1;` in front of every loop body.
struct Count<'a> {
    counter: &'a str,
    loops: usize,
}

impl VisitMut for Count<'_> {
    fn stmt(&mut self, s: &mut Stmt) {
        walk_stmt_mut(self, s);
        if let StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. } = &mut s.kind
        {
            let inc = build::assign(
                build::var(self.counter),
                build::bin(BinOp::Add, build::var(self.counter), build::int(1)),
            );
            match &mut body.kind {
                StmtKind::Block(ss) => ss.insert(0, inc),
                _ => {
                    let old = std::mem::replace(body.as_mut(), build::block(Vec::new()));
                    **body = build::block(vec![inc, old]);
                }
            }
            self.loops += 1;
        }
    }
}

/// `extra_counter`: each procedure with a loop gets a local `int extra = 0;` (a fresh
/// name), incremented first thing in every loop body and never read. Exact.
pub(super) fn extra_counter(prog: &Prog) -> Vec<Rewrite> {
    let mut names = walk::all_names(&prog.ast);
    let counter = walk::fresh("extra", &mut names);
    let mut ast = prog.ast.clone();
    let mut total = 0;
    for k in 0..ast.items.len() {
        if !matches!(ast.items[k], Item::Func(_)) {
            continue;
        }
        let f = func_mut(&mut ast, k);
        let mut v = Count {
            counter: &counter,
            loops: 0,
        };
        v.stmt(&mut f.body);
        if v.loops == 0 {
            continue;
        }
        total += v.loops;
        let decl = build::int_decl_stmt(&counter, Some(build::int(0)));
        match &mut f.body.kind {
            StmtKind::Block(ss) => ss.insert(0, decl),
            _ => {
                let old = std::mem::replace(&mut f.body, build::block(Vec::new()));
                f.body = build::block(vec![decl, old]);
            }
        }
    }
    if total == 0 {
        return Vec::new();
    }
    vec![Rewrite {
        transformation: Transformation::ExtraCounter,
        detail: None,
        keeps: Keeps::Both,
        program: ast,
    }]
}
