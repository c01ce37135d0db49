//! The content of a violation witness (format 2.0) as segments of waypoints, and where
//! each waypoint is in the CFG.
//!
//! A witness is a sequence of segments; each is zero or more `avoid` waypoints and one
//! `follow` waypoint at its end; the last segment's `follow` waypoint is the `target`. A
//! run matches the witness when it can be cut into as many parts as there are segments,
//! each part ending where the run passes its segment's `follow` waypoint and passing
//! none of that segment's `avoid` waypoints ([`super::monitor`] turns this into a
//! program).
//!
//! A waypoint's location is a line and a column (1-based, in the user's file) and
//! optionally a file name. The column picks one of several statements on a line: a
//! node whose statement starts at that column first, else one whose statement contains
//! it; without a column, the leftmost suitable statement of the line.

use super::cexpr;
use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::frontend::Loaded;
use crate::ids::{NodeId, VarId};
use crate::sema::{CmpOp, Expr};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet};
use yaml_rust2::Yaml;

/// The type of a waypoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A C expression that holds just before the location.
    Assumption,
    /// Which way a branching statement (`if`, a loop's test, `switch`, `?:`) goes.
    Branching,
    /// A call is made.
    FunctionEnter,
    /// A call returns, its value (`\result`) constrained.
    FunctionReturn,
    /// The property is violated here.
    Target,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Assumption => "assumption",
            Kind::Branching => "branching",
            Kind::FunctionEnter => "function_enter",
            Kind::FunctionReturn => "function_return",
            Kind::Target => "target",
        }
    }
}

/// One waypoint as the witness gives it.
#[derive(Clone, Debug)]
pub(super) struct Waypoint {
    pub kind: Kind,
    /// `follow` (else `avoid`).
    pub follow: bool,
    pub line: u32,
    pub col: Option<u32>,
    pub file: Option<String>,
    /// The constraint's `value`, if any.
    pub constraint: Option<String>,
}

impl Waypoint {
    /// `branching at 5:9`, for diagnostics.
    pub fn describe(&self) -> String {
        match self.col {
            Some(c) => format!("{} waypoint at {}:{c}", self.kind.name(), self.line),
            None => format!("{} waypoint at line {}", self.kind.name(), self.line),
        }
    }
}

/// A segment: its `avoid` waypoints and its `follow` waypoint.
#[derive(Clone, Debug)]
pub(super) struct Segment {
    pub avoid: Vec<Waypoint>,
    pub follow: Waypoint,
}

/// Why a witness cannot be checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WitnessProblem {
    /// The witness is malformed, or a waypoint matches no location of the program (bad
    /// input: exit 2).
    Invalid(String),
    /// A waypoint's constraint is outside what lpmc reads (UNKNOWN).
    Unsupported(String),
}

/// The segments of the `violation_sequence` entries, in order: each entry's segments
/// read item by item (`read`, by the entry's index), or else from its `content`.
pub(super) fn segments(
    entries: &[(usize, &Yaml)],
    read: &mut BTreeMap<usize, Result<Vec<Segment>, WitnessProblem>>,
) -> Result<Vec<Segment>, WitnessProblem> {
    let bad = |m: String| WitnessProblem::Invalid(m);
    let mut out = Vec::new();
    for (at, e) in entries {
        if let Some(segs) = read.remove(at) {
            out.extend(segs?);
            continue;
        }
        let Some(segs) = e["content"].as_vec() else {
            return Err(bad("a violation_sequence without content".into()));
        };
        for (i, seg) in segs.iter().enumerate() {
            out.push(segment(seg, i + 1)?);
        }
    }
    let n = out.len();
    for (i, s) in out.iter().enumerate() {
        let is_target = s.follow.kind == Kind::Target;
        if is_target != (i + 1 == n) {
            return Err(bad(format!(
                "segment {}: the target must be the follow waypoint of the last segment, and only there",
                i + 1
            )));
        }
        if let Some(w) = s.avoid.iter().find(|w| w.kind == Kind::Target) {
            return Err(bad(format!("an avoided target ({})", w.describe())));
        }
    }
    if n == 0 {
        return Err(bad("a violation witness without segments".into()));
    }
    Ok(out)
}

