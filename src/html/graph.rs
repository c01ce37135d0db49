//! A control-flow graph as an inline SVG, laid out by a small layered (Sugiyama-style)
//! layout of our own: per procedure, a depth-first search from the entry separates the
//! back edges (loops); ranks are longest paths over the other edges; a few barycenter
//! sweeps order each rank; back edges run up on the right, in lanes of their own.
//! Deterministic, iterative (no recursion on deep graphs), and never panics.

use super::escape;
use crate::iteration::EdgeKind;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// A node to draw.
#[derive(Clone, Debug)]
pub struct GNode {
    /// Its id (node 0 is the error node).
    pub id: u32,
    /// Its procedure.
    pub proc: Option<usize>,
    /// The text in its box.
    pub label: String,
    /// Its successors.
    pub succs: Vec<(u32, EdgeKind)>,
    /// A CSS class (`trace`, `core`, `rewritten`, ...), or empty.
    pub class: String,
}

/// Graphs with more nodes than this are not drawn.
pub const MAX_NODES: usize = 400;

/// Characters of a label shown in a box.
const LABEL_CHARS: usize = 34;
const CHAR_W: f64 = 6.6;
const NODE_H: f64 = 22.0;
const GAP_X: f64 = 18.0;
const GAP_Y: f64 = 24.0;
const LANE: f64 = 10.0;
const PROC_GAP: f64 = 40.0;
const TOP: f64 = 24.0;

/// The id of the error box drawn inside each procedure that reaches node 0.
const ERROR_BOX: u32 = u32::MAX;

struct Laid {
    /// Node id → (x of the box's left, y of its top).
    pos: BTreeMap<u32, (f64, f64)>,
    /// Forward edges (source, target, kind) and back edges.
    forward: Vec<(u32, u32, EdgeKind)>,
    back: Vec<(u32, u32, EdgeKind)>,
    /// Per back edge: whether it runs up on the left (fewer boxes to cross there).
    left: Vec<bool>,
    /// The x of the left edge of the boxes (after the left lanes).
    x0: f64,
    width: f64,
    height: f64,
}

fn short(label: &str) -> String {
    if label.chars().count() <= LABEL_CHARS {
        label.to_string()
    } else {
        let mut s: String = label.chars().take(LABEL_CHARS - 1).collect();
        s.push('…');
        s
    }
}

