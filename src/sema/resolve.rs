//! The resolver: walks the AST once, keeping a stack of scopes, and builds the HIR.

use super::hir::{
    ArrayInfo, ArraySize, CmpOp, Expr, LValue, ProcInfo, Program, Range, Stmt, StmtKind, VarInfo,
    VarKind,
};
use super::Analysis;
use crate::diag::{DiagKind, Diagnostic, Span, Unsupported};
use crate::ids::{ArrayId, IndexVec, ProcId, VarId};
use crate::syntax::ast::{self, AssignOp, BinOp, ExprKind, Item, UnOp};
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};
use std::collections::BTreeMap;

/// What a name in scope denotes.
#[derive(Clone, Copy, Debug)]
enum Sym {
    Var(VarId),
    Array(ArrayId),
}

/// What a called name denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Builtin {
    Error,
    Assert,
    Assume,
    Stop,
    Nondet(Range),
    MakeSymbolic,
}

fn builtin(name: &str) -> Option<Builtin> {
    Some(match name {
        "reach_error" | "__VERIFIER_error" | "__assert_fail" | "__assert_rtn" | "__assert" => {
            Builtin::Error
        }
        "assert" | "__VERIFIER_assert" => Builtin::Assert,
        "assume" | "__VERIFIER_assume" | "assume_abort_if_not" | "klee_assume" => Builtin::Assume,
        "abort" | "exit" | "_exit" => Builtin::Stop,
        "klee_make_symbolic" => Builtin::MakeSymbolic,
        _ => {
            let kind = name.strip_prefix("__VERIFIER_nondet_")?;
            let range = match kind {
                "bool" | "_Bool" => Range::Bool,
                k if k.starts_with('u') => Range::NonNegative,
                "size_t" => Range::NonNegative,
                "int" | "long" | "short" | "char" | "longlong" | "int128" => Range::Any,
                _ => return None,
            };
            Builtin::Nondet(range)
        }
    })
}

/// Information about a procedure name gathered before bodies are resolved.
#[derive(Clone, Debug)]
struct ProcSig {
    id: ProcId,
    arity: usize,
    returns_value: bool,
}

pub(super) struct Resolver {
    vars: IndexVec<VarId, VarInfo>,
    arrays: IndexVec<ArrayId, ArrayInfo>,
    procs: IndexVec<ProcId, ProcInfo>,
    /// Defined procedures by name.
    sigs: BTreeMap<String, ProcSig>,
    /// Prototyped but not defined (external) functions.
    externs: BTreeMap<String, Span>,
    scopes: Vec<BTreeMap<String, Sym>>,
    globals: Vec<(VarId, Option<Expr>)>,
    global_arrays: Vec<(ArrayId, Option<Vec<Expr>>)>,
    ret: VarId,
    errors: Vec<Diagnostic>,
    unsupported: Vec<Unsupported>,
    /// The procedure being resolved (None at top level).
    cur: Option<ProcId>,
    loop_depth: usize,
    labels: BTreeMap<String, Span>,
}

fn err(kind: DiagKind, span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(kind, span, msg)
}

impl Resolver {
    pub(super) fn run(p: &ast::Program) -> Result<Analysis, Vec<Diagnostic>> {
        let mut vars = IndexVec::new();
        let ret = vars.push(VarInfo {
            name: "$ret".into(),
            kind: VarKind::Ret,
            range: Range::Any,
            span: Span::default(),
        });
        let mut r = Resolver {
            vars,
            arrays: IndexVec::new(),
            procs: IndexVec::new(),
            sigs: BTreeMap::new(),
            externs: BTreeMap::new(),
            scopes: vec![BTreeMap::new()],
            globals: Vec::new(),
            global_arrays: Vec::new(),
            ret,
            errors: Vec::new(),
            unsupported: Vec::new(),
            cur: None,
            loop_depth: 0,
            labels: BTreeMap::new(),
        };
        r.collect_signatures(p);
        for item in &p.items {
            match item {
                Item::Decl(d) => r.global_decl(d),
                Item::Func(f) => r.func(f),
                Item::Proto(_) => {}
                Item::Other { what, span, .. } => {
                    if what != "typedef" && !what.contains("struct") && !what.contains("union") {
                        r.unsupported.push(Unsupported::new(what.clone(), *span));
                    }
                }
            }
        }
        let main = match r.sigs.get("main") {
            Some(s) => s.id,
            None => {
                let first = p.items.first().map(item_span).unwrap_or(p.span);
                r.errors.push(
                    err(
                        DiagKind::Structure,
                        Span::new(first.start as usize, first.start as usize + 1),
                        "no `main` procedure",
                    )
                    .with_label("the program starts here")
                    .with_help("define `int main() { ... }` or `void main() { ... }`"),
                );
                ProcId(0)
            }
        };
        if !r.errors.is_empty() {
            r.errors.sort_by_key(|d| d.span.start);
            return Err(r.errors);
        }
        r.unsupported.sort_by_key(|u| u.span.start);
        Ok(Analysis {
            program: Program {
                vars: r.vars,
                arrays: r.arrays,
                procs: r.procs,
                globals: r.globals,
                global_arrays: r.global_arrays,
                ret: r.ret,
                main,
            },
            unsupported: r.unsupported,
        })
    }

