//! Graphviz output of a CFG (`lpmc cfg FILE --dot`).

use super::{Cfg, NodeKind, ERROR_NODE};
use crate::sema::{CmpOp, Expr};

/// The CFG in Graphviz `dot` syntax: one cluster per procedure, node 0 as a red octagon.
pub fn to_dot(cfg: &Cfg) -> String {
    let mut out = String::from("digraph cfg {\n  node [shape=box, fontname=\"monospace\"];\n");
    out.push_str(&format!(
        "  {} [label=\"0: ERROR\", shape=octagon, color=red];\n",
        ERROR_NODE.0
    ));
    for (p, proc) in cfg.procs.iter_enumerated() {
        out.push_str(&format!(
            "  subgraph cluster_{} {{\n    label=\"{}\";\n",
            p.0,
            escape(&proc.name)
        ));
        for (n, node) in cfg.nodes.iter_enumerated() {
            if node.proc != Some(p) {
                continue;
            }
            out.push_str(&format!(
                "    {} [label=\"{}: {}\"];\n",
                n.0,
                n.0,
                escape(&label(cfg, &node.kind))
            ));
        }
        out.push_str("  }\n");
    }
    for (n, node) in cfg.nodes.iter_enumerated() {
        match &node.kind {
            NodeKind::Branch { then, els, .. } => {
                out.push_str(&format!(
                    "  {} -> {} [label=\"T\"];\n  {} -> {} [label=\"F\"];\n",
                    n.0, then.0, n.0, els.0
                ));
            }
            NodeKind::Call { ret_point, .. } => {
                for s in cfg.succs(n) {
                    out.push_str(&format!(
                        "  {} -> {} [style=dashed, label=\"call\"];\n",
                        n.0, s.0
                    ));
                }
                out.push_str(&format!(
                    "  {} -> {} [style=dotted, label=\"summary\"];\n",
                    n.0, ret_point.0
                ));
            }
            NodeKind::Exit => {
                for s in cfg.succs(n) {
                    out.push_str(&format!(
                        "  {} -> {} [style=dashed, label=\"return\"];\n",
                        n.0, s.0
                    ));
                }
            }
            _ => {
                for s in cfg.succs(n) {
                    out.push_str(&format!("  {} -> {};\n", n.0, s.0));
                }
            }
        }
    }
    out.push_str("}\n");
    out
}

/// A one-line description of a node's statement.
pub fn label(cfg: &Cfg, k: &NodeKind) -> String {
    match k {
        NodeKind::Error => "ERROR".into(),
        NodeKind::Skip { .. } => "skip".into(),
        NodeKind::Assign { lhs, rhs, .. } => format!(
            "{} = {}",
            lhs.iter()
                .map(|v| cfg.var_name(*v))
                .collect::<Vec<_>>()
                .join(", "),
            rhs.iter()
                .map(|e| expr(cfg, e))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        NodeKind::ArrayWrite {
            array,
            index,
            value,
            ..
        } => {
            format!(
                "{}[{}] = {}",
                cfg.arrays[*array].name,
                expr(cfg, index),
                expr(cfg, value)
            )
        }
        NodeKind::ArrayInit {
            array,
            values: None,
            ..
        } => format!("{} = <arbitrary>", cfg.arrays[*array].name),
        NodeKind::ArrayInit {
            array,
            values: Some(vs),
            ..
        } => format!(
            "{} = {{{}}}",
            cfg.arrays[*array].name,
            vs.iter()
                .map(|e| expr(cfg, e))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        NodeKind::Branch { cond, .. } => format!("if ({})", expr(cfg, cond)),
        NodeKind::Assume { cond, .. } => format!("assume({})", expr(cfg, cond)),
        NodeKind::Call { proc, args, .. } => format!(
            "{}({})",
            cfg.procs[*proc].name,
            args.iter()
                .map(|e| expr(cfg, e))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        NodeKind::Exit => "exit".into(),
        NodeKind::Stop => "stop".into(),
    }
}

/// An expression in C-like syntax with the CFG's variable names.
pub fn expr(cfg: &Cfg, e: &Expr) -> String {
    let p = |e: &Expr| expr(cfg, e);
    match e {
        Expr::Const(n) => n.to_string(),
        Expr::Var(v) => cfg.var_name(*v),
        Expr::Undef => "u".into(),
        Expr::Read(a, i) => format!("{}[{}]", cfg.arrays[*a].name, p(i)),
        Expr::Add(a, b) => format!("({} + {})", p(a), p(b)),
        Expr::Sub(a, b) => format!("({} - {})", p(a), p(b)),
        Expr::Scale(c, a) => format!("{}*{}", c, p(a)),
        Expr::Div(a, c) => format!("({} / {})", p(a), c),
        Expr::Mod(a, c) => format!("({} % {})", p(a), c),
        Expr::Cmp(op, a, b) => format!("({} {} {})", p(a), CmpOp::as_str(*op), p(b)),
        Expr::Not(a) => format!("!{}", p(a)),
        Expr::And(a, b) => format!("({} && {})", p(a), p(b)),
        Expr::Or(a, b) => format!("({} || {})", p(a), p(b)),
        Expr::Cond(c, a, b) => format!("({} ? {} : {})", p(c), p(a), p(b)),
        Expr::Call(pr, args, _) => format!(
            "{}({})",
            cfg.procs[*pr].name,
            args.iter().map(p).collect::<Vec<_>>().join(", ")
        ),
        Expr::Nondet(..) => "nondet()".into(),
        Expr::Wrap(w, a) => format!("({w}){}", p(a)),
        // A signed result that must fit: C's own arithmetic, printed as written.
        Expr::Overflow(_, a) => p(a),
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A plain listing: one line per node with its procedure, statement and successors.
pub fn to_text(cfg: &Cfg) -> String {
    let mut out = String::new();
    for (n, node) in cfg.nodes.iter_enumerated() {
        let proc = node.proc.map(|p| cfg.procs[p].name.as_str()).unwrap_or("-");
        let succs: Vec<String> = cfg.succs(n).iter().map(|s| s.0.to_string()).collect();
        out.push_str(&format!(
            "{:>4}  {:<12} {:<40} -> {}\n",
            n.0,
            proc,
            label(cfg, &node.kind),
            succs.join(", ")
        ));
    }
    out
}