/// Content item `i` (1-based) of a violation sequence: a segment.
pub(super) fn segment(seg: &Yaml, i: usize) -> Result<Segment, WitnessProblem> {
    let bad = |m: String| WitnessProblem::Invalid(m);
    let Some(ws) = seg["segment"].as_vec() else {
        return Err(bad(format!("content item {i} is not a segment")));
    };
    let mut avoid = Vec::new();
    let mut follow = None;
    for w in ws {
        let w = waypoint(&w["waypoint"], i)?;
        if follow.is_some() {
            return Err(bad(format!(
                "segment {i}: a waypoint after its follow waypoint ({})",
                w.describe()
            )));
        }
        if w.follow {
            follow = Some(w);
        } else {
            avoid.push(w);
        }
    }
    let Some(follow) = follow else {
        return Err(bad(format!("segment {i} has no follow waypoint")));
    };
    Ok(Segment { avoid, follow })
}

fn waypoint(w: &Yaml, seg: usize) -> Result<Waypoint, WitnessProblem> {
    let bad = |m: String| WitnessProblem::Invalid(format!("segment {seg}: {m}"));
    let kind = match w["type"].as_str() {
        Some("assumption") => Kind::Assumption,
        Some("branching") => Kind::Branching,
        Some("function_enter") => Kind::FunctionEnter,
        Some("function_return") => Kind::FunctionReturn,
        Some("target") => Kind::Target,
        Some(t) => return Err(bad(format!("a waypoint of unknown type `{t}`"))),
        None => return Err(bad("a waypoint without type".into())),
    };
    let follow = match w["action"].as_str() {
        Some("follow") => true,
        Some("avoid") => false,
        _ => return Err(bad("a waypoint whose action is not follow or avoid".into())),
    };
    let loc = &w["location"];
    let int = |y: &Yaml| {
        y.as_i64()
            .or_else(|| y.as_str().and_then(|s| s.trim().parse().ok()))
    };
    let Some(line) = int(&loc["line"]).and_then(|l| u32::try_from(l).ok()) else {
        return Err(bad(format!("a {} waypoint without a line", kind.name())));
    };
    let col = int(&loc["column"]).and_then(|c| u32::try_from(c).ok());
    let constraint = match &w["constraint"]["value"] {
        Yaml::String(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    };
    Ok(Waypoint {
        kind,
        follow,
        line,
        col,
        file: loc["file_name"].as_str().map(str::to_string),
        constraint,
    })
}

/// Where in the CFG a waypoint is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Point {
    /// Just before a node (every edge into it within its procedure).
    Before(NodeId),
    /// On the `then` (`true`) or `else` edge of a branch.
    Edge(NodeId, bool),
    /// Just after a node with one successor.
    After(NodeId),
}

/// A waypoint placed in the CFG: where it is checked and what must hold there (over the
/// variables in scope at that point).
#[derive(Clone, Debug)]
pub(super) struct Placed {
    pub point: Point,
    pub cond: Expr,
}

/// A statement's first and last position, each (line, column).
type Extent = ((u32, u32), (u32, u32));

/// The locations of a loaded program's nodes.
pub(super) struct Locator<'a> {
    loaded: &'a Loaded,
    /// Each node's span start and end as (line, column); `None` for node 0.
    at: Vec<Option<Extent>>,
    /// The program's file name (for the waypoints' `file_name`).
    program: String,
    /// The nodes a waypoint may name ([`Locator::statement_nodes`]).
    stmts: Vec<NodeId>,
    /// Those nodes by the line their statement starts on.
    by_line: std::collections::BTreeMap<u32, Vec<NodeId>>,
}

/// The file name without directories and extension (`a/b/x.c` → `x`): a witness may
/// name the `.c` file of a preprocessed `.i`, or give another path to it.
fn stem(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    base.split('.').next().unwrap_or(base).to_string()
}