    /// First pass: every defined procedure gets an id, so calls may precede definitions.
    fn collect_signatures(&mut self, p: &ast::Program) {
        for item in &p.items {
            match item {
                Item::Func(f) => {
                    let name = &f.proto.name;
                    if builtin(&name.name).is_some() {
                        continue; // the convention wins over a user body (ARCHITECTURE §3)
                    }
                    if self.sigs.contains_key(&name.name) {
                        self.errors.push(
                            err(
                                DiagKind::Redeclared,
                                name.span,
                                format!("procedure `{}` is defined twice", name.name),
                            )
                            .with_label("second definition"),
                        );
                        continue;
                    }
                    let id = self.procs.push(ProcInfo {
                        name: name.name.clone(),
                        formals: Vec::new(),
                        locals: Vec::new(),
                        arrays: Vec::new(),
                        returns_value: !matches!(f.proto.ret, ast::Ty::Void)
                            || f.proto.ret_pointer > 0,
                        body: Vec::new(),
                        span: f.proto.span,
                    });
                    self.sigs.insert(
                        name.name.clone(),
                        ProcSig {
                            id,
                            arity: f.proto.params.len(),
                            returns_value: self.procs[id].returns_value,
                        },
                    );
                }
                Item::Proto(pr) => {
                    self.externs
                        .entry(pr.name.name.clone())
                        .or_insert(pr.name.span);
                }
                _ => {}
            }
        }
    }

    // ----- scopes -----

    fn lookup(&self, name: &str) -> Option<Sym> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    fn declare(&mut self, name: &ast::Ident, sym: Sym) {
        let scope = self.scopes.last_mut().expect("scope stack is never empty");
        if scope.contains_key(&name.name) {
            self.errors.push(
                err(
                    DiagKind::Redeclared,
                    name.span,
                    format!("`{}` is declared twice in the same scope", name.name),
                )
                .with_label("redeclared here"),
            );
            return;
        }
        scope.insert(name.name.clone(), sym);
    }

    fn new_var(&mut self, name: &str, kind: VarKind, range: Range, span: Span) -> VarId {
        let v = self.vars.push(VarInfo {
            name: name.to_string(),
            kind,
            range,
            span,
        });
        if let Some(p) = self.cur {
            match kind {
                VarKind::Formal(_) => self.procs[p].formals.push(v),
                VarKind::Local(_) | VarKind::Temp(_) | VarKind::ArraySize(_) => {
                    self.procs[p].locals.push(v)
                }
                _ => {}
            }
        }
        v
    }

    fn ty_range(&mut self, ty: &ast::Ty, span: Span) -> Range {
        match ty {
            ast::Ty::Int { unsigned, spelling } => {
                if spelling.contains("_Bool") || spelling == "bool" {
                    Range::Bool
                } else if *unsigned {
                    Range::NonNegative
                } else {
                    Range::Any
                }
            }
            ast::Ty::Void => {
                self.errors.push(err(
                    DiagKind::Type,
                    span,
                    "a variable cannot have type `void`",
                ));
                Range::Any
            }
            ast::Ty::Unsupported { spelling } => {
                self.unsupported
                    .push(Unsupported::new(format!("type `{spelling}`"), span));
                Range::Any
            }
        }
    }

    // ----- declarations -----

    fn global_decl(&mut self, d: &ast::Decl) {
        let range = self.ty_range(&d.ty, d.span);
        for v in &d.vars {
            if v.pointer > 0 {
                self.unsupported
                    .push(Unsupported::new("pointer variable", v.name.span));
            }
            if v.dims.is_empty() {
                let id = self.new_var(&v.name.name, VarKind::Global, range, v.name.span);
                self.declare(&v.name, Sym::Var(id));
                let init = match &v.init {
                    None => None,
                    Some(ast::Init::Expr(e)) => Some(self.pure_expr(e)),
                    Some(ast::Init::List(_, span)) => {
                        self.errors.push(err(
                            DiagKind::Type,
                            *span,
                            "a scalar cannot have an initialiser list",
                        ));
                        None
                    }
                };
                self.globals.push((id, init));
            } else {
                let Some((size, init, _)) = self.array_shape(v, true) else {
                    continue;
                };
                let id = self.arrays.push(ArrayInfo {
                    name: v.name.name.clone(),
                    proc: None,
                    size,
                    range,
                    span: v.name.span,
                });
                self.declare(&v.name, Sym::Array(id));
                self.global_arrays.push((id, init));
            }
        }
    }

