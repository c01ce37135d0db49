//! The order in which the merged engine unrolls a procedure: Bourdoncle's weak
//! topological order of its control-flow graph (F. Bourdoncle, *Efficient chaotic
//! iteration strategies with widenings*, 1993). Nodes are placed in a line where every
//! edge goes forward except the edges back to the head of a component (a loop), and
//! every component is contiguous, head first. Every cycle passes through the head of a
//! component that contains it, so bounding the visits of heads bounds every path.
//!
//! The call edge is followed to the return point (a callee is unrolled on its own).

use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::ids::NodeId;
use std::collections::HashMap;

/// The weak topological order of one procedure.
pub(super) struct Wto {
    /// Each node's place in the order.
    pub pos: HashMap<NodeId, u64>,
    /// Each node's enclosing components, outermost first, by their heads (a head is the
    /// innermost entry of its own list).
    pub loops: HashMap<NodeId, Vec<NodeId>>,
}

/// The successors of `n` within its procedure (the error node left out).
pub(super) fn succs(cfg: &Cfg, n: NodeId) -> Vec<NodeId> {
    let mut out = match &cfg.nodes[n].kind {
        NodeKind::Branch { then, els, .. } => vec![*then, *els],
        NodeKind::Assume { next, .. }
        | NodeKind::Skip { next }
        | NodeKind::Assign { next, .. }
        | NodeKind::ArrayWrite { next, .. }
        | NodeKind::ArrayInit { next, .. } => vec![*next],
        NodeKind::Call { ret_point, .. } => vec![*ret_point],
        NodeKind::Exit | NodeKind::Stop | NodeKind::Error => Vec::new(),
    };
    out.dedup();
    out.retain(|s| *s != ERROR_NODE);
    out
}

enum Elem {
    Vertex(NodeId),
    Component(NodeId, Vec<Elem>),
}

struct Builder<'c> {
    cfg: &'c Cfg,
    dfn: HashMap<NodeId, u64>,
    stack: Vec<NodeId>,
    num: u64,
}

impl Builder<'_> {
    fn dfn(&self, v: NodeId) -> u64 {
        self.dfn.get(&v).copied().unwrap_or(0)
    }

    /// Bourdoncle's `visit`: elements are pushed in finishing order (reversed later).
    fn visit(&mut self, v: NodeId, partition: &mut Vec<Elem>) -> u64 {
        self.stack.push(v);
        self.num += 1;
        self.dfn.insert(v, self.num);
        let mut head = self.num;
        let mut is_loop = false;
        for w in succs(self.cfg, v) {
            let min = match self.dfn(w) {
                0 => self.visit(w, partition),
                d => d,
            };
            if min <= head {
                head = min;
                is_loop = true;
            }
        }
        if head == self.dfn(v) {
            self.dfn.insert(v, u64::MAX);
            let mut e = self.stack.pop();
            if is_loop {
                while let Some(x) = e {
                    if x == v {
                        break;
                    }
                    self.dfn.insert(x, 0);
                    e = self.stack.pop();
                }
                let c = self.component(v);
                partition.push(c);
            } else {
                partition.push(Elem::Vertex(v));
            }
        }
        head
    }

    fn component(&mut self, v: NodeId) -> Elem {
        let mut part = Vec::new();
        for w in succs(self.cfg, v) {
            if self.dfn(w) == 0 {
                self.visit(w, &mut part);
            }
        }
        part.reverse();
        Elem::Component(v, part)
    }
}

impl Wto {
    /// The order of the nodes reachable from `entry`.
    pub(super) fn new(cfg: &Cfg, entry: NodeId) -> Wto {
        let mut b = Builder {
            cfg,
            dfn: HashMap::new(),
            stack: Vec::new(),
            num: 0,
        };
        let mut top = Vec::new();
        b.visit(entry, &mut top);
        top.reverse();
        let mut w = Wto {
            pos: HashMap::new(),
            loops: HashMap::new(),
        };
        let mut p = 0;
        w.place(&top, &mut Vec::new(), &mut p);
        w
    }

    fn place(&mut self, elems: &[Elem], heads: &mut Vec<NodeId>, p: &mut u64) {
        for e in elems {
            match e {
                Elem::Vertex(v) => {
                    self.pos.insert(*v, *p);
                    self.loops.insert(*v, heads.clone());
                    *p += 1;
                }
                Elem::Component(h, part) => {
                    heads.push(*h);
                    self.pos.insert(*h, *p);
                    self.loops.insert(*h, heads.clone());
                    *p += 1;
                    self.place(part, heads, p);
                    heads.pop();
                }
            }
        }
    }
}