impl<'a> Locator<'a> {
    pub fn new(loaded: &'a Loaded, program: &std::path::Path) -> Locator<'a> {
        let cfg = &loaded.cfg;
        let at: Vec<Option<Extent>> = cfg
            .nodes
            .indices()
            .map(|n| {
                (n != ERROR_NODE).then(|| {
                    let s = cfg.nodes[n].span;
                    let (a, b) = (loaded.file.line_col(s.start), loaded.file.line_col(s.end));
                    ((a.line, a.col), (b.line, b.col))
                })
            })
            .collect();
        // The nodes of a procedure's own flow, without node 0 and the exits: return
        // points have the call's statement too, but are never its start.
        let rets: BTreeSet<NodeId> = cfg
            .nodes
            .iter()
            .filter_map(|n| match n.kind {
                NodeKind::Call { ret_point, .. } => Some(ret_point),
                _ => None,
            })
            .collect();
        let stmts: Vec<NodeId> = cfg
            .nodes
            .indices()
            .filter(|n| *n != ERROR_NODE && !rets.contains(n))
            .filter(|n| !matches!(cfg.nodes[*n].kind, NodeKind::Exit))
            .collect();
        let mut by_line: std::collections::BTreeMap<u32, Vec<NodeId>> = Default::default();
        for n in &stmts {
            if let Some(((l, _), _)) = at[n.0 as usize] {
                by_line.entry(l).or_default().push(*n);
            }
        }
        Locator {
            loaded,
            at,
            program: program.to_string_lossy().to_string(),
            stmts,
            by_line,
        }
    }

    /// The statement nodes on the waypoint's line.
    fn on_line(&self, w: &Waypoint) -> impl Iterator<Item = NodeId> + Clone + '_ {
        self.by_line
            .get(&w.line)
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .copied()
    }

    fn cfg(&self) -> &Cfg {
        &self.loaded.cfg
    }

    /// The nodes among `cands` at the waypoint's location: those whose statement starts
    /// at its column, else those whose statement contains it (the innermost), else
    /// (without a column) the leftmost ones of the line.
    fn pick(&self, w: &Waypoint, cands: impl Iterator<Item = NodeId>) -> Vec<NodeId> {
        let on_line: Vec<NodeId> = cands
            .filter(|n| matches!(self.at[n.0 as usize], Some(((l, _), _)) if l == w.line))
            .collect();
        let start = |n: &NodeId| self.at[n.0 as usize].map_or(0, |((_, c), _)| c);
        let Some(col) = w.col else {
            let Some(left) = on_line.iter().map(start).min() else {
                return Vec::new();
            };
            return on_line.into_iter().filter(|n| start(n) == left).collect();
        };
        let exact: Vec<NodeId> = on_line
            .iter()
            .copied()
            .filter(|n| start(n) == col)
            .collect();
        if !exact.is_empty() {
            return exact;
        }
        let contains = |n: &NodeId| match self.at[n.0 as usize] {
            Some(((_, c0), (l1, c1))) => c0 <= col && (l1 > w.line || col < c1),
            None => false,
        };
        // The innermost statement containing the column: the latest start.
        let inner = on_line.iter().filter(|n| contains(n)).map(start).max();
        on_line
            .into_iter()
            .filter(|n| contains(n) && Some(start(n)) == inner)
            .collect()
    }

    fn no_match(&self, w: &Waypoint, what: &str) -> WitnessProblem {
        WitnessProblem::Invalid(format!(
            "the {} matches no {what} of the program",
            w.describe()
        ))
    }

    /// Where waypoint `w` is checked, with its condition there.
    pub fn place(&self, w: &Waypoint) -> Result<Vec<Placed>, WitnessProblem> {
        if let Some(f) = &w.file {
            if stem(f) != stem(&self.program) {
                return Err(WitnessProblem::Invalid(format!(
                    "the {} is in `{f}`, not in the program's file",
                    w.describe()
                )));
            }
        }
        match w.kind {
            Kind::Assumption => self.assumption(w),
            Kind::Branching => self.branching(w),
            Kind::FunctionEnter => {
                let calls = self.pick(w, self.calls(w));
                if calls.is_empty() {
                    return Err(self.no_match(w, "call"));
                }
                Ok(calls
                    .into_iter()
                    .map(|c| Placed {
                        point: Point::Before(c),
                        cond: Expr::int(1),
                    })
                    .collect())
            }
            Kind::FunctionReturn => self.function_return(w),
            // The target is checked on the edges into the error node, by the monitor
            // ([`Locator::targets`]).
            Kind::Target => Ok(Vec::new()),
        }
    }