    /// The size and initialiser of an array declarator, and for a VLA its resolved size
    /// expression. `None` after an error.
    #[allow(clippy::type_complexity)]
    fn array_shape(
        &mut self,
        v: &ast::VarDecl,
        global: bool,
    ) -> Option<(ArraySize, Option<Vec<Expr>>, Option<Expr>)> {
        if v.dims.len() > 1 {
            self.unsupported
                .push(Unsupported::new("multi-dimensional array", v.name.span));
        }
        let init = match &v.init {
            None => None,
            Some(ast::Init::List(es, _)) => {
                Some(es.iter().map(|e| self.pure_expr(e)).collect::<Vec<_>>())
            }
            Some(ast::Init::Expr(e)) => {
                self.errors.push(err(
                    DiagKind::Type,
                    e.span,
                    "an array needs an initialiser list `{...}`",
                ));
                None
            }
        };
        let size = match &v.dims[0] {
            None => match &init {
                Some(es) if !es.is_empty() => ArraySize::Const(es.len() as u64),
                _ => {
                    self.errors.push(
                        err(DiagKind::BadConstant, v.name.span, "array size missing")
                            .with_help("write the size, e.g. `int a[10];`"),
                    );
                    return None;
                }
            },
            Some(e) => {
                let size = self.pure_expr(e);
                match const_value(&size) {
                    Some(n) if n.is_positive() => match n.to_u64() {
                        Some(n) if n <= (1u64 << 40) => ArraySize::Const(n),
                        _ => {
                            self.errors.push(err(
                                DiagKind::BadConstant,
                                e.span,
                                "array size is too large",
                            ));
                            return None;
                        }
                    },
                    Some(_) => {
                        self.errors.push(
                            err(
                                DiagKind::BadConstant,
                                e.span,
                                "array size must be a positive integer",
                            )
                            .with_label("not positive"),
                        );
                        return None;
                    }
                    None if global => {
                        self.errors.push(err(
                            DiagKind::BadConstant,
                            e.span,
                            "a global array needs a constant size",
                        ));
                        return None;
                    }
                    None => {
                        let p = self.cur.expect("local arrays are inside procedures");
                        let sv = self.new_var(
                            &format!("{}#size", v.name.name),
                            VarKind::ArraySize(p),
                            Range::Any,
                            e.span,
                        );
                        return Some((ArraySize::Dynamic(sv), init, Some(size)));
                    }
                }
            }
        };
        if let (ArraySize::Const(n), Some(es)) = (&size, &init) {
            if es.len() as u64 > *n {
                self.errors.push(err(
                    DiagKind::BadConstant,
                    v.span,
                    format!("too many initialisers for an array of size {n}"),
                ));
            }
        }
        Some((size, init, None))
    }

    fn local_decl(&mut self, d: &ast::Decl, out: &mut Vec<Stmt>) {
        let p = self.cur.expect("local declarations are inside procedures");
        let range = self.ty_range(&d.ty, d.span);
        for v in &d.vars {
            if v.pointer > 0 {
                self.unsupported
                    .push(Unsupported::new("pointer variable", v.name.span));
            }
            if v.dims.is_empty() {
                // The initialiser is resolved before the name is in scope (`int x = x;`
                // reads an outer `x`, as C's scope starts after the declarator... close
                // enough: C starts it before the initialiser, but such code is rare).
                let init = match &v.init {
                    None => None,
                    Some(ast::Init::Expr(e)) => Some(self.expr(e)),
                    Some(ast::Init::List(_, span)) => {
                        self.errors.push(err(
                            DiagKind::Type,
                            *span,
                            "a scalar cannot have an initialiser list",
                        ));
                        None
                    }
                };
                let id = self.new_var(&v.name.name, VarKind::Local(p), range, v.name.span);
                self.declare(&v.name, Sym::Var(id));
                let kind = match init {
                    None => StmtKind::Havoc(id),
                    Some(e) => assign_or_call(LValue::Var(id), e),
                };
                out.push(Stmt { kind, span: v.span });
            } else {
                let Some((size, init, size_expr)) = self.array_shape(v, false) else {
                    continue;
                };
                let id = self.arrays.push(ArrayInfo {
                    name: v.name.name.clone(),
                    proc: Some(p),
                    size,
                    range,
                    span: v.name.span,
                });
                self.procs[p].arrays.push(id);
                self.declare(&v.name, Sym::Array(id));
                out.push(Stmt {
                    kind: StmtKind::ArrayDecl {
                        array: id,
                        size: size_expr,
                        init,
                    },
                    span: v.span,
                });
            }
        }
    }

    // ----- procedures -----

    fn func(&mut self, f: &ast::FuncDef) {
        let Some(sig) = self.sigs.get(&f.proto.name.name) else {
            return;
        };
        let p = sig.id;
        if self.procs[p].span != f.proto.span {
            return; // a duplicate definition, already reported
        }
        self.cur = Some(p);
        self.labels.clear();
        self.scopes.push(BTreeMap::new());
        if f.proto.variadic {
            self.unsupported
                .push(Unsupported::new("variadic procedure", f.proto.name.span));
        }
        if f.proto.ret_pointer > 0 {
            self.unsupported.push(Unsupported::new(
                "procedure returning a pointer",
                f.proto.name.span,
            ));
        } else if let ast::Ty::Unsupported { spelling } = &f.proto.ret {
            self.unsupported.push(Unsupported::new(
                format!("return type `{spelling}`"),
                f.proto.span,
            ));
        }
        for prm in &f.proto.params {
            let range = self.ty_range(&prm.ty, prm.span);
            if prm.pointer > 0 || prm.is_array {
                self.unsupported
                    .push(Unsupported::new("pointer or array parameter", prm.span));
            }
            let name = prm.name.clone().unwrap_or(ast::Ident {
                name: format!("#arg{}", self.procs[p].formals.len()),
                span: prm.span,
            });
            let v = self.new_var(&name.name, VarKind::Formal(p), range, name.span);
            self.declare(&name, Sym::Var(v));
        }
        let body = match &f.body.kind {
            ast::StmtKind::Block(ss) => self.block(ss),
            _ => self.stmt_list(std::slice::from_ref(&f.body)),
        };
        self.scopes.pop();
        self.procs[p].body = body;
        self.cur = None;
    }