/// Lay out the nodes `members` (ids, in id order) of one procedure.
fn layout(members: &[u32], nodes: &BTreeMap<u32, &GNode>, node_w: f64) -> Laid {
    let inside: BTreeSet<u32> = members.iter().copied().collect();
    // Intra-procedural edges; an edge to node 0 goes to this procedure's error box.
    let mut succ: BTreeMap<u32, Vec<(u32, EdgeKind)>> = BTreeMap::new();
    let mut has_error = false;
    for &m in members {
        let mut out = Vec::new();
        for &(t, k) in nodes.get(&m).map(|n| n.succs.as_slice()).unwrap_or(&[]) {
            if matches!(k, EdgeKind::Call | EdgeKind::Return) {
                continue;
            }
            if t == 0 {
                has_error = true;
                out.push((ERROR_BOX, k));
            } else if inside.contains(&t) {
                out.push((t, k));
            }
        }
        succ.insert(m, out);
    }
    let mut all: Vec<u32> = members.to_vec();
    if has_error {
        all.push(ERROR_BOX);
        succ.insert(ERROR_BOX, Vec::new());
    }
    let has_pred: BTreeSet<u32> = succ.values().flatten().map(|(t, _)| *t).collect();
    // Roots: the entry (the first node without a predecessor), then any node not reached.
    let mut roots: Vec<u32> = all
        .iter()
        .copied()
        .filter(|n| !has_pred.contains(n))
        .collect();
    roots.extend(all.iter().copied());
    // Iterative DFS: preorder, postorder, back edges.
    let mut state: BTreeMap<u32, u8> = BTreeMap::new(); // 1 on stack, 2 done
    let mut pre: BTreeMap<u32, usize> = BTreeMap::new();
    let mut post: Vec<u32> = Vec::new();
    let mut back = Vec::new();
    let mut forward = Vec::new();
    for r in roots {
        if state.contains_key(&r) {
            continue;
        }
        let mut stack: Vec<(u32, usize)> = vec![(r, 0)];
        state.insert(r, 1);
        pre.insert(r, pre.len());
        while let Some((v, i)) = stack.pop() {
            let ss = succ.get(&v).cloned().unwrap_or_default();
            if i < ss.len() {
                stack.push((v, i + 1));
                let (t, k) = ss[i];
                match state.get(&t) {
                    None => {
                        forward.push((v, t, k));
                        state.insert(t, 1);
                        pre.insert(t, pre.len());
                        stack.push((t, 0));
                    }
                    Some(1) => back.push((v, t, k)),
                    _ => forward.push((v, t, k)),
                }
            } else {
                state.insert(v, 2);
                post.push(v);
            }
        }
    }
    // Ranks: longest paths over the forward edges, in reverse postorder.
    let mut rank: BTreeMap<u32, usize> = all.iter().map(|n| (*n, 0)).collect();
    let mut fwd_succ: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut fwd_pred: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for (s, t, _) in &forward {
        fwd_succ.entry(*s).or_default().push(*t);
        fwd_pred.entry(*t).or_default().push(*s);
    }
    for v in post.iter().rev() {
        let r = rank.get(v).copied().unwrap_or(0);
        for t in fwd_succ.get(v).map(Vec::as_slice).unwrap_or(&[]) {
            let e = rank.entry(*t).or_insert(0);
            *e = (*e).max(r + 1);
        }
    }
    // The error box at the bottom.
    if has_error {
        let max = rank.values().copied().max().unwrap_or(0);
        rank.insert(ERROR_BOX, max + 1);
    }
    let nranks = rank.values().copied().max().map_or(0, |m| m + 1);
    let mut layers: Vec<Vec<u32>> = vec![Vec::new(); nranks];
    for n in &all {
        layers[rank[n]].push(*n);
    }
    for l in layers.iter_mut() {
        l.sort_by_key(|n| pre.get(n).copied().unwrap_or(usize::MAX));
    }
    // Barycenter sweeps.
    let mut posi: BTreeMap<u32, f64> = BTreeMap::new();
    let index = |layers: &Vec<Vec<u32>>, posi: &mut BTreeMap<u32, f64>| {
        for l in layers {
            for (i, n) in l.iter().enumerate() {
                posi.insert(*n, i as f64);
            }
        }
    };
    index(&layers, &mut posi);
    for sweep in 0..4 {
        let down = sweep % 2 == 0;
        for r in 0..nranks {
            let r = if down { r } else { nranks - 1 - r };
            let nb = if down { &fwd_pred } else { &fwd_succ };
            let mut keyed: Vec<(f64, f64, u32)> = layers[r]
                .iter()
                .map(|n| {
                    let own = posi[n];
                    let ps = nb.get(n).map(Vec::as_slice).unwrap_or(&[]);
                    let bc = if ps.is_empty() {
                        own
                    } else {
                        ps.iter().map(|p| posi[p]).sum::<f64>() / ps.len() as f64
                    };
                    (bc, own, *n)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            layers[r] = keyed.into_iter().map(|k| k.2).collect();
            for (i, n) in layers[r].iter().enumerate() {
                posi.insert(*n, i as f64);
            }
        }
    }
    let widest = layers.iter().map(Vec::len).max().unwrap_or(1).max(1);
    let inner_w = widest as f64 * (node_w + GAP_X) - GAP_X;
    // A back edge runs up on the side of its source with fewer boxes in the source's rank.
    let left: Vec<bool> = back
        .iter()
        .map(|(src, _, _)| {
            let l = &layers[rank[src]];
            let i = l.iter().position(|n| n == src).unwrap_or(0);
            i < l.len() - 1 - i
        })
        .collect();
    let n_left = left.iter().filter(|l| **l).count();
    let n_right = left.len() - n_left;
    let lanes_left = if n_left > 0 {
        LANE * (n_left as f64 + 1.0)
    } else {
        0.0
    };
    let mut pos = BTreeMap::new();
    for (r, l) in layers.iter().enumerate() {
        let w = l.len() as f64 * (node_w + GAP_X) - GAP_X;
        let x0 = lanes_left + (inner_w - w) / 2.0;
        for (i, n) in l.iter().enumerate() {
            pos.insert(
                *n,
                (
                    x0 + i as f64 * (node_w + GAP_X),
                    TOP + r as f64 * (NODE_H + GAP_Y),
                ),
            );
        }
    }
    Laid {
        pos,
        forward,
        back,
        left,
        x0: lanes_left,
        width: lanes_left + inner_w + LANE * (n_right as f64 + 1.0) + 8.0,
        height: TOP + nranks as f64 * (NODE_H + GAP_Y),
    }
}

/// The CFG as an inline SVG (one column per procedure), with the edges in
/// `highlight` (pairs of node ids) drawn as the trace. `None` when it has more than
/// [`MAX_NODES`] nodes.
pub fn svg(
    nodes: &[GNode],
    procs: &[String],
    highlight: &BTreeSet<(u32, u32)>,
    title: &str,
) -> Option<String> {
    if nodes.len() > MAX_NODES {
        return None;
    }
    let by_id: BTreeMap<u32, &GNode> = nodes.iter().map(|n| (n.id, n)).collect();
    let longest = nodes
        .iter()
        .map(|n| short(&format!("{}: {}", n.id, n.label)).chars().count())
        .max()
        .unwrap_or(8)
        .max(8);
    let node_w = longest as f64 * CHAR_W + 12.0;
    let mut body = String::new();
    let mut x_off = 8.0;
    let mut height: f64 = 0.0;
    for (p, name) in procs.iter().enumerate() {
        let members: Vec<u32> = nodes
            .iter()
            .filter(|n| n.proc == Some(p))
            .map(|n| n.id)
            .collect();
        if members.is_empty() {
            continue;
        }
        let laid = layout(&members, &by_id, node_w);
        let at = |n: u32| -> (f64, f64) {
            let (x, y) = laid.pos.get(&n).copied().unwrap_or((0.0, 0.0));
            (x + x_off, y)
        };
        let _ = write!(
            body,
            r#"<g class="proc"><text class="proc-name" x="{:.1}" y="14">{}</text>"#,
            x_off,
            escape(name)
        );
        // Forward edges.
        for (s, t, k) in &laid.forward {
            let (sx, sy) = at(*s);
            let (tx, ty) = at(*t);
            let (x1, y1) = (sx + node_w / 2.0, sy + NODE_H);
            let (x2, y2) = (tx + node_w / 2.0, ty);
            let real_t = if *t == ERROR_BOX { 0 } else { *t };
            let class = edge_class(*k, highlight.contains(&(*s, real_t)), real_t == 0);
            let my = (y1 + y2) / 2.0;
            let _ = write!(
                body,
                r#"<path class="{class}" d="M{x1:.1},{y1:.1} C{x1:.1},{my:.1} {x2:.1},{my:.1} {x2:.1},{:.1}" marker-end="url(#arrow)"/>"#,
                y2 - 1.0
            );
            edge_label(&mut body, *k, x1, y1);
        }
        // Back edges: out on the right, up in a lane, into the target's right side.
        let (mut li, mut ri) = (0.0, 0.0);
        for (i, (s, t, k)) in laid.back.iter().enumerate() {
            let (sx, sy) = at(*s);
            let (tx, ty) = at(*t);
            let on_left = laid.left.get(i).copied().unwrap_or(false);
            let (lane, x1, end) = if on_left {
                li += 1.0;
                (x_off + laid.x0 - LANE * li, sx, tx - 1.0)
            } else {
                ri += 1.0;
                let lane = x_off + laid.width - 8.0 - LANE * ri;
                (lane, sx + node_w, tx + node_w + 1.0)
            };
            let (y1, y2) = (sy + NODE_H / 2.0, ty + NODE_H / 2.0);
            let class = edge_class(*k, highlight.contains(&(*s, *t)), false);
            let _ = write!(
                body,
                r#"<path class="{class} back" d="M{x1:.1},{y1:.1} H{lane:.1} V{y2:.1} H{end:.1}" marker-end="url(#arrow)"/>"#
            );
            edge_label(&mut body, *k, x1, y1);
        }
        // Boxes.
        for (&n, _) in laid.pos.iter() {
            let (x, y) = at(n);
            let (text, class, full) = if n == ERROR_BOX {
                (
                    "0: ERROR".to_string(),
                    "error".to_string(),
                    "0: ERROR".to_string(),
                )
            } else {
                let g = by_id.get(&n);
                let label = g.map(|g| g.label.as_str()).unwrap_or("");
                let full = format!("{n}: {label}");
                (
                    short(&full),
                    g.map(|g| g.class.clone()).unwrap_or_default(),
                    full,
                )
            };
            let _ = write!(
                body,
                r#"<g class="node {class}" data-node="{}"><title>{}</title><rect x="{x:.1}" y="{y:.1}" width="{node_w:.1}" height="{NODE_H:.1}" rx="4"/><text x="{:.1}" y="{:.1}">{}</text></g>"#,
                if n == ERROR_BOX { 0 } else { n },
                escape(&full),
                x + 6.0,
                y + NODE_H / 2.0 + 4.0,
                escape(&text)
            );
        }
        body.push_str("</g>");
        x_off += laid.width + PROC_GAP;
        height = height.max(laid.height);
    }
    let width = (x_off - PROC_GAP + 8.0).max(100.0);
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="cfg" role="img" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}"><title>{}</title><defs><marker id="arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#555"/></marker></defs>{body}</svg>"##,
        escape(title)
    );
    Some(s)
}