    /// Every node a waypoint may name.
    fn statement_nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.stmts.iter().copied()
    }

    /// The calls on the waypoint's line.
    fn calls(&self, w: &Waypoint) -> impl Iterator<Item = NodeId> + '_ {
        self.on_line(w)
            .filter(|n| matches!(self.cfg().nodes[*n].kind, NodeKind::Call { .. }))
    }

    /// The nodes with an edge into the error node at the target's location.
    pub fn targets(&self, w: &Waypoint) -> Vec<NodeId> {
        let cfg = self.cfg();
        let errs = self
            .on_line(w)
            .filter(|n| intra_succs(cfg, *n).contains(&ERROR_NODE));
        self.pick(w, errs)
    }

    /// The first nodes of the statement at the waypoint: the nodes with the statement's
    /// span start that are entered from outside it.
    fn entries(&self, nodes: &[NodeId]) -> Vec<NodeId> {
        let cfg = self.cfg();
        let group: BTreeSet<NodeId> = nodes.iter().copied().collect();
        let mut entered = BTreeSet::new();
        for n in self.statement_nodes() {
            if group.contains(&n) {
                continue;
            }
            entered.extend(
                intra_succs(cfg, n)
                    .into_iter()
                    .filter(|s| group.contains(s)),
            );
        }
        for p in cfg.procs.iter() {
            if group.contains(&p.entry) {
                entered.insert(p.entry);
            }
        }
        entered.into_iter().collect()
    }

    fn assumption(&self, w: &Waypoint) -> Result<Vec<Placed>, WitnessProblem> {
        let nodes = self.pick(w, self.on_line(w));
        let entries = self.entries(&nodes);
        if entries.is_empty() {
            return Err(self.no_match(w, "statement"));
        }
        let text = w.constraint.clone().unwrap_or_else(|| "1".into());
        entries
            .into_iter()
            .map(|n| {
                Ok(Placed {
                    point: Point::Before(n),
                    cond: self.parse(w, n, &text, None)?,
                })
            })
            .collect()
    }

    fn parse(
        &self,
        w: &Waypoint,
        n: NodeId,
        text: &str,
        result: Option<Expr>,
    ) -> Result<Expr, WitnessProblem> {
        let Some(proc) = self.cfg().nodes[n].proc else {
            return Err(self.no_match(w, "statement"));
        };
        cexpr::parse_with_result(self.cfg(), proc, text, result).map_err(|why| {
            WitnessProblem::Unsupported(format!(
                "the {}: cannot read `{text}`: {why}",
                w.describe()
            ))
        })
    }

    /// A `function_return` at a call: after its return point, `\result` the returned
    /// value; at a nondeterministic value (`__VERIFIER_nondet_int()`, hoisted into
    /// `t = u`, or `a[i] = u`): after the draw, `\result` the value drawn.
    fn function_return(&self, w: &Waypoint) -> Result<Vec<Placed>, WitnessProblem> {
        let cfg = self.cfg();
        let draws = self.on_line(w).filter(|n| draw(cfg, *n).is_some());
        let cands: Vec<NodeId> = self.calls(w).chain(draws).collect();
        let nodes = self.pick(w, cands.into_iter());
        if nodes.is_empty() {
            return Err(self.no_match(w, "call"));
        }
        let text = w.constraint.clone().unwrap_or_else(|| "1".into());
        nodes
            .into_iter()
            .map(|n| {
                let (point, result) = match &cfg.nodes[n].kind {
                    NodeKind::Call { ret_point, .. } => {
                        (Point::After(*ret_point), Some(Expr::Var(cfg.ret)))
                    }
                    _ => (Point::After(n), draw(cfg, n)),
                };
                Ok(Placed {
                    point,
                    cond: self.parse(w, n, &text, result)?,
                })
            })
            .collect()
    }

    fn branching(&self, w: &Waypoint) -> Result<Vec<Placed>, WitnessProblem> {
        let cfg = self.cfg();
        let value = w.constraint.as_deref().map(str::trim).unwrap_or("true");
        let want = match value {
            "true" | "1" => Some(true),
            "false" | "0" => Some(false),
            _ => None,
        };
        let checks = |n: &NodeId| {
            cfg.bounds_checks.contains(n) || cfg.overflow_checks.contains(n) || {
                // An `assert`'s branch into the error node is not a branching statement.
                matches!(cfg.nodes[*n].kind, NodeKind::Branch { els, .. } if els == ERROR_NODE)
            }
        };
        let branches: Vec<NodeId> = self
            .on_line(w)
            .filter(|n| matches!(cfg.nodes[*n].kind, NodeKind::Branch { .. }) && !checks(n))
            .collect();
        // A `switch`: its value is held in `#switch` (see `sema::stmt`), assigned at the
        // expression after the keyword.
        let switch = self.switch_at(w);
        if let (Some((assign, t)), true) = (switch, want.is_none() || w.col.is_some()) {
            let exact_branch = self.pick(w, branches.iter().copied());
            if exact_branch.is_empty() || want.is_none() {
                return self.switch_case(w, assign, t, value);
            }
        }
        let Some(want) = want else {
            return Err(WitnessProblem::Invalid(format!(
                "the {}: `{value}` is not a branch (true or false) and no switch is there",
                w.describe()
            )));
        };
        let picked = self.pick(w, branches.into_iter());
        if !picked.is_empty() {
            // The statement's branches (a condition with calls lowers to several): its
            // edges out of the statement, `then` edges for true and `else` edges for false.
            let span = cfg.nodes[picked[0]].span;
            let group: BTreeSet<NodeId> = self
                .on_line(w)
                .filter(|n| cfg.nodes[*n].span.start == span.start)
                .collect();
            let mut out = Vec::new();
            for b in &group {
                if let NodeKind::Branch { then, els, .. } = cfg.nodes[*b].kind {
                    if checks(b) {
                        continue;
                    }
                    let to = if want { then } else { els };
                    if !group.contains(&to) {
                        out.push(Placed {
                            point: Point::Edge(*b, want),
                            cond: Expr::int(1),
                        });
                    }
                }
            }
            if !out.is_empty() {
                return Ok(out);
            }
        }
        self.ternary(w, want)
    }

    /// The `#switch = e` assignment of a `switch` at the waypoint's line, at or after its
    /// column (the keyword comes before the expression), with its temporary.
    fn switch_at(&self, w: &Waypoint) -> Option<(NodeId, VarId)> {
        let cfg = self.cfg();
        self.on_line(w)
            .filter_map(|n| match &cfg.nodes[n].kind {
                NodeKind::Assign { lhs, .. }
                    if lhs.len() == 1 && cfg.vars[lhs[0]].name == "#switch" =>
                {
                    let ((l, c), _) = self.at[n.0 as usize]?;
                    (l == w.line && w.col.is_none_or(|x| x <= c)).then_some((c, n, lhs[0]))
                }
                _ => None,
            })
            .min()
            .map(|(_, n, t)| (n, t))
    }

    /// The case `value` (or `default`) of the switch whose value is in `t`: checked just
    /// after `t` is assigned.
    fn switch_case(
        &self,
        w: &Waypoint,
        assign: NodeId,
        t: VarId,
        value: &str,
    ) -> Result<Vec<Placed>, WitnessProblem> {
        let cfg = self.cfg();
        let var = || Box::new(Expr::Var(t));
        let cond = if value == "default" {
            // No case's test holds: the tests are the branches `t == c` of the procedure.
            let tests: Vec<Expr> = cfg
                .nodes
                .iter()
                .filter_map(|n| match &n.kind {
                    NodeKind::Branch { cond, .. } if reads_only(cond, t) => {
                        Some(Expr::Not(Box::new(cond.clone())))
                    }
                    _ => None,
                })
                .collect();
            tests
                .into_iter()
                .reduce(|a, b| Expr::And(Box::new(a), Box::new(b)))
                .unwrap_or_else(|| Expr::int(1))
        } else {
            let Ok(v) = value
                .trim_end_matches(['u', 'U', 'l', 'L'])
                .parse::<BigInt>()
            else {
                return Err(WitnessProblem::Invalid(format!(
                    "the {}: a switch's branch is a case value or `default`, not `{value}`",
                    w.describe()
                )));
            };
            Expr::Cmp(CmpOp::Eq, var(), Box::new(Expr::Const(v)))
        };
        Ok(vec![Placed {
            point: Point::After(assign),
            cond,
        }])
    }

    /// A `?:` in a statement's expression: the statement's node with a conditional
    /// expression, the `k`-th `?` of the statement before the column giving which one
    /// (nodes' expressions have no spans of their own); checked just before the node,
    /// where the condition is evaluated (expressions have no side effects).
    fn ternary(&self, w: &Waypoint, want: bool) -> Result<Vec<Placed>, WitnessProblem> {
        let cfg = self.cfg();
        let with_cond = self.on_line(w).filter(|n| {
            cfg.nodes[*n]
                .kind
                .exprs()
                .iter()
                .any(|e| !conds(e).is_empty())
        });
        let nodes = self.pick(w, with_cond);
        let Some(&n) = nodes.first() else {
            return Err(self.no_match(w, "branching statement"));
        };
        let all: Vec<(Expr, Expr)> = cfg.nodes[n]
            .kind
            .exprs()
            .iter()
            .flat_map(|e| conds(e))
            .collect();
        let span = cfg.nodes[n].span;
        let text = self.loaded.file.text();
        let ((_, c0), _) = self.at[n.0 as usize].expect("a statement node");
        let upto = (span.start as usize + w.col.map_or(0, |c| c.saturating_sub(c0)) as usize)
            .min(text.len());
        let k = text
            .get(span.start as usize..upto)
            .map_or(0, |s| s.matches('?').count());
        let Some((guard, c)) = all.get(k.min(all.len() - 1)).cloned() else {
            return Err(self.no_match(w, "branching statement"));
        };
        let taken = if want {
            Expr::Cmp(CmpOp::Ne, Box::new(c), Box::new(Expr::int(0)))
        } else {
            Expr::Cmp(CmpOp::Eq, Box::new(c), Box::new(Expr::int(0)))
        };
        Ok(vec![Placed {
            point: Point::Before(n),
            cond: Expr::And(Box::new(guard), Box::new(taken)),
        }])
    }
}