    fn block(&mut self, ss: &[ast::Stmt]) -> Vec<Stmt> {
        self.scopes.push(BTreeMap::new());
        let out = self.stmt_list(ss);
        self.scopes.pop();
        out
    }

    fn stmt_list(&mut self, ss: &[ast::Stmt]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for s in ss {
            self.stmt(s, &mut out);
        }
        out
    }

    /// A statement that gets its own scope when it is a block (branches, loop bodies).
    fn sub(&mut self, s: &ast::Stmt) -> Vec<Stmt> {
        match &s.kind {
            ast::StmtKind::Block(ss) => self.block(ss),
            _ => {
                self.scopes.push(BTreeMap::new());
                let mut out = Vec::new();
                self.stmt(s, &mut out);
                self.scopes.pop();
                out
            }
        }
    }

    fn stmt(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) {
        let span = s.span;
        let push = |out: &mut Vec<Stmt>, kind| out.push(Stmt { kind, span });
        match &s.kind {
            ast::StmtKind::Decl(d) => self.local_decl(d, out),
            ast::StmtKind::Assign { lhs, rhs } => {
                if lhs.len() == 1 {
                    // `a = b = e` chains: do the inner assignment first.
                    let mut value = &rhs[0];
                    let mut chain = Vec::new();
                    while let ExprKind::Assign {
                        lhs: inner,
                        op: AssignOp::Set,
                        rhs: v,
                    } = &value.kind
                    {
                        chain.push(inner.as_ref());
                        value = v;
                    }
                    if !chain.is_empty() {
                        let innermost = chain.pop().expect("chain is non-empty");
                        let target = self.lvalue(innermost);
                        let e = self.expr(value);
                        push(out, assign_or_call(target, e));
                        let mut src = innermost;
                        for t in chain.into_iter().rev().chain(std::iter::once(&lhs[0])) {
                            let target = self.lvalue(t);
                            let e = self.expr(src);
                            push(out, StmtKind::Assign(vec![(target, e)]));
                            src = t;
                        }
                        return;
                    }
                    let target = self.lvalue(&lhs[0]);
                    let e = self.expr(&rhs[0]);
                    push(out, assign_or_call(target, e));
                } else {
                    let pairs = lhs
                        .iter()
                        .zip(rhs)
                        .map(|(l, r)| (self.lvalue(l), self.expr(r)))
                        .collect();
                    push(out, StmtKind::Assign(pairs));
                }
            }
            ast::StmtKind::CompoundAssign { lhs, op, rhs } => {
                let target = self.lvalue(lhs);
                let cur = self.expr(lhs);
                let r = self.expr(rhs);
                let bop = match op {
                    AssignOp::Set => unreachable_set(),
                    AssignOp::Add => BinOp::Add,
                    AssignOp::Sub => BinOp::Sub,
                    AssignOp::Mul => BinOp::Mul,
                    AssignOp::Div => BinOp::Div,
                    AssignOp::Mod => BinOp::Mod,
                };
                let e = self.binary(bop, cur, r, s.span, rhs.span);
                push(out, StmtKind::Assign(vec![(target, e)]));
            }
            ast::StmtKind::IncDec { lhs, inc, .. } => {
                let target = self.lvalue(lhs);
                let cur = self.expr(lhs);
                let one = Box::new(Expr::int(1));
                let e = if *inc {
                    Expr::Add(Box::new(cur), one)
                } else {
                    Expr::Sub(Box::new(cur), one)
                };
                push(out, StmtKind::Assign(vec![(target, e)]));
            }
            ast::StmtKind::Expr(e) => self.expr_stmt(e, out),
            ast::StmtKind::If { cond, then, els } => {
                let c = self.expr(cond);
                let t = self.sub(then);
                let e = els.as_ref().map(|e| self.sub(e)).unwrap_or_default();
                push(out, StmtKind::If(c, t, e));
            }
            ast::StmtKind::While { cond, body } => {
                let c = self.expr(cond);
                self.loop_depth += 1;
                let b = self.sub(body);
                self.loop_depth -= 1;
                push(
                    out,
                    StmtKind::Loop {
                        cond: c,
                        body: b,
                        step: Vec::new(),
                        do_while: false,
                    },
                );
            }
            ast::StmtKind::DoWhile { body, cond } => {
                self.loop_depth += 1;
                let b = self.sub(body);
                self.loop_depth -= 1;
                let c = self.expr(cond);
                push(
                    out,
                    StmtKind::Loop {
                        cond: c,
                        body: b,
                        step: Vec::new(),
                        do_while: true,
                    },
                );
            }
            ast::StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.scopes.push(BTreeMap::new());
                let mut stmts = Vec::new();
                if let Some(i) = init {
                    self.flat_stmt(i, &mut stmts);
                }
                let c = cond
                    .as_ref()
                    .map(|c| self.expr(c))
                    .unwrap_or_else(|| Expr::int(1));
                self.loop_depth += 1;
                let b = self.sub(body);
                self.loop_depth -= 1;
                let mut st = Vec::new();
                if let Some(x) = step {
                    self.flat_stmt(x, &mut st);
                }
                self.scopes.pop();
                stmts.push(Stmt {
                    kind: StmtKind::Loop {
                        cond: c,
                        body: b,
                        step: st,
                        do_while: false,
                    },
                    span,
                });
                push(out, StmtKind::Block(stmts));
            }
            ast::StmtKind::Break | ast::StmtKind::Continue => {
                if self.loop_depth == 0 {
                    let what = if matches!(s.kind, ast::StmtKind::Break) {
                        "break"
                    } else {
                        "continue"
                    };
                    self.errors.push(err(
                        DiagKind::Structure,
                        span,
                        format!("`{what}` outside a loop"),
                    ));
                } else if matches!(s.kind, ast::StmtKind::Break) {
                    push(out, StmtKind::Break);
                } else {
                    push(out, StmtKind::Continue);
                }
            }
            ast::StmtKind::Return(e) => {
                let p = self.cur.expect("statements are inside procedures");
                let v = e.as_ref().map(|e| self.expr(e));
                if v.is_some() && !self.procs[p].returns_value {
                    self.errors.push(err(
                        DiagKind::Type,
                        span,
                        format!(
                            "`{}` returns `void` but this returns a value",
                            self.procs[p].name
                        ),
                    ));
                }
                push(out, StmtKind::Return(v));
            }
            ast::StmtKind::Skip | ast::StmtKind::Empty => push(out, StmtKind::Skip),
            ast::StmtKind::Block(ss) => {
                let b = self.block(ss);
                push(out, StmtKind::Block(b));
            }
            ast::StmtKind::Labeled { label, stmt } => {
                if let Some(prev) = self.labels.insert(label.name.clone(), label.span) {
                    if prev != label.span {
                        self.errors.push(err(
                            DiagKind::Structure,
                            label.span,
                            format!("label `{}` is defined twice", label.name),
                        ));
                    }
                }
                let mut inner = Vec::new();
                self.stmt(stmt, &mut inner);
                let inner = if inner.len() == 1 {
                    inner.pop().expect("one statement")
                } else {
                    Stmt {
                        kind: StmtKind::Block(inner),
                        span: stmt.span,
                    }
                };
                push(
                    out,
                    StmtKind::Label {
                        name: label.name.clone(),
                        is_error: label.name == "ERROR",
                        stmt: Box::new(inner),
                    },
                );
            }
            ast::StmtKind::Goto(l) => {
                self.unsupported.push(Unsupported::new("goto", l.span));
            }
        }
    }

    /// A `for` init or step: a declaration, a simple statement, or a brace-less block of
    /// them (resolved in the current scope).
    fn flat_stmt(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) {
        match &s.kind {
            ast::StmtKind::Block(ss) => ss.iter().for_each(|x| self.stmt(x, out)),
            _ => self.stmt(s, out),
        }
    }

    fn expr_stmt(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) {
        let span = e.span;
        let push = |out: &mut Vec<Stmt>, kind| out.push(Stmt { kind, span });
        match &e.kind {
            ExprKind::Call { func, args } => match builtin(&func.name) {
                Some(Builtin::Error) => push(out, StmtKind::Error),
                Some(Builtin::Stop) => push(out, StmtKind::Stop),
                Some(Builtin::Assert) | Some(Builtin::Assume) => {
                    if args.len() != 1 {
                        self.errors.push(err(
                            DiagKind::Arity,
                            func.span,
                            format!(
                                "`{}` takes 1 argument but {} were given",
                                func.name,
                                args.len()
                            ),
                        ));
                        return;
                    }
                    let c = self.expr(&args[0]);
                    if builtin(&func.name) == Some(Builtin::Assert) {
                        push(out, StmtKind::Assert(c));
                    } else {
                        push(out, StmtKind::Assume(c));
                    }
                }
                Some(Builtin::MakeSymbolic) => self.make_symbolic(func, args, out, span),
                Some(Builtin::Nondet(_)) => {}
                None => {
                    if let Expr::Call(proc, args, _) = self.call_expr(func, args, span, false) {
                        push(
                            out,
                            StmtKind::Call {
                                dest: None,
                                proc,
                                args,
                            },
                        );
                    } // else: an external call, already reported
                }
            },
            ExprKind::Assign { .. } | ExprKind::IncDec { .. } => {
                // `x = e` nested in parentheses etc.: treat like the statement.
                let stmt = match &e.kind {
                    ExprKind::Assign {
                        lhs,
                        op: AssignOp::Set,
                        rhs,
                    } => ast::StmtKind::Assign {
                        lhs: vec![(**lhs).clone()],
                        rhs: vec![(**rhs).clone()],
                    },
                    ExprKind::Assign { lhs, op, rhs } => ast::StmtKind::CompoundAssign {
                        lhs: (**lhs).clone(),
                        op: *op,
                        rhs: (**rhs).clone(),
                    },
                    ExprKind::IncDec { e: x, inc, prefix } => ast::StmtKind::IncDec {
                        lhs: (**x).clone(),
                        inc: *inc,
                        prefix: *prefix,
                    },
                    _ => unreachable_set(),
                };
                self.stmt(&ast::Stmt::new(stmt, span), out);
            }
            _ => {
                // An expression without effect (e.g. `x;`), or with calls inside: keep the
                // calls' effects by evaluating into a scratch temporary.
                let v = self.expr(e);
                if v.has_effects() {
                    let p = self.cur.expect("statements are inside procedures");
                    let t = self.new_var("#discard", VarKind::Temp(p), Range::Any, span);
                    push(out, StmtKind::Assign(vec![(LValue::Var(t), v)]));
                } else {
                    push(out, StmtKind::Skip);
                }
            }
        }
    }

    fn make_symbolic(
        &mut self,
        func: &ast::Ident,
        args: &[ast::Expr],
        out: &mut Vec<Stmt>,
        span: Span,
    ) {
        let Some(first) = args.first() else {
            self.errors.push(err(
                DiagKind::Arity,
                func.span,
                "`klee_make_symbolic` needs the object as first argument",
            ));
            return;
        };
        let target = match &first.kind {
            ExprKind::AddrOf(x) => &**x,
            _ => first,
        };
        match &target.kind {
            ExprKind::Var(id) => match self.lookup(&id.name) {
                Some(Sym::Var(v)) => out.push(Stmt {
                    kind: StmtKind::Havoc(v),
                    span,
                }),
                Some(Sym::Array(a)) => out.push(Stmt {
                    kind: StmtKind::ArrayHavoc(a),
                    span,
                }),
                None => self.errors.push(err(
                    DiagKind::Undeclared,
                    id.span,
                    format!("`{}` is not declared", id.name),
                )),
            },
            _ => self.unsupported.push(Unsupported::new(
                "klee_make_symbolic on something other than a variable or array",
                first.span,
            )),
        }
    }

    // ----- expressions -----

    fn lvalue(&mut self, e: &ast::Expr) -> LValue {
        match &e.kind {
            ExprKind::Var(id) => match self.lookup(&id.name) {
                Some(Sym::Var(v)) => LValue::Var(v),
                Some(Sym::Array(_)) => {
                    self.errors.push(
                        err(
                            DiagKind::Type,
                            id.span,
                            format!("cannot assign to array `{}` as a whole", id.name),
                        )
                        .with_help("assign its elements, e.g. `a[i] = e;`"),
                    );
                    LValue::Var(self.ret)
                }
                None => {
                    self.errors.push(undeclared(id));
                    LValue::Var(self.ret)
                }
            },
            ExprKind::Index { base, index } => {
                let i = self.expr(index);
                match self.array_of(base) {
                    Some(a) => LValue::Elem(a, i),
                    None => LValue::Var(self.ret),
                }
            }
            ExprKind::Deref(_) => {
                self.unsupported
                    .push(Unsupported::new("pointer dereference", e.span));
                LValue::Var(self.ret)
            }
            _ => {
                self.errors.push(
                    err(DiagKind::Type, e.span, "this cannot be assigned to")
                        .with_help("assign to a variable or an array element"),
                );
                LValue::Var(self.ret)
            }
        }
    }

    fn array_of(&mut self, base: &ast::Expr) -> Option<ArrayId> {
        match &base.kind {
            ExprKind::Var(id) => match self.lookup(&id.name) {
                Some(Sym::Array(a)) => Some(a),
                Some(Sym::Var(_)) => {
                    self.errors.push(
                        err(
                            DiagKind::Type,
                            id.span,
                            format!("`{}` is not an array", id.name),
                        )
                        .with_label("a scalar is indexed here"),
                    );
                    None
                }
                None => {
                    self.errors.push(undeclared(id));
                    None
                }
            },
            ExprKind::Index { .. } => {
                self.unsupported.push(Unsupported::new(
                    "multi-dimensional array access",
                    base.span,
                ));
                None
            }
            _ => {
                self.unsupported.push(Unsupported::new(
                    "indexing something other than an array name",
                    base.span,
                ));
                None
            }
        }
    }

    /// An expression that must not call procedures (global initialisers, array sizes).
    fn pure_expr(&mut self, e: &ast::Expr) -> Expr {
        let r = self.expr(e);
        if r.has_effects() && self.cur.is_none() {
            self.errors.push(err(
                DiagKind::Structure,
                e.span,
                "a global initialiser cannot call procedures",
            ));
        }
        r
    }

    fn expr(&mut self, e: &ast::Expr) -> Expr {
        match &e.kind {
            ExprKind::Int(n) => Expr::Const(n.clone()),
            ExprKind::Var(id) => match self.lookup(&id.name) {
                Some(Sym::Var(v)) => Expr::Var(v),
                Some(Sym::Array(_)) => {
                    self.errors.push(
                        err(
                            DiagKind::Type,
                            id.span,
                            format!("array `{}` used as a scalar", id.name),
                        )
                        .with_help("read an element, e.g. `a[i]`"),
                    );
                    Expr::Undef
                }
                None if id.name == "u" => Expr::Undef,
                None => {
                    self.errors.push(undeclared(id));
                    Expr::Undef
                }
            },
            ExprKind::Index { base, index } => {
                let i = self.expr(index);
                match self.array_of(base) {
                    Some(a) => Expr::Read(a, Box::new(i)),
                    None => Expr::Undef,
                }
            }
            ExprKind::Unary { op, e: x } => {
                let v = self.expr(x);
                match op {
                    UnOp::Neg => match const_value(&v) {
                        Some(n) => Expr::Const(-n),
                        None => Expr::Scale(BigInt::from(-1), Box::new(v)),
                    },
                    UnOp::Plus => v,
                    UnOp::Not => Expr::Not(Box::new(v)),
                    UnOp::BitNot => {
                        self.unsupported
                            .push(Unsupported::new("bitwise operator `~`", e.span));
                        Expr::Undef
                    }
                }
            }
            ExprKind::Binary { op, l, r } => {
                let a = self.expr(l);
                let b = self.expr(r);
                self.binary(*op, a, b, e.span, r.span)
            }
            ExprKind::Cond { c, t, e: f } => {
                let c = self.expr(c);
                let t = self.expr(t);
                let f = self.expr(f);
                Expr::Cond(Box::new(c), Box::new(t), Box::new(f))
            }
            ExprKind::Call { func, args } => self.call_expr(func, args, e.span, true),
            ExprKind::Cast { ty, pointer, e: x } => {
                if *pointer > 0 || !matches!(ty, ast::Ty::Int { .. }) {
                    self.unsupported
                        .push(Unsupported::new("cast to a non-integer type", e.span));
                }
                self.expr(x)
            }
            ExprKind::AddrOf(_) => {
                self.unsupported
                    .push(Unsupported::new("address-of `&`", e.span));
                Expr::Undef
            }
            ExprKind::Deref(_) => {
                self.unsupported
                    .push(Unsupported::new("pointer dereference", e.span));
                Expr::Undef
            }
            ExprKind::Sizeof(_) => {
                self.unsupported.push(Unsupported::new("sizeof", e.span));
                Expr::Undef
            }
            ExprKind::Str(_) => {
                self.unsupported
                    .push(Unsupported::new("string literal", e.span));
                Expr::Undef
            }
            ExprKind::Assign { .. } | ExprKind::IncDec { .. } => {
                self.unsupported
                    .push(Unsupported::new("assignment inside an expression", e.span));
                Expr::Undef
            }
            ExprKind::Float(_) => {
                self.unsupported
                    .push(Unsupported::new("floating-point constant", e.span));
                Expr::Undef
            }
        }
    }

    /// A call; `want_value` when its result is used.
    fn call_expr(
        &mut self,
        func: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        want_value: bool,
    ) -> Expr {
        if let Some(b) = builtin(&func.name) {
            return match b {
                Builtin::Nondet(Range::Any) => Expr::Undef,
                Builtin::Nondet(r) => Expr::Nondet(r, span),
                _ => {
                    self.unsupported.push(Unsupported::new(
                        format!("`{}` inside an expression", func.name),
                        span,
                    ));
                    Expr::Undef
                }
            };
        }
        let resolved: Vec<Expr> = args.iter().map(|a| self.expr(a)).collect();
        if let Some(sig) = self.sigs.get(&func.name).cloned() {
            if sig.arity != args.len() {
                self.errors.push(
                    err(
                        DiagKind::Arity,
                        func.span,
                        format!(
                            "`{}` takes {} argument{} but {} were given",
                            func.name,
                            sig.arity,
                            if sig.arity == 1 { "" } else { "s" },
                            args.len()
                        ),
                    )
                    .with_label("wrong number of arguments"),
                );
            }
            if want_value && !sig.returns_value {
                self.errors.push(err(
                    DiagKind::Type,
                    func.span,
                    format!("`{}` returns `void`; its value cannot be used", func.name),
                ));
            }
            return Expr::Call(sig.id, resolved, span);
        }
        if self.lookup(&func.name).is_some() {
            self.errors.push(err(
                DiagKind::Type,
                func.span,
                format!("`{}` is not a procedure", func.name),
            ));
        } else if self.externs.contains_key(&func.name) {
            self.unsupported.push(Unsupported::new(
                format!("call to external function `{}`", func.name),
                func.span,
            ));
        } else {
            self.errors.push(
                err(
                    DiagKind::Undeclared,
                    func.span,
                    format!("call to undeclared procedure `{}`", func.name),
                )
                .with_label("not declared"),
            );
        }
        Expr::Undef
    }

    /// Checks linearity (ARCHITECTURE §3): a product needs a constant factor; `/` and `%`
    /// need a non-zero constant divisor. `span` is the whole expression's.
    fn binary(&mut self, op: BinOp, a: Expr, b: Expr, span: Span, rspan: Span) -> Expr {
        let bx = Box::new;
        match op {
            BinOp::Add => fold2(a, b, |x, y| x + y, |a, b| Expr::Add(bx(a), bx(b))),
            BinOp::Sub => fold2(a, b, |x, y| x - y, |a, b| Expr::Sub(bx(a), bx(b))),
            BinOp::Mul => {
                match (const_value(&a), const_value(&b)) {
                    (Some(x), Some(y)) => Expr::Const(x * y),
                    (Some(x), None) => Expr::Scale(x, bx(b)),
                    (None, Some(y)) => Expr::Scale(y, bx(a)),
                    (None, None) => {
                        self.errors.push(
                        err(DiagKind::NonLinear, span, "product of two non-constant expressions is not linear")
                            .with_label("non-linear product")
                            .with_help("lpmc handles linear programs: one factor of `*` must be a constant"),
                    );
                        Expr::Undef
                    }
                }
            }
            BinOp::Div | BinOp::Mod => match const_value(&b) {
                Some(c) if c.is_zero() => {
                    self.errors
                        .push(err(DiagKind::BadConstant, rspan, "division by zero"));
                    Expr::Undef
                }
                Some(c) => {
                    let neg = c.is_negative();
                    let c = c.abs();
                    if let Some(x) = const_value(&a) {
                        // C truncates toward zero; BigInt's `/` and `%` do too.
                        let q = if op == BinOp::Div { &x / &c } else { &x % &c };
                        return Expr::Const(if neg && op == BinOp::Div { -q } else { q });
                    }
                    if op == BinOp::Div {
                        let d = Expr::Div(bx(a), c);
                        if neg {
                            Expr::Scale(BigInt::from(-1), bx(d))
                        } else {
                            d
                        }
                    } else {
                        Expr::Mod(bx(a), c) // C: the sign of `%` follows the dividend
                    }
                }
                None => {
                    self.errors.push(
                        err(
                            DiagKind::NonLinear,
                            span,
                            format!(
                                "`{}` by a non-constant is not linear",
                                if op == BinOp::Div { "/" } else { "%" }
                            ),
                        )
                        .with_label("non-constant divisor")
                        .with_help("divide only by a constant"),
                    );
                    Expr::Undef
                }
            },
            BinOp::Lt => cmp(CmpOp::Lt, a, b),
            BinOp::Le => cmp(CmpOp::Le, a, b),
            BinOp::Gt => cmp(CmpOp::Gt, a, b),
            BinOp::Ge => cmp(CmpOp::Ge, a, b),
            BinOp::Eq => cmp(CmpOp::Eq, a, b),
            BinOp::Ne => cmp(CmpOp::Ne, a, b),
            BinOp::And => Expr::And(bx(a), bx(b)),
            BinOp::Or => Expr::Or(bx(a), bx(b)),
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr => {
                self.unsupported
                    .push(Unsupported::new("bitwise operator", span));
                Expr::Undef
            }
        }
    }
}