fn edge_class(k: EdgeKind, on_trace: bool, to_error: bool) -> String {
    let mut c = String::from("edge");
    if matches!(k, EdgeKind::Summary) {
        c.push_str(" summary");
    }
    if to_error {
        c.push_str(" to-error");
    }
    if on_trace {
        c.push_str(" on-trace");
    }
    c
}

fn edge_label(out: &mut String, k: EdgeKind, x: f64, y: f64) {
    let t = match k {
        EdgeKind::Then => "T",
        EdgeKind::Else => "F",
        EdgeKind::Summary => "call",
        _ => return,
    };
    let _ = write!(
        out,
        r#"<text class="edge-label" x="{:.1}" y="{:.1}">{t}</text>"#,
        x + 3.0,
        y + 10.0
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(id: u32, succs: &[(u32, EdgeKind)]) -> GNode {
        GNode {
            id,
            proc: Some(0),
            label: format!("s{id} < 3 && \"x\""),
            succs: succs.to_vec(),
            class: String::new(),
        }
    }

    #[test]
    fn a_loop_has_one_back_edge_and_ranks_go_down() {
        use EdgeKind::*;
        let g = vec![
            n(1, &[(2, Next)]),
            n(2, &[(3, Then), (4, Else)]),
            n(3, &[(2, Next)]),
            n(4, &[(0, Next)]),
        ];
        let by_id: BTreeMap<u32, &GNode> = g.iter().map(|n| (n.id, n)).collect();
        let l = layout(&[1, 2, 3, 4], &by_id, 100.0);
        assert_eq!(l.back, vec![(3, 2, Next)]);
        assert!(l.pos[&1].1 < l.pos[&2].1 && l.pos[&2].1 < l.pos[&3].1);
        assert!(l.pos[&4].1 < l.pos[&ERROR_BOX].1);
        let s = svg(&g, &["main".into()], &BTreeSet::new(), "t").unwrap();
        assert!(s.contains("&lt; 3 &amp;&amp; &quot;x&quot;"));
        assert!(!s.contains("< 3"));
    }

    #[test]
    fn odd_graphs_do_not_panic() {
        use EdgeKind::*;
        // Self loop, dangling successor, a node of no procedure, an empty graph.
        let mut g = vec![n(5, &[(5, Next), (99, Next)])];
        g.push(GNode {
            proc: None,
            ..n(0, &[])
        });
        assert!(svg(&g, &["main".into(), "f".into()], &BTreeSet::new(), "t").is_some());
        assert!(svg(&[], &[], &BTreeSet::new(), "t").is_some());
    }
}