/// The successors of a node within its procedure (a call's is its return point).
pub(super) fn intra_succs(cfg: &Cfg, n: NodeId) -> Vec<NodeId> {
    match &cfg.nodes[n].kind {
        NodeKind::Call { ret_point, .. } => vec![*ret_point],
        NodeKind::Exit => vec![],
        _ => cfg.succs(n),
    }
}

/// What a draw node (`t = u`, `a[i] = u`) sets: the value drawn, readable just after it.
pub(super) fn draw(cfg: &Cfg, n: NodeId) -> Option<Expr> {
    match &cfg.nodes[n].kind {
        NodeKind::Assign { lhs, rhs, .. } if lhs.len() == 1 && rhs == &[Expr::Undef] => {
            Some(Expr::Var(lhs[0]))
        }
        // The index has no arbitrary value of its own and the write does not change it.
        NodeKind::ArrayWrite {
            array,
            index,
            value: Expr::Undef,
            ..
        } if !has_undef(index) => Some(Expr::Read(*array, Box::new(index.clone()))),
        _ => None,
    }
}

/// Whether `e` reads an arbitrary value `u`.
fn has_undef(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| found |= matches!(x, Expr::Undef));
    found
}

/// Whether `e` is a comparison of `t` with a constant (a `switch`'s case test).
fn reads_only(e: &Expr, t: VarId) -> bool {
    match e {
        Expr::Cmp(CmpOp::Eq, a, b) => {
            matches!(a.as_ref(), Expr::Var(v) if *v == t) && !matches!(b.as_ref(), Expr::Var(_))
        }
        _ => false,
    }
}