fn unreachable_set() -> ! {
    panic!("internal error: `=` is not a compound operator")
}

fn undeclared(id: &ast::Ident) -> Diagnostic {
    err(
        DiagKind::Undeclared,
        id.span,
        format!("`{}` is not declared", id.name),
    )
    .with_label("not found in this scope")
}

fn item_span(i: &Item) -> Span {
    match i {
        Item::Decl(d) => d.span,
        Item::Func(f) => f.span,
        Item::Proto(p) => p.span,
        Item::Other { span, .. } => *span,
    }
}

/// `dest = e` as an assignment, or as a call statement when `e` is a call.
fn assign_or_call(dest: LValue, e: Expr) -> StmtKind {
    match e {
        Expr::Call(proc, args, _) => StmtKind::Call {
            dest: Some(dest),
            proc,
            args,
        },
        e => StmtKind::Assign(vec![(dest, e)]),
    }
}

fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
    match (const_value(&a), const_value(&b)) {
        (Some(x), Some(y)) => Expr::int(op.holds(&x, &y) as i64),
        _ => Expr::Cmp(op, Box::new(a), Box::new(b)),
    }
}

fn fold2(
    a: Expr,
    b: Expr,
    f: impl Fn(BigInt, BigInt) -> BigInt,
    mk: impl Fn(Expr, Expr) -> Expr,
) -> Expr {
    match (const_value(&a), const_value(&b)) {
        (Some(x), Some(y)) => Expr::Const(f(x, y)),
        _ => mk(a, b),
    }
}

/// The value of an expression made of constants only (no variables, `u`, reads or calls).
pub fn const_value(e: &Expr) -> Option<BigInt> {
    Some(match e {
        Expr::Const(n) => n.clone(),
        Expr::Add(a, b) => const_value(a)? + const_value(b)?,
        Expr::Sub(a, b) => const_value(a)? - const_value(b)?,
        Expr::Scale(c, a) => c * const_value(a)?,
        Expr::Div(a, c) => const_value(a)? / c,
        Expr::Mod(a, c) => const_value(a)? % c,
        Expr::Wrap(w, a) => w.wrap(&const_value(a)?),
        Expr::Cmp(op, a, b) => BigInt::from(op.holds(&const_value(a)?, &const_value(b)?) as i64),
        Expr::Not(a) => BigInt::from(const_value(a)?.is_zero() as i64),
        Expr::And(a, b) => {
            let x = const_value(a)?;
            if x.is_zero() {
                BigInt::zero()
            } else {
                BigInt::from(!const_value(b)?.is_zero() as i64)
            }
        }
        Expr::Or(a, b) => {
            let x = const_value(a)?;
            if !x.is_zero() {
                BigInt::from(1)
            } else {
                BigInt::from(!const_value(b)?.is_zero() as i64)
            }
        }
        Expr::Cond(c, a, b) => {
            if const_value(c)?.is_zero() {
                const_value(b)?
            } else {
                const_value(a)?
            }
        }
        Expr::Var(_) | Expr::Undef | Expr::Read(..) | Expr::Call(..) | Expr::Nondet(..) => {
            return None
        }
    })
}