/// The conditional expressions of `e` in pre-order, each with the condition under which
/// it is evaluated (the branches of the enclosing ones) and its own condition.
fn conds(e: &Expr) -> Vec<(Expr, Expr)> {
    fn go(e: &Expr, guard: &Expr, out: &mut Vec<(Expr, Expr)>) {
        let and = |a: &Expr, b: Expr| Expr::And(Box::new(a.clone()), Box::new(b));
        match e {
            Expr::Cond(c, a, b) => {
                out.push((guard.clone(), (**c).clone()));
                go(c, guard, out);
                let yes = Expr::Cmp(CmpOp::Ne, c.clone(), Box::new(Expr::int(0)));
                let no = Expr::Cmp(CmpOp::Eq, c.clone(), Box::new(Expr::int(0)));
                go(a, &and(guard, yes), out);
                go(b, &and(guard, no), out);
            }
            Expr::Const(_) | Expr::Var(_) | Expr::Undef | Expr::Nondet(..) => {}
            Expr::Read(_, x)
            | Expr::Scale(_, x)
            | Expr::Div(x, _)
            | Expr::Mod(x, _)
            | Expr::Wrap(_, x)
            | Expr::Overflow(_, x)
            | Expr::Not(x) => go(x, guard, out),
            Expr::Add(x, y)
            | Expr::Sub(x, y)
            | Expr::Cmp(_, x, y)
            | Expr::And(x, y)
            | Expr::Or(x, y) => {
                go(x, guard, out);
                go(y, guard, out);
            }
            Expr::Call(_, args, _) => args.iter().for_each(|a| go(a, guard, out)),
        }
    }
    let mut out = Vec::new();
    go(e, &Expr::int(1), &mut out);
    out
}
